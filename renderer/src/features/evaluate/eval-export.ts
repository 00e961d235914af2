import type { EvalReport, SavedQuestion } from '../../../../shared/eval';
import { METRIC_COLUMNS } from './eval-metrics';

/** Reports and saved questions as files: CSV (RFC 4180), JSON, and a question set Quire can read back. */

/**
 * One CSV field: quoted when it holds a comma, a quote, CR or LF (quotes doubled), else as is. A
 * text starting with = + - @, a tab or CR gets a leading ' first, so a spreadsheet shows it as
 * text instead of running it as a formula (a model name is whatever its author typed); numbers
 * stay numbers.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  // Twelve significant digits drop binary floating-point noise (148.38000000000002) and keep any real precision.
  const s = typeof value === 'number' ? (Number.isFinite(value) ? String(Number(value.toPrecision(12))) : '') : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(fields: ReadonlyArray<string | number | null>): string {
  return fields.map(csvField).join(',');
}

export const CSV_HEADER: readonly string[] = ['chat_model', 'embed_model', 'chunker', 'k', 'mode', 'fusion', ...METRIC_COLUMNS.map((c) => c.csv)];

/**
 * One row per configuration with flat metric columns; rates as fractions (0–1), times in ms,
 * "not run" as an empty field; a retrieval-only configuration has an empty chat_model. Lines end
 * with CRLF as RFC 4180 asks.
 */
export function reportToCsv(report: EvalReport): string {
  const lines = [csvRow(CSV_HEADER)];
  for (const c of report.configs) {
    // Fusion applies to hybrid search only; empty elsewhere.
    lines.push(csvRow([c.chatModel, c.mode === 'lexical' ? null : c.embedModel, c.chunker, c.k, c.mode, c.mode === 'hybrid' ? c.fusion : null, ...METRIC_COLUMNS.map((m) => m.get(c))]));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function reportToJson(report: EvalReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Saved questions in the nested question-set form (`{ id, question, expect }`), ready for `.quire-questions.json`. */
export function savedQuestionsToSet(questions: readonly SavedQuestion[]): string {
  const set = questions.map((q) => {
    const expect = {
      ...(q.expect.chunkFact !== undefined ? { chunkFact: q.expect.chunkFact } : {}),
      ...(q.expect.answerRegex !== undefined ? { answerRegex: q.expect.answerRegex } : {}),
      answerable: q.expect.answerable,
    };
    return { id: q.id, question: q.question, expect };
  });
  return `${JSON.stringify(set, null, 2)}\n`;
}

/** "quire-eval-2026-03-01-1000" from the report's time. */
export function reportFileName(report: EvalReport, ext: 'json' | 'csv'): string {
  const d = new Date(report.run.at);
  const stamp = Number.isNaN(d.getTime())
    ? 'report'
    : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}`;
  return `quire-eval-${stamp}.${ext}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

// Shared with the Ask view's conversation export.
