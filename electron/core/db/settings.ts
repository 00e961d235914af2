import type { Db } from './open';
import { stmt } from './statements';

export function getSetting(db: Db, key: string): string | null {
  const row = stmt(db, 'SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setSetting(db: Db, key: string, value: string): void {
  stmt(db, 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}
