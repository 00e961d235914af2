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
    expect(r.stdout).toContain('Ollama:      not running at http://127.0.0.1:9 (from OLLAMA_HOST) — keyword search only. Start it there with "ollama serve", or correct OLLAMA_HOST; a host saved in Settings would be used over it.\n');
  });

  it('ask says why there is no answer on stderr, and prints no empty answer line', async () => {
    const r = await quire(['ask', 'How often are the deploy keys rotated?']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^No answer \(OLLAMA_UNREACHABLE\): Ollama is not reachable at http:\/\/127\.0\.0\.1:9 \(from OLLAMA_HOST\)\. Start it there with "ollama serve", or correct OLLAMA_HOST/m);
    expect(r.stdout).toMatch(/^Models: llama3\.2 · lexical search · retrieve \d+ ms · generate 0 ms · run #\d+\n/);
  });

  it('a saved host is named as saved, with the advice for it: the one rule (saved over OLLAMA_HOST) said where it matters', async () => {
    // Last in the file: the saved host stays, as a person's would.
    expect((await quire(['settings', 'set', 'ollamaHost', 'http://127.0.0.1:7'])).code).toBe(0);
    const status = await quire(['status']);
    expect(status.stdout).toContain('Ollama:      not running at http://127.0.0.1:7 (the Ollama host saved in Settings) — keyword search only. Start it there with "ollama serve", or correct the Ollama host in Settings, which is used over OLLAMA_HOST.\n');
    const ask = await quire(['ask', 'How often are the deploy keys rotated?']);
    expect(ask.stderr).toMatch(/^No answer \(OLLAMA_UNREACHABLE\): Ollama is not reachable at http:\/\/127\.0\.0\.1:7 \(the Ollama host saved in Settings\)\. Start it there with "ollama serve", or correct the Ollama host in Settings/m);
  });
});
