import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-run';
import { tempDbPath } from './support/notes';
import { COMMAND_NAMES } from '../electron/cli/usage';

const db = tempDbPath('quire-cli-help-');
afterAll(() => db.dispose());
const quire = (args: string[], env: Record<string, string> = {}) => runCli(args, { QUIRE_DB: db.file, OLLAMA_HOST: 'http://127.0.0.1:9', ...env });

describe('quire help, as a new user reads it', () => {
  it('<command> --help and "help <command>" print that command alone, on stdout, with the options every command takes', async () => {
    for (const command of COMMAND_NAMES) {
      for (const args of [[command, '--help'], ['help', command]]) {
        const r = await quire(args);
        expect(r.code, args.join(' ')).toBe(0);
        expect(r.stdout.startsWith(`Usage: quire ${command}`), args.join(' ')).toBe(true);
        expect(r.stdout).toContain('Every command: --db PATH');
        // Only this command's block: no other command's first line.
        for (const other of COMMAND_NAMES.filter((c) => c !== command)) expect(r.stdout, `${command} shows ${other}`).not.toMatch(new RegExp(`^  ${other} `, 'm'));
      }
    }
    expect((await quire(['embed', '--help'])).stdout).toContain('--model NAME');
    expect((await quire(['help'])).stdout).toMatch(/^quire — answers from your own notes/);
  });

  it('a usage error says what is wrong and where to read more, as the command was typed, without the whole usage under it', async () => {
    const unknown = await quire(['frobnicate'], { npm_lifecycle_event: '' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`Error (INVALID_ARGUMENT): Unknown command "frobnicate". The commands are ${COMMAND_NAMES.join(', ')}. See: quire --help\n`);
    const viaNpm = await quire(['frobnicate'], { npm_lifecycle_event: 'quire' });
    expect(viaNpm.stderr).toMatch(/See: npm run quire -- --help\n$/);
    const flag = await quire(['search', 'keys', '--bogus']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe('Unknown option --bogus.\nSee: quire search --help\n');
    const noFile = await quire(['eval', '--docs', '/tmp']);
    expect(noFile.stderr).toContain('See: quire eval --help');
  });

  it('import and embed --help list --batch, which they read', async () => {
    for (const command of ['import', 'embed']) expect((await quire([command, '--help'])).stdout).toMatch(/^ {6}--batch N {9}texts per embedding request \(1-4096; default 32\)/m);
  });

  // Node's own "Option '--k <value>' argument missing" used to be printed as it was.
  it('a flag given without its value is told what the value is, with an example', async () => {
    const k = await quire(['ask', 'How are keys rotated?', '--k']);
    expect(k.code).toBe(2);
    expect(k.stderr).toBe('--k needs a number, e.g. --k 6.\nSee: quire ask --help\n');
    // Followed by another flag, Node calls it "ambiguous": the same sentence.
    expect((await quire(['search', 'keys', '--collection', '--json'])).stderr).toBe('--collection needs a folder, e.g. --collection notes/work.\nSee: quire search --help\n');
    expect((await quire(['status', '--db'])).stderr).toBe('--db needs a database file, e.g. --db ~/quire.db.\nSee: quire status --help\n');
    // A flag the command does not read at all is named as such, value or not.
    expect((await quire(['embed', '--k'])).stderr).toBe('--k is not an option of embed.\nSee: quire embed --help\n');
    // A boolean given a value is still Node's sentence, which says what is wrong.
    expect((await quire(['status', '--json=yes'])).stderr).toBe("Option '--json' does not take an argument\nSee: quire status --help\n");
  });

  it('a flag the command does not read is refused, not silently ignored', async () => {
    // ask has no --mode: it used to answer as if the flag were not there.
    const ask = await quire(['ask', 'How are keys rotated?', '--mode', 'lexical']);
    expect(ask.code).toBe(2);
    expect(ask.stderr).toBe('Error (INVALID_ARGUMENT): --mode is not an option of ask. See: quire ask --help\n');
    const status = await quire(['status', '--k', '3', '--json']);
    expect(status.code).toBe(2);
    expect(JSON.parse(status.stdout)).toEqual({ error: { code: 'INVALID_ARGUMENT', message: '--k is not an option of status. See: quire status --help' } });
    // Those every command takes, and a command's own, pass.
    expect((await quire(['status', '--json', '--force'])).code).toBe(0);
    expect((await quire(['search', 'keys', '--k', '2', '--mode', 'lexical', '--json'])).code).toBe(0);
  });

  it('a question set or report that is not there is said in words', async () => {
    const missing = await quire(['eval', '/nowhere/questions.json', '--docs', '/tmp']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('Error (INVALID_ARGUMENT): Could not read the question set /nowhere/questions.json: there is no such file.\n');
    const folder = await quire(['eval', '--rerun', '/tmp']);
    expect(folder.stderr).toBe('Error (INVALID_ARGUMENT): Could not read the report /tmp: it is a folder, not a file.\n');
  });
});
