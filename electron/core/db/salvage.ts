import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

/** What can still be read from a damaged index: the folders it held and the settings it kept. */
export interface Salvage {
  roots: string[];
  settings: Array<{ key: string; value: string }>;
}

/**
 * Reads what it can from a damaged database without touching it: the file (and its -wal) is
 * copied to a temporary folder and read from there, so the original stays byte for byte as it was
 * for whoever wants to inspect it. Each part that cannot be read is simply missing.
 */
export function salvage(file: string, options: { nativeBinding?: string | undefined } = {}): Salvage {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-salvage-'));
  const copy = path.join(dir, 'copy.db');
  const out: Salvage = { roots: [], settings: [] };
  try {
    fs.copyFileSync(file, copy);
    if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
    const db = new Database(copy, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    try {
      try {
        out.roots = db.prepare('SELECT root FROM collections ORDER BY created_at').pluck().all() as string[];
      } catch {
        // The folder list is damaged: the person names the folders.
      }
      try {
        out.settings = db.prepare('SELECT key, value FROM settings').all() as Salvage['settings'];
      } catch {
        // Settings are a convenience; defaults do.
      }
    } finally {
      db.close();
    }
  } catch {
    // Not even openable: nothing to salvage.
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
