import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { QuireError } from '../../../shared/errors';

/**
 * The evaluation indexes: one SQLite file per documents folder × embedding model × chunker, in
 * one folder of Quire's. The folder's part of the name comes first, so everything built for a
 * folder can be found (and removed with it) without opening a database.
 */

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const folderKey = (docs: string) => hash(path.resolve(docs));

export function indexFileName(docs: string, embedModel: string, chunkerSpec: string): string {
  return `index-${folderKey(docs)}-${hash(`${embedModel}\0${chunkerSpec}`)}.db`;
}

/**
 * Removes one index (the database and its -wal/-shm/-journal companions), so the run that asked
 * for a fresh index builds it from the documents. Throws WRITE_FAILED when a file stays.
 */
export function removeIndex(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      fs.rmSync(f, { force: true });
    } catch (e) {
      throw new QuireError('WRITE_FAILED', `The index ${path.basename(f)} could not be removed to be built anew (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
    }
  }
}

const INDEX_FILE = /^index-[0-9a-f]{16}-[0-9a-f]{16}\.db(?:-wal|-shm|-journal)?$/;
// Named before indexes carried their folder's key; still Quire's, still counted and cleared.
const LEGACY_INDEX_FILE = /^index-[0-9a-f]{16}\.db(?:-wal|-shm|-journal)?$/;

function indexFiles(dir: string, docs?: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const prefix = docs === undefined ? 'index-' : `index-${folderKey(docs)}-`;
  const ours = (n: string) => (INDEX_FILE.test(n) && n.startsWith(prefix)) || (docs === undefined && LEGACY_INDEX_FILE.test(n));
  return names.filter(ours).map((n) => path.join(dir, n));
}

export interface IndexStorage {
  /** Index databases (their -wal/-shm companions are counted in bytes, not here). */
  indexes: number;
  bytes: number;
}

export function indexStorage(dir: string, docs?: string): IndexStorage {
  return storageOf(indexFiles(dir, docs));
}

function storageOf(files: string[]): IndexStorage {
  let bytes = 0;
  for (const f of files) {
    try {
      bytes += fs.statSync(f).size;
    } catch {
      // Removed meanwhile: nothing to count.
    }
  }
  return { indexes: files.filter((f) => f.endsWith('.db')).length, bytes };
}

/**
 * Removes the indexes built for `docs`, or all of them, and says how many went. They are caches:
 * the next run rebuilds what it needs. Never throws: a file that cannot be removed (in use on
 * Windows, permissions) is left and counted in `failed`, and must not stop what called this.
 */
export function removeIndexes(dir: string, docs?: string): IndexStorage & { failed: string[] } {
  const files = indexFiles(dir, docs);
  const before = storageOf(files);
  const failed: string[] = [];
  for (const f of files) {
    try {
      fs.rmSync(f, { force: true });
    } catch {
      failed.push(f);
    }
  }
  const failedIndexes = failed.filter((f) => f.endsWith('.db')).length;
  return { indexes: before.indexes - failedIndexes, bytes: before.bytes, failed };
}
