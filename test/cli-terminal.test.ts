import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeJson } from '../electron/cli/terminal-text';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

/**
 * What the CLI prints comes from files someone else may have written: a name, a heading or a
 * passage must not recolour, retitle, clear or rewrite the terminal.
 */
const HOSTILE_NAME = '\x1b[31mRED\x1b]0;TITLE\x07.md';
const HOSTILE_SKIPPED = 'clip\x1b]52;c;cm0gLXJmIH4=\x07\x9b2J.svg';
// Every introducer a terminal acts on: ESC, BEL, CSI in one byte (C1), CR, backspace, bidi override.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file }, { stdout: true, stderr: false });

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-term-');
  notes.write(HOSTILE_NAME, '# Lanterns \x1b[2J\x1b[H\n\nThe lanterns are lit at dusk.\x1b[8m hidden\x1b[0m and\r overwritten \u202Eesrever\u202C.\n');
  notes.write(HOSTILE_SKIPPED, '<svg/>');
  db = tempDbPath('quire-cli-term-db-');
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('terminal output from hostile names and text', () => {
  it('import, search, ask and errors print no control characters or escape sequences', async () => {
    const outputs = [
      await quire(['import', notes.root]),
      await quire(['search', 'when are the lanterns lit', '--mode', 'lexical']),
      await quire(['ask', 'When are the lanterns lit?']),
      await quire(['forget', `${notes.root}/\x1b]0;pwned\x07`]),
      await quire(['search', 'x', '--mode', '\x1b[31mbad']),
      await quire(['search', '--\x1b[31mflag']),
    ];
    const search = outputs[1]!.stdout;
    expect(search).toContain('\uFFFD[31mRED\uFFFD]0;TITLE\uFFFD.md:1-');
    expect(search).toContain('Lanterns \uFFFD[2J\uFFFD[H');
    expect(outputs[3]!.stderr).toContain('\uFFFD]0;pwned\uFFFD');
    expect(outputs[3]!.code).toBe(1);
    expect(outputs[4]!.code).toBe(2);
    expect(outputs[5]!.code).toBe(2);
    for (const { stdout, stderr } of outputs) {
      expect(stdout).not.toMatch(CONTROL);
      expect(stderr).not.toMatch(CONTROL);
    }
  });

  it('--json keeps the exact name, with every control written as an escape', async () => {
    const { code, stdout } = await quire(['search', 'lanterns', '--mode', 'lexical', '--json']);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(CONTROL);
    expect(JSON.parse(stdout).results[0].path).toBe(HOSTILE_NAME);
    const imported = await quire(['import', notes.root, '--json']);
    expect(imported.stdout).not.toMatch(CONTROL);
    expect(JSON.parse(imported.stdout).skipped).toContainEqual({ path: HOSTILE_SKIPPED, reason: 'unsupported-type' });
  });

  it('terminalSafe keeps text, line breaks and tabs; terminalSafeJson round-trips', () => {
    expect(terminalSafe('a\tb\nc é 👩‍💻')).toBe('a\tb\nc é 👩‍💻');
    expect(terminalSafe('\x1b[31mx\x9b2Jy\rz\bw\u202Ev')).toBe('\uFFFD[31mx\uFFFD2Jy\uFFFDz\uFFFDw\uFFFDv');
    const value = { s: 'a\x1b\x9b\x7f\u202e\u2066b' };
    expect(terminalSafeJson(value)).not.toMatch(CONTROL);
    expect(JSON.parse(terminalSafeJson(value, 2))).toEqual(value);
  });
});
