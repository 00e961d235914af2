import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

// key-rotation.md from two imported folders read alike in the results: "1. key-rotation.md:1-3", twice.

let work: NotesFolder;
let home: NotesFolder;
let db: ReturnType<typeof tempDbPath>;
const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: 'http://127.0.0.1:9', QUIRE_DB: db.file });

beforeAll(async () => {
  work = new NotesFolder('quire-same-work-');
  home = new NotesFolder('quire-same-home-');
  work.write('notes/key-rotation.md', '# Key rotation\n\nRotate the deploy keys every ninety days.\n');
  home.write('notes/key-rotation.md', '# Key rotation\n\nRotate the door keys when a tenant moves out.\n');
  db = tempDbPath('quire-same-db-');
  for (const f of [work, home]) expect((await quire(['import', `${f.root}/notes`, '--no-embed'])).code).toBe(0);
});

afterAll(() => {
  work?.dispose();
  home?.dispose();
  db?.dispose();
});

describe('quire search with one file name in two folders', () => {
  it('names each with as much of its folder as tells them apart', async () => {
    const r = await quire(['search', 'rotate keys', '--mode', 'lexical']);
    expect(r.code).toBe(0);
    const places = [...r.stdout.matchAll(/^\d+\. (\S+):\d+-\d+ /gm)].map((m) => m[1]);
    const workName = work.root.split('/').at(-1)!;
    const homeName = home.root.split('/').at(-1)!;
    expect(places.sort()).toEqual([`${homeName}/notes/key-rotation.md`, `${workName}/notes/key-rotation.md`].sort());
  });
});
