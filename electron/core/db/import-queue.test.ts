import { afterEach, describe, expect, it } from 'vitest';
import { NotesFolder, tempDbPath } from '../../../test/support/notes';
import { importFolder } from '../ingest/pipeline';
import { enqueuePaths, waitingChanges, WHOLE_FOLDER } from './import-queue';
import { openDatabase, type Db } from './open';

let file: ReturnType<typeof tempDbPath>;
let db: Db;
let notes: NotesFolder;
afterEach(() => {
  db.close();
  file.dispose();
  notes.dispose();
});

describe('changes waiting, as the Library lists them', () => {
  it('counts documents changed and files an import reads, not folders, other types or names the walk passes over', async () => {
    file = tempDbPath('quire-queue-');
    db = openDatabase(file.file);
    notes = new NotesFolder('quire-queue-notes-');
    notes.write('food/bread.md', '# Bread\n\nBake it.\n');
    const c = (await importFolder(db, notes.root, { embedding: null })).collection;
    enqueuePaths(db, c.id, [WHOLE_FOLDER, 'food', 'food/bread.md', 'photo.png', 'garden/Plan.MD', 'ops', 'garden/._Plan.MD', 'node_modules/x/readme.md']);
    const waiting = waitingChanges(db, c.id);
    expect(waiting.shown.map((p) => p.relPath)).toEqual(['food/bread.md', 'garden/Plan.MD']);
    expect(waiting.count).toBe(2);
    expect(waitingChanges(db, c.id, 1)).toMatchObject({ count: 2, shown: [{ relPath: 'food/bread.md' }] });
  });
});
