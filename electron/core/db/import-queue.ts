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

export function countQueued(db: Db, collectionId: string): number {
  return stmt(db, 'SELECT count(*) FROM import_queue WHERE collection_id = ? AND rel_path != ?').pluck().get(collectionId, WHOLE_FOLDER) as number;
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
