import type { Db } from './open';
import { stmt } from './statements';

export function getSetting(db: Db, key: string): string | null {
  const row = stmt(db, 'SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setSetting(db: Db, key: string, value: string): void {
  stmt(db, 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

/**
 * A write transaction whose replaced bytes must not stay readable in the file (a secret replaced by
 * its sealed form): secure_delete zeroes what the write frees, and a TRUNCATE checkpoint moves the
 * new pages into the database file and empties the WAL, which would otherwise keep older page
 * images. Both are best effort against another process reading at the same moment (the checkpoint
 * then leaves the WAL for a later one); the write itself is not.
 */
export function writeScrubbed(db: Db, write: () => void): void {
  const before = db.pragma('secure_delete', { simple: true }) as number;
  db.pragma('secure_delete = ON');
  try {
    db.transaction(write).immediate();
  } finally {
    db.pragma(`secure_delete = ${before === 2 ? 'FAST' : before ? 'ON' : 'OFF'}`);
  }
  // Not waiting on another process's readers: this runs at startup and on a save.
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Busy: a later checkpoint writes the pages over.
  } finally {
    db.pragma(`busy_timeout = ${Number(timeout)}`);
  }
}
