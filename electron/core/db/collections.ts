import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { QuireError } from '../../../shared/errors';
import { appendEvent } from './events';
import type { Db } from './open';
import { deleteDocument } from './documents';
import { deleteEvalReportsOver } from './eval-reports';

export interface CollectionRow {
  id: string;
  root: string;
  createdAt: string;
}

/**
 * The root a folder is known by, resolved as imports resolve it: absolute, symlinks followed. A
 * path that no longer exists is only made absolute. Every comparison of a folder the person names
 * with a stored root (a collection's, an evaluation report's) goes through this.
 */
export function folderRoot(folder: string): string {
  const resolved = path.resolve(folder);
  try {
    return fs.realpathSync(resolved);
  } catch {
    return resolved;
  }
}

/** Collection ids derive from the resolved root, so importing the same folder twice finds the same collection. */
export function collectionIdFor(root: string): string {
  return createHash('sha256').update(root).digest('hex').slice(0, 8);
}

export function ensureCollection(db: Db, root: string): CollectionRow {
  const existing = findCollectionByRoot(db, root);
  if (existing) return existing;
  const row = { id: collectionIdFor(root), root, createdAt: new Date().toISOString() };
  db.transaction(() => {
    db.prepare('INSERT INTO collections (id, root, created_at) VALUES (?, ?, ?)').run(row.id, row.root, row.createdAt);
    appendEvent(db, { kind: 'collection.added', collectionId: row.id, path: root });
  }).immediate();
  return row;
}

export function findCollectionByRoot(db: Db, root: string): CollectionRow | null {
  const r = db.prepare('SELECT id, root, created_at FROM collections WHERE root = ?').get(root) as RawRow | undefined;
  return r ? { id: r.id, root: r.root, createdAt: r.created_at } : null;
}

/** The collection with this id; COLLECTION_NOT_FOUND when it has left the library. */
export function getCollection(db: Db, id: string): CollectionRow {
  const r = db.prepare('SELECT id, root, created_at FROM collections WHERE id = ?').get(id) as RawRow | undefined;
  if (!r) throw new QuireError('COLLECTION_NOT_FOUND', 'That folder is no longer in the library.');
  return { id: r.id, root: r.root, createdAt: r.created_at };
}

export function listCollections(db: Db): CollectionRow[] {
  return (db.prepare('SELECT id, root, created_at FROM collections ORDER BY root').all() as RawRow[]).map((r) => ({
    id: r.id,
    root: r.root,
    createdAt: r.created_at,
  }));
}

/**
 * Removes a collection and everything derived from it in one transaction: documents, chunks, FTS
 * rows, vectors, the answers given from its passages, the questions saved for it and the
 * evaluation reports run over it.
 */
export function forgetCollection(db: Db, collection: CollectionRow): { documents: number } {
  return db.transaction(() => {
    const ids = db.prepare('SELECT id FROM documents WHERE collection_id = ?').pluck().all(collection.id) as string[];
    const counts = () => db.prepare('SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM saved_questions)').raw().get() as [number, number];
    const [runsBefore, savedBefore] = counts();
    for (const id of ids) deleteDocument(db, id, { event: false });
    db.prepare('DELETE FROM saved_questions WHERE root = ?').run(collection.root);
    const [runsAfter, savedAfter] = counts();
    const runs = runsBefore - runsAfter;
    const savedQuestions = savedBefore - savedAfter;
    const evalReports = deleteEvalReportsOver(db, collection.root, folderRoot);
    db.prepare('DELETE FROM collections WHERE id = ?').run(collection.id);
    appendEvent(db, { kind: 'collection.forgotten', collectionId: collection.id, path: collection.root, detail: { documents: ids.length, runs, savedQuestions, evalReports } });
    return { documents: ids.length };
  }).immediate();
}

interface RawRow {
  id: string;
  root: string;
  created_at: string;
}
