import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

// No Ollama is needed: the import is text only.
const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: 'http://127.0.0.1:9', QUIRE_DB: db.file });

beforeAll(() => {
  notes = new NotesFolder('quire-forget-name-');
  notes.write('keys.md', '# Keys\n\nRotate the deploy keys every ninety days.\n');
  db = tempDbPath('quire-forget-name-db-');
});

afterAll(() => {
  notes?.dispose();
  db?.dispose();
});

describe('quire forget, by the name status shows', () => {
  // status lists "quire-forget-name-XXXX: /tmp/…"; "forget <that name>" from another directory used
  // to answer "was never imported. Imported folders: /tmp/…", naming the very folder asked for.
  it('forgets a folder by its name when no file or folder of that name is where the command runs', async () => {
    expect((await quire(['import', notes.root, '--no-embed'])).code).toBe(0);
    const name = JSON.parse((await quire(['status', '--json'])).stdout).collections[0].name as string;
    expect(fs.existsSync(name)).toBe(false); // the test runs in the repo, which holds nothing of that name
    const forgot = await quire(['forget', name, '--json']);
    expect(forgot.code).toBe(0);
    expect(JSON.parse(forgot.stdout)).toMatchObject({ root: notes.root, documents: 1 });
    const again = await quire(['forget', name]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`Error (COLLECTION_NOT_FOUND): ${name} is not an imported folder (never imported, or already forgotten).\n`);
  });

  it('a path that exists but is not imported is never taken for a folder of the same name', async () => {
    // A folder named "test", imported; the repo, where the test runs, has its own test/ folder.
    notes.write('test/note.md', '# Note\n\nSomething.\n');
    expect((await quire(['import', notes.path('test'), '--no-embed'])).code).toBe(0);
    expect(fs.existsSync('test')).toBe(true);
    const r = await quire(['forget', 'test']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Imported folders: test (${notes.path('test')}).`);
    expect(JSON.parse((await quire(['status', '--json'])).stdout).collections.map((c: { name: string }) => c.name)).toEqual(['test']);
  });
});
