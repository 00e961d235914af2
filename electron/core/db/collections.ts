import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { QuireError } from '../../../shared/errors';
import { appendEvent } from './events';
import type { Db } from './open';
import { deleteDocument } from './documents';
import { deleteEvalReportsOver } from './eval-reports';

export type WatchState = 'off' | 'watching' | 'paused';

export interface CollectionRow {
  id: string;
  root: string;
  /** What a person calls it (the folder's base name unless renamed); unique, case aside. */
  name: string;
  createdAt: string;
  /** Whether changes in the folder are imported as they happen (see core/watch/). */
  watch: WatchState;
}

const COLUMNS = 'id, root, name, created_at, watch, watch_paused';

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
  const row: CollectionRow = { id: collectionIdFor(root), root, name: '', createdAt: new Date().toISOString(), watch: 'off' };
  db.transaction(() => {
    row.name = newFolderName(db, root);
    db.prepare('INSERT INTO collections (id, root, name, created_at) VALUES (?, ?, ?, ?)').run(row.id, row.root, row.name, row.createdAt);
    appendEvent(db, { kind: 'collection.added', collectionId: row.id, path: root });
  }).immediate();
  return row;
}

export function findCollectionByRoot(db: Db, root: string): CollectionRow | null {
  const r = db.prepare(`SELECT ${COLUMNS} FROM collections WHERE root = ?`).get(root) as RawRow | undefined;
  return r ? fromRaw(r) : null;
}

/** The collection with this id; COLLECTION_NOT_FOUND when it has left the library. */
export function getCollection(db: Db, id: string): CollectionRow {
  const r = db.prepare(`SELECT ${COLUMNS} FROM collections WHERE id = ?`).get(id) as RawRow | undefined;
  if (!r) throw new QuireError('COLLECTION_NOT_FOUND', 'That folder is no longer in the library.');
  return fromRaw(r);
}

export function listCollections(db: Db): CollectionRow[] {
  return (db.prepare(`SELECT ${COLUMNS} FROM collections ORDER BY root`).all() as RawRow[]).map(fromRaw);
}

/** `wanted`, or `wanted (2)`, `wanted (3)`… : the first no other folder is called (case aside). */
/**
 * Folder names that say what kind of folder it is rather than whose: an mdBook's `src`, a
 * project's `docs`. Such a folder is named by the folder it is in, as a person calls it.
 */
const GENERIC_FOLDER_NAMES = new Set(['src', 'source', 'sources', 'doc', 'docs', 'documentation', 'content', 'contents', 'pages', 'site', 'book', 'text', 'markdown', 'files', 'data', 'public', 'dist', 'build', 'out', 'www']);

/**
 * A new folder's name: its own, or its parent's where its own is generic (`rust-book/src` is
 * "rust-book"); when another folder has that name, the two told apart by the folder they are in
 * ("notes (work)", "rust-book src"), and only then by a number.
 */
function newFolderName(db: Db, root: string): string {
  const parts = root.split(/[\\/]+/).filter(Boolean);
  const leaf = parts.at(-1) ?? root;
  const parent = parts.at(-2);
  if (!parent) return freeName(db, leaf);
  const generic = GENERIC_FOLDER_NAMES.has(leaf.toLowerCase());
  for (const wanted of generic ? [parent, `${parent} ${leaf}`] : [leaf, `${leaf} (${parent})`]) if (freeName(db, wanted) === wanted) return wanted;
  return freeName(db, generic ? `${parent} ${leaf}` : leaf);
}

function freeName(db: Db, wanted: string, exceptId?: string): string {
  const taken = (n: string) => db.prepare('SELECT 1 FROM collections WHERE lower(name) = lower(?) AND id IS NOT ?').get(n, exceptId ?? null) !== undefined;
  if (!taken(wanted)) return wanted;
  for (let i = 2; ; i++) if (!taken(`${wanted} (${i})`)) return `${wanted} (${i})`;
}

/** Renames a folder in the library; refuses an empty name or one another folder has. */
/** The folder a person names as `status` lists it: its name, in any case, spaces around it aside. */
export function collectionNamed(all: readonly CollectionRow[], name: string): CollectionRow | undefined {
  const wanted = name.trim().toLowerCase();
  return all.find((c) => c.name.toLowerCase() === wanted);
}

export function renameCollection(db: Db, id: string, name: string): CollectionRow {
  const wanted = name.replace(/\s+/g, ' ').trim();
  if (wanted === '') throw new QuireError('INVALID_ARGUMENT', 'A folder needs a name.');
  if (wanted.length > 100) throw new QuireError('INVALID_ARGUMENT', 'A folder name can be at most 100 characters.');
  return db.transaction(() => {
    getCollection(db, id);
    if (freeName(db, wanted, id) !== wanted) throw new QuireError('INVALID_ARGUMENT', `Another folder is already called “${wanted}”.`);
    db.prepare('UPDATE collections SET name = ? WHERE id = ?').run(wanted, id);
    return getCollection(db, id);
  }).immediate();
}

/** Turns watching on, holds it, or turns it off; the folder's queued work is kept in every case. */
export function setWatchState(db: Db, id: string, state: WatchState): CollectionRow {
  const changed = db
    .prepare('UPDATE collections SET watch = ?, watch_paused = ? WHERE id = ?')
    .run(state === 'off' ? 0 : 1, state === 'paused' ? 1 : 0, id).changes;
  if (changed === 0) throw new QuireError('COLLECTION_NOT_FOUND', 'That folder is no longer in the library.');
  return getCollection(db, id);
}

/**
 * Removes a collection and everything derived from it in one transaction: documents, chunks, FTS
 * rows, vectors, the answers given from its passages, the questions saved for it and the
 * evaluation reports run over it. The folder is gone once this returns. Its rows are still in
 * bm25's totals until their index is rebuilt (db/keyword-statistics.ts refreshAfterWrites): the
 * caller's to run, awaited or in the background (engine.ts).
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
  name: string | null;
  created_at: string;
  watch: number;
  watch_paused: number;
}

function fromRaw(r: RawRow): CollectionRow {
  return { id: r.id, root: r.root, name: r.name ?? (path.basename(r.root) || r.root), createdAt: r.created_at, watch: r.watch === 0 ? 'off' : r.watch_paused === 1 ? 'paused' : 'watching' };
}
