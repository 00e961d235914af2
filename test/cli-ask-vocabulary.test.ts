import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-vocab-');
  notes.write('ops/keys.md', '# Keys\n\nRotate the deploy keys every ninety days.\n');
  db = tempDbPath('quire-cli-vocab-db-');
  expect((await runCli(['import', notes.root, '--no-embed'], { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file })).code).toBe(0);
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('quire ask and a chat model it has not counted with before', () => {
  // The first answer with a model fetched its whole vocabulary from Ollama (seconds for a large one)
  // without a word; it is kept on disk, so later answers do not wait for it.
  it('says it is reading the vocabulary, the first time only', async () => {
    const env = { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file };
    const first = await runCli(['ask', 'How often are the deploy keys rotated?', '--model', 'llama3.2'], env);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^Reading llama3\.2(:latest)?'s vocabulary from Ollama to count the prompt exactly \(once per model version\)…$/m);
    const second = await runCli(['ask', 'Who rotates the keys?'], env);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('vocabulary');
  });
});
