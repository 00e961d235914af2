import { readablePath } from '../../../shared/walk-names';
import type { Db } from './open';
import { stmt } from './statements';

/** The queue entry for a whole-folder import: a folder import started and not yet finished. */
export const WHOLE_FOLDER = '';

export interface QueuedPath {
  relPath: string;
  queuedAt: string;
}

/**
 * Queues paths of a collection for import, in one transaction. A path queued again moves to the
 * back with a new rowid, so an import that began before the second change leaves it queued.
 */
export function enqueuePaths(db: Db, collectionId: string, relPaths: readonly string[]): void {
  if (relPaths.length === 0) return;
  const at = new Date().toISOString();
  db.transaction(() => {
    const del = stmt(db, 'DELETE FROM import_queue WHERE collection_id = ? AND rel_path = ?');
    const add = stmt(db, 'INSERT INTO import_queue (collection_id, rel_path, queued_at) VALUES (?, ?, ?)');
    for (const p of new Set(relPaths)) {
      del.run(collectionId, p);
      add.run(collectionId, p, at);
    }
  }).immediate();
}

/** The newest entry's rowid: an import started now covers entries up to it. */
export function queueMark(db: Db): number {
  return (stmt(db, 'SELECT coalesce(max(rowid), 0) FROM import_queue').pluck().get() as number) ?? 0;
}

/** A collection's queued paths (without the whole-folder entry), oldest first. */
export function queuedPaths(db: Db, collectionId: string, limit = 10_000): QueuedPath[] {
  return (
    stmt(db, 'SELECT rel_path, queued_at FROM import_queue WHERE collection_id = ? AND rel_path != ? ORDER BY rowid LIMIT ?').all(collectionId, WHOLE_FOLDER, limit) as Array<{
      rel_path: string;
      queued_at: string;
    }>
  ).map((r) => ({ relPath: r.rel_path, queuedAt: r.queued_at }));
}

/**
 * A collection's changes waiting, as the Library lists them: each a document of the folder the
 * watcher saw change, or a file an import would read. A watcher also queues folders (an import
 * walks one whole, so a folder moved in is not missed) and a change's paths of no type Quire reads
 * may come from an older Quire: those stay queued for the import but are no change a person waits
 * for. `count` counts them all; `shown` holds the first `limit`, oldest first.
 */
export function waitingChanges(db: Db, collectionId: string, limit = 10_000): { count: number; shown: QueuedPath[] } {
  const rows = stmt(
    db,
    `SELECT q.rel_path, q.queued_at, d.id IS NOT NULL AS known FROM import_queue q
       LEFT JOIN documents d ON d.collection_id = q.collection_id AND d.rel_path = q.rel_path
      WHERE q.collection_id = ? AND q.rel_path != ? ORDER BY q.rowid`,
  ).iterate(collectionId, WHOLE_FOLDER) as IterableIterator<{ rel_path: string; queued_at: string; known: number }>;
  let count = 0;
  const shown: QueuedPath[] = [];
  for (const r of rows) {
    if (r.known === 0 && !readablePath(r.rel_path)) continue;
    if (count++ < limit) shown.push({ relPath: r.rel_path, queuedAt: r.queued_at });
  }
  return { count, shown };
}

/** Collections whose whole-folder import was started and never finished (the process ended). */
export function unfinishedFolderImports(db: Db): string[] {
  return stmt(db, 'SELECT collection_id FROM import_queue WHERE rel_path = ? ORDER BY rowid').pluck().all(WHOLE_FOLDER) as string[];
}

/**
 * Removes what an import covered: entries queued up to `mark` for these paths (or, for a
 * whole-folder import, every entry of the collection up to `mark`). Entries queued later stay.
 */
export function dequeueCovered(db: Db, collectionId: string, mark: number, relPaths: readonly string[] | 'all'): void {
  db.transaction(() => {
    if (relPaths === 'all') {
      stmt(db, 'DELETE FROM import_queue WHERE collection_id = ? AND rowid <= ?').run(collectionId, mark);
      return;
    }
    const del = stmt(db, 'DELETE FROM import_queue WHERE collection_id = ? AND rel_path = ? AND rowid <= ?');
    for (const p of relPaths) del.run(collectionId, p, mark);
  }).immediate();
}
