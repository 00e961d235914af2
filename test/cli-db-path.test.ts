import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-run';
import { tempDbPath } from './support/notes';

const db = tempDbPath('quire-cli-dbpath-');
const dir = path.dirname(db.file);
afterAll(() => db.dispose());

const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: 'http://127.0.0.1:9' });

describe('a --db that cannot be a database', () => {
  // They used to end "Error (INTERNAL): EISDIR: illegal operation on a directory, read" and
  // "Error (INTERNAL): unable to open database file", naming neither the file nor what to do.
  it('a folder is refused as a folder, with the file to name instead', async () => {
    const r = await quire(['status', '--db', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`Error (INVALID_ARGUMENT): ${dir} is a folder, not a database file. Name a file, such as ${path.join(dir, 'quire.db')} (--db or QUIRE_DB).\n`);
  });

  it('a place no database can be created names the file and what to do', async () => {
    const file = path.join(dir, 'plain-file');
    fs.writeFileSync(file, 'not a folder');
    const inside = path.join(file, 'quire.db'); // a "folder" that is a file: ENOTDIR (Node 22: EEXIST from the mkdir before it), whoever runs it
    const r = await quire(['status', '--db', inside]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^Error \\(WRITE_FAILED\\): Could not open or create the database ${inside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\((?:ENOTDIR|EEXIST): .*\\)\\. Choose a file in a folder you can write to \\(--db or QUIRE_DB\\)\\.\n$`));
  });
});
