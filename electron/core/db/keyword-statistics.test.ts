import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scores, TOPICS, writeNotes } from '../../../test/support/keyword-scores';
import { NotesFolder, tempDbPath } from '../../../test/support/notes';
import { importFolder } from '../ingest/pipeline';
import { forgetCollection, listCollections } from './collections';
import { keywordIndexChurn, refreshKeywordStatistics } from './keyword-statistics';
import { openDatabase, type Db } from './open';

let notes: NotesFolder;
let other: NotesFolder;
const dbs: Db[] = [];
const open = () => {
  const db = openDatabase(':memory:');
  dbs.push(db);
  return db;
};

beforeEach(() => {
  notes = new NotesFolder('quire-stats-');
  other = new NotesFolder('quire-stats-other-');
});
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  notes.dispose();
  other.dispose();
});

describe('keyword statistics', () => {
  it('after re-importing edited notes, bm25 scores as in a fresh index of the same notes', async () => {
    const db = open();
    writeNotes(notes, 1);
    await importFolder(db, notes.root, { embedding: null });
    writeNotes(notes, 2);
    const r = await importFolder(db, notes.root, { embedding: null });
    expect(r.documents.updated).toBe(TOPICS.length);

    const fresh = open();
    await importFolder(fresh, notes.root, { embedding: null });
    for (const table of ['chunks_fts', 'sections_fts'] as const) {
      expect(scores(db, table).length).toBeGreaterThan(0);
      expect(scores(db, table)).toEqual(scores(fresh, table));
    }
    expect(keywordIndexChurn(db).map((c) => c.deleted)).toEqual([0, 0]);
  });

  it('rebuilds an index only once its deleted rows reach the share, counting them until then', async () => {
    const db = open();
    writeNotes(notes, 1);
    await importFolder(db, notes.root, { embedding: null });
    expect(keywordIndexChurn(db).map((c) => c.deleted)).toEqual([0, 0]);
    db.prepare("DELETE FROM chunks WHERE document_id = (SELECT id FROM documents WHERE rel_path = 'n0.md')").run();
    const churn = keywordIndexChurn(db).find((c) => c.fts === 'chunks_fts')!;
    expect(churn.deleted).toBeGreaterThan(0);

    expect(await refreshKeywordStatistics(db, 0.9)).toEqual([]);
    expect(keywordIndexChurn(db).find((c) => c.fts === 'chunks_fts')!.deleted).toBe(churn.deleted);
    expect(await refreshKeywordStatistics(db, churn.deleted / churn.rows)).toEqual(['chunks_fts']);
    expect(keywordIndexChurn(db).find((c) => c.fts === 'chunks_fts')!.deleted).toBe(0);

    // What is left scores as a fresh index of the same chunks would.
    notes.remove('n0.md');
    const fresh = open();
    await importFolder(fresh, notes.root, { embedding: null });
    expect(scores(db, 'chunks_fts')).toEqual(scores(fresh, 'chunks_fts'));
  });

  it('forgetting a folder leaves the statistics of the folders kept', async () => {
    const db = open();
    writeNotes(notes, 1);
    writeNotes(other, 3);
    await importFolder(db, notes.root, { embedding: null });
    await importFolder(db, other.root, { embedding: null });
    forgetCollection(db, listCollections(db).find((c) => c.root === other.root)!);
    await refreshKeywordStatistics(db);

    const fresh = open();
    await importFolder(fresh, notes.root, { embedding: null });
    expect(scores(db, 'chunks_fts')).toEqual(scores(fresh, 'chunks_fts'));
    expect(scores(db, 'sections_fts')).toEqual(scores(fresh, 'sections_fts'));
  });

  describe('while another connection holds the write lock (another process importing or rebuilding)', () => {
    let file: ReturnType<typeof tempDbPath>;
    let holder: Database.Database | null = null;
    beforeEach(() => (file = tempDbPath('quire-stats-lock-')));
    afterEach(() => {
      holder?.close();
      holder = null;
      file.dispose();
    });
    const lockedElsewhere = (db: Db) => {
      holder = new Database(file.file);
      holder.prepare('BEGIN IMMEDIATE').run();
      // Not the 5 s a real connection waits: the lock is held for the whole test.
      db.pragma('busy_timeout = 50');
    };

    it('an import of an unchanged folder needs no write lock for the statistics', async () => {
      const db = openDatabase(file.file);
      dbs.push(db);
      writeNotes(notes, 1);
      await importFolder(db, notes.root, { embedding: null });
      lockedElsewhere(db);
      const r = await importFolder(db, notes.root, { embedding: null });
      expect(r.documents.unchanged).toBe(TOPICS.length);
    });

    it('an index due for a rebuild is left for later, its deleted rows still counted', async () => {
      const db = openDatabase(file.file);
      dbs.push(db);
      writeNotes(notes, 1);
      await importFolder(db, notes.root, { embedding: null });
      db.prepare('DELETE FROM chunks').run();
      lockedElsewhere(db);
      expect(await refreshKeywordStatistics(db)).toEqual([]);
      expect(keywordIndexChurn(db).find((c) => c.fts === 'chunks_fts')!.deleted).toBeGreaterThan(0);
      holder!.prepare('ROLLBACK').run();
      expect(await refreshKeywordStatistics(db)).toEqual(['chunks_fts']);
    });
  });
});
