import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

// With vectors stored and Ollama gone, the search notes why it used keywords and the answer fails
// for the same reason: the terminal said "Ollama is not reachable at …" twice in a row.

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;
const quire = (args: string[], host: string) => runCli(args, { OLLAMA_HOST: host, QUIRE_DB: db.file });

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-once-');
  notes.write('keys.md', '# Keys\n\nRotate the deploy keys every ninety days.\n');
  db = tempDbPath('quire-cli-once-db-');
  expect((await quire(['import', notes.root], ollama.url)).code).toBe(0);
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('quire ask with Ollama gone after an import with vectors', () => {
  it('says the reason once: in the search\'s note, and the answer\'s failure points to it', async () => {
    const r = await quire(['ask', 'How often are the deploy keys rotated?'], 'http://127.0.0.1:9');
    expect(r.code).toBe(1);
    const said = r.stderr.split('\n').filter((l) => l.includes('Ollama is not reachable at http://127.0.0.1:9'));
    expect(said, r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(/^Note: Ollama is not reachable at http:\/\/127\.0\.0\.1:9\b/m);
    expect(r.stderr).toMatch(/^No answer \(OLLAMA_UNREACHABLE\): the chat model could not be asked either, for the reason in the note above\.$/m);
  });
});
