import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../electron/core/engine';
import { listCollections } from '../electron/core/db/collections';
import { runDoctor } from '../electron/core/db/health';
import { hasBuildUnderWay } from '../electron/core/db/keyword-index-build';
import { dueForRebuild, keywordIndexChurn, refreshKeywordStatistics } from '../electron/core/db/keyword-statistics';
import { openDatabase, type Db } from '../electron/core/db/open';
import { importFolder } from '../electron/core/ingest/pipeline';
import { scores, writeNotes } from './support/keyword-scores';
import { NotesFolder, tempDbPath } from './support/notes';

/**
 * In the app the keyword statistics' rebuild runs in the background on the engine's one
 * connection, so the next import, and a forget, write between its batches. Whatever they did
 * meanwhile, the index must end whole: the doctor finds nothing amiss, and a rebuild of what is
 * left scores as a fresh import of the same notes.
 */
let notes: NotesFolder;
let other: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;
let engine: Engine | null = null;
beforeEach(() => {
  notes = new NotesFolder('quire-bg-stats-');
  other = new NotesFolder('quire-bg-stats-other-');
  dbFile = tempDbPath('quire-bg-stats-db-');
});
afterEach(async () => {
  await engine?.close();
  engine = null;
  notes.dispose();
  other.dispose();
  dbFile.dispose();
});

const filler = (folder: NotesFolder, from: number, to: number) => {
  for (let i = from; i < to; i++) folder.write(`fill/f${i}.md`, `# Filler ${i}\n\n${Array.from({ length: 12 }, (_, j) => `## Part ${j}\n\nWord${i}x${j} and plain words about nothing ${j}.`).join('\n\n')}\n`);
};
const settled = async (db: Db) => {
  for (let i = 0; i < 600 && (hasBuildUnderWay(db) || dueForRebuild(db).length > 0); i++) await new Promise((r) => setTimeout(r, 25));
  return !hasBuildUnderWay(db) && dueForRebuild(db).length === 0;
};

describe('a background keyword statistics rebuild with imports and a forget between its batches', () => {
  it('ends whole, and what is left scores as a fresh import', async () => {
    writeNotes(notes, 1);
    filler(notes, 0, 160);
    filler(other, 0, 40);
    let db!: Db;
    engine = createEngine({ dbPath: dbFile.file, parseWorker: null, open: (f) => (db = openDatabase(f)) });
    await engine.importFolder({ path: notes.root, embed: false });
    await engine.importFolder({ path: other.root, embed: false });
    expect(await settled(db)).toBe(true);

    // A third of the filler goes: a rebuild is due, and starts in the background as the import ends.
    for (let i = 0; i < 60; i++) notes.remove(`fill/f${i}.md`);
    writeNotes(notes, 2);
    await engine.importFolder({ path: notes.root, embed: false });
    expect(hasBuildUnderWay(db) || dueForRebuild(db).length > 0).toBe(true);
    // Between its batches: the next import (edits, deletions, new notes), then a forget.
    writeNotes(notes, 3);
    for (let i = 60; i < 70; i++) notes.remove(`fill/f${i}.md`);
    filler(notes, 200, 210);
    await new Promise((r) => setTimeout(r, 0));
    const overlapped = hasBuildUnderWay(db);
    await engine.importFolder({ path: notes.root, embed: false });
    const otherId = listCollections(db).find((c) => c.root === other.root)!.id;
    expect(await engine.call('removeCollection', { collectionId: otherId })).toEqual({ documents: 40 });
    expect(overlapped).toBe(true); // the writes above did come between batches

    expect(await settled(db)).toBe(true);
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
    // Rows deleted from a shadow while it was built stay counted (as in any contentless_delete
    // index), so the last word is a rebuild of whatever is still counted.
    if (keywordIndexChurn(db).some((c) => c.deleted > 0)) await refreshKeywordStatistics(db, 0);
    const match = 'rotate OR bread OR version OR word205x3 OR word100x1';
    const tables = ['chunks_fts', 'sections_fts'] as const;
    const now = tables.map((table) => scores(db, table, match));
    const fresh = openDatabase(':memory:');
    try {
      await importFolder(fresh, notes.root, { embedding: null });
      for (const [i, table] of tables.entries()) {
        expect(now[i]!.length).toBeGreaterThan(0);
        expect(now[i]).toEqual(scores(fresh, table, match));
      }
    } finally {
      fresh.close();
    }
  });

  it('close stops it between batches, the database whole; the app carries it on at its next start', async () => {
    writeNotes(notes, 1);
    filler(notes, 0, 160);
    let db!: Db;
    engine = createEngine({ dbPath: dbFile.file, parseWorker: null, open: (f) => (db = openDatabase(f)) });
    await engine.importFolder({ path: notes.root, embed: false });
    expect(await settled(db)).toBe(true);
    for (let i = 0; i < 60; i++) notes.remove(`fill/f${i}.md`);
    await engine.importFolder({ path: notes.root, embed: false });
    await new Promise((r) => setTimeout(r, 0));
    expect(hasBuildUnderWay(db)).toBe(true); // under way as the app quits
    await engine.close();
    engine = null;
    expect(db.open).toBe(false);

    const after = openDatabase(dbFile.file);
    try {
      expect(runDoctor(after).filter((c) => !c.ok)).toEqual([]);
      expect(hasBuildUnderWay(after)).toBe(true); // stopped, not finished
      expect(runDoctor(after).find((c) => c.name === 'keyword statistics')?.detail).toMatch(/a rebuild was stopped partway as Quire closed/);
    } finally {
      after.close();
    }
    engine = createEngine({ dbPath: dbFile.file, parseWorker: null, resumeMigration: true, open: (f) => (db = openDatabase(f)) });
    expect(await settled(db)).toBe(true);
    const fresh = openDatabase(':memory:');
    try {
      await importFolder(fresh, notes.root, { embedding: null });
      expect(scores(db, 'chunks_fts', 'rotate OR bread OR word100x1')).toEqual(scores(fresh, 'chunks_fts', 'rotate OR bread OR word100x1'));
    } finally {
      fresh.close();
    }
  });
});
