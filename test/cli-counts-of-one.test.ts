import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

// One note, one chunk, one request: the command line said "1 chunks" and "in 1 requests".

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;
const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file });

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-one-');
  notes.write('keys.md', '# Keys\n\nRotate the deploy keys every ninety days.\n');
  db = tempDbPath('quire-cli-one-db-');
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('counts of one in the command line', () => {
  it('import and forget say one chunk, one request, one document', async () => {
    const imported = await quire(['import', notes.root]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('chunks written: 1; embedded: 1 in 1 request\n');
    const forgot = await quire(['forget', notes.root]);
    expect(forgot.stdout).toMatch(/^Forgot .*: 1 document and everything derived from it removed/m);
  });
});
