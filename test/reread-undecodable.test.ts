import { afterEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../electron/core/db/open';
import { migration0019 } from '../electron/core/db/migrations/0019-reread-undecodable';
import { importFolder } from '../electron/core/ingest/pipeline';
import { parseFile } from '../electron/core/ingest/parse/parse-file';
import { search } from '../electron/core/retrieve/search';
import { QuireError } from '../shared/errors';
import { NotesFolder } from './support/notes';

let notes: NotesFolder | undefined;
let db: Db | undefined;
afterEach(() => {
  db?.close();
  notes?.dispose();
});

it('a note refused as not UTF-8 before encodings were guessed is read at the next import after migration 0019', async () => {
  notes = new NotesFolder();
  notes.write('receta.md', Buffer.from('# Receta\n\nLa canci\xf3n de la ni\xf1a.\n', 'latin1'));
  notes.write('otra.md', '# Otra\n\nNada que ver.\n');
  db = openDatabase(':memory:');
  // As Quire read such a file before: refused, and remembered as failed for these bytes.
  const before = (req: Parameters<typeof parseFile>[0]) =>
    req.relPath === 'receta.md' ? Promise.reject(new QuireError('UNDECODABLE_TEXT', 'The file is not valid UTF-8 (first bad byte at offset 18); re-save it as UTF-8.')) : parseFile(req);
  expect((await importFolder(db, notes.root, { embedding: null, parse: before })).errors.map((e) => e.code)).toEqual(['UNDECODABLE_TEXT']);
  // The same bytes are not read again, however the reader reads them now.
  expect((await importFolder(db, notes.root, { embedding: null })).errors.map((e) => e.path)).toEqual(['receta.md']);

  db.exec(migration0019.up);
  const after = await importFolder(db, notes.root, { embedding: null });
  expect(after.errors).toEqual([]);
  expect(after.notices).toEqual([expect.objectContaining({ path: 'receta.md', encoding: 'windows-1252' })]);
  const found = await search(db, 'cancion nina', { gateway: null, mode: 'lexical' });
  expect(found.results.map((r) => r.path)).toEqual(['receta.md']);
});
