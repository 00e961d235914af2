/**
 * Output discipline for the CLI: with --json, stdout carries exactly one JSON document and
 * everything else (progress, warnings, even stray library logging) goes to stderr. Whatever a
 * command prints passes through terminal-text.ts here, so no file name or passage can drive the
 * terminal; only the progress bar's own sequences are written raw.
 */
import { terminalSafe, terminalSafeJson } from './terminal-text';

/** What the CLI writes to: process.stdout/stderr, or anything with write() (a test's capture). */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

export interface Output {
  json: boolean;
  /** The command's result: JSON on stdout with --json, else the human text. */
  result(value: unknown, human: () => string): void;
  /** Raw text on stdout as it arrives (a streamed answer); callers stream only without --json. */
  stream(text: string): void;
  /** Progress and notes for people: stderr, never stdout. */
  note(line: string): void;
  /** A question whose answer is typed on the same line (stderr, no line break). */
  prompt(text: string): void;
  /** A bar redrawn in place on a terminal; elsewhere a line every few seconds (PROGRESS_LINE_EVERY_MS). */
  progress(fraction: number, label: string): void;
  endProgress(): void;
}

export interface OutputOptions {
  /** The clock progress lines are spaced by (performance.now unless given: tests). */
  now?: () => number;
}

/**
 * With stderr not a terminal (a log file, a pipe, CI), a redrawn bar would be a mess of carriage
 * returns, and none at all left a long import silent for minutes: a plain line instead, once this
 * long has passed since the command began or since the last one, so a short command prints none.
 */
export const PROGRESS_LINE_EVERY_MS = 5_000;

export function createOutput(json: boolean, stdout: TextSink = process.stdout, stderr: TextSink = process.stderr, options: OutputOptions = {}): Output {
  const tty = Boolean(stderr.isTTY);
  const now = options.now ?? (() => performance.now());
  let lastLine = now();
  let drawn = false;
  return {
    json,
    result(value, human) {
      if (drawn) this.endProgress();
      stdout.write(json ? `${terminalSafeJson(value, 2)}\n` : `${terminalSafe(human())}\n`);
    },
    stream(text) {
      if (drawn) this.endProgress();
      stdout.write(terminalSafe(text));
    },
    note(line) {
      if (drawn) this.endProgress();
      stderr.write(`${terminalSafe(line)}\n`);
    },
    prompt(text) {
      if (drawn) this.endProgress();
      stderr.write(terminalSafe(text));
    },
    progress(fraction, label) {
      const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
      if (!tty) {
        const t = now();
        if (t - lastLine < PROGRESS_LINE_EVERY_MS) return;
        lastLine = t;
        stderr.write(`${(f * 100).toFixed(0).padStart(3)}% ${terminalSafe(label)}\n`);
        return;
      }
      const width = 28;
      const filled = Math.round(f * width);
      const cols = stderr.columns ?? 100;
      const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(f * 100).toFixed(0).padStart(3)}% ${terminalSafe(label)}`;
      stderr.write(`\r\x1b[2K${line.slice(0, cols - 1)}`);
      drawn = true;
    },
    endProgress() {
      if (drawn && tty) stderr.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
