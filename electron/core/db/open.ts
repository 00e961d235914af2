import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { QuireError } from '../../../shared/errors';
import { migrate, refuseNewer } from './migrate';
import { MIGRATIONS } from './migrations/index';

export type Db = Database.Database;

export interface OpenOptions {
  /** Path of sqlite-vec's loadable library; the Electron shell rewrites it out of app.asar. */
  sqliteVecPath?: string;
  /**
   * better-sqlite3's compiled addon to use instead of the one in node_modules: the Electron shell
   * passes an Electron-ABI build kept outside node_modules, so tests keep the Node build.
   */
  nativeBinding?: string;
  readonly?: boolean;
}

/** Opens (creating if needed) a Quire database: sqlite-vec loaded, pragmas set, migrations applied. */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  // SQLite's own words ("unable to open database file") and a bare errno name neither the file nor
  // what to do. Only these are reworded: a native module that fails to load must reach its own
  // handler (main/native.ts), and a newer or damaged database keeps its own error.
  const cannotOpen = (e: unknown) =>
    new QuireError('WRITE_FAILED', `Could not open or create the database ${file} (${(e as Error).message}). Choose a file in a folder you can write to (--db or QUIRE_DB).`, { cause: e });
  if (file !== ':memory:') {
    let version: number | null;
    try {
      if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
        throw new QuireError('INVALID_ARGUMENT', `${file} is a folder, not a database file. Name a file, such as ${path.join(file, 'quire.db')} (--db or QUIRE_DB).`);
      }
      // A newer Quire's database is refused before SQLite opens it: opening a WAL database creates
      // its -wal and -shm files, and setting pragmas would change it.
      version = headerUserVersion(file);
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    } catch (e) {
      throw e instanceof QuireError ? e : cannotOpen(e);
    }
    if (version !== null) refuseNewer(version, MIGRATIONS.at(-1)?.version ?? 0);
  }
  let db: Db;
  try {
    db = new Database(file, { readonly: options.readonly ?? false, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'SQLITE_CANTOPEN') throw cannotOpen(e);
    throw e;
  }
  try {
    loadVectorExtension(db, options.sqliteVecPath);
    // First, so that every step below waits for another process's lock instead of failing at once.
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // NORMAL is durable across application crashes in WAL mode; only a power cut can lose the
    // last transactions, and never leaves a half-written one.
    db.pragma('synchronous = NORMAL');
    // Registers the SQL functions the schema calls (db/sql-functions.ts) on this connection, for its
    // own writes too; a read-only connection writes nothing that would call them.
    if (!options.readonly) migrate(db, MIGRATIONS);
    return db;
  } catch (e) {
    db.close();
    throw damaged(file, e) ?? e;
  }
}

/**
 * SQLite's word for a damaged or foreign file, as a sentence naming the file and what to do. The
 * file itself is left as it is: it may still be copied or inspected.
 */
function damaged(file: string, e: unknown): QuireError | null {
  const code = (e as { code?: unknown }).code;
  if (code !== 'SQLITE_CORRUPT' && code !== 'SQLITE_NOTADB') return null;
  const what = code === 'SQLITE_NOTADB' ? 'is not a Quire database (not an SQLite file, or encrypted)' : 'is damaged';
  return new QuireError(
    'DB_CORRUPT',
    `${file} ${what} (SQLite: ${(e as Error).message}). Quire has not changed it. Your notes are safe: rebuild the index from your folders into a new file with "quire rebuild --db ${file}".`,
    { cause: e },
  );
}

function loadVectorExtension(db: Db, explicitPath?: string): void {
  const file = explicitPath ?? sqliteVec.getLoadablePath();
  try {
    db.loadExtension(file);
  } catch (e) {
    throw new QuireError(
      'INTERNAL',
      `Could not load the sqlite-vec extension from ${file} (${process.platform}-${process.arch}): ${(e as Error).message}`,
      { cause: e },
    );
  }
}

/**
 * The schema version (PRAGMA user_version) read from the file's 100-byte header without SQLite: a
 * big-endian integer at offset 60 (https://www.sqlite.org/fileformat.html). Null when there is no
 * file yet, or it is not an SQLite database (SQLite then says what is wrong).
 */
export function headerUserVersion(file: string): number | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const header = Buffer.alloc(100);
    if (fs.readSync(fd, header, 0, 100, 0) < 100) return null;
    if (header.toString('latin1', 0, 16) !== 'SQLite format 3\0') return null;
    return header.readInt32BE(60);
  } finally {
    fs.closeSync(fd);
  }
}
