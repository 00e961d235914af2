import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

// Nothing listens on port 9: a wrong OLLAMA_HOST, as a person might set.
const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: 'http://127.0.0.1:9', QUIRE_DB: db.file });

beforeAll(async () => {
  notes = new NotesFolder('quire-cli-away-');
  notes.write('keys.md', '# Keys\n\nRotate the deploy keys every ninety days.\n');
  db = tempDbPath('quire-cli-away-db-');
  expect((await quire(['import', notes.root, '--no-embed'])).code).toBe(0);
});

afterAll(() => {
  notes?.dispose();
  db?.dispose();
});

describe('quire with Ollama at a wrong address', () => {
  it('status names the setting to check, not only "ollama serve"', async () => {
    const r = await quire(['status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Ollama:      not running at http://127.0.0.1:9 — keyword search only. Start it with "ollama serve", or set OLLAMA_HOST to where it runs.\n');
  });

  it('ask says why there is no answer on stderr, and prints no empty answer line', async () => {
    const r = await quire(['ask', 'How often are the deploy keys rotated?']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^No answer \(OLLAMA_UNREACHABLE\): Ollama is not reachable at http:\/\/127\.0\.0\.1:9\./m);
    expect(r.stdout).toMatch(/^Models: llama3\.2 · lexical search · retrieve \d+ ms · generate 0 ms · run #\d+\n/);
  });
});
