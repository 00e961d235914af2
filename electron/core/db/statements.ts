import type { Statement } from 'better-sqlite3';
import type { Db } from './open';

const cache = new WeakMap<Db, Map<string, Statement>>();

/**
 * A prepared statement, prepared once per connection. Import writes thousands of rows through a
 * handful of statements; preparing each time was a measurable share of import time.
 */
export function stmt(db: Db, sql: string): Statement {
  let byDb = cache.get(db);
  if (!byDb) {
    byDb = new Map();
    cache.set(db, byDb);
  }
  let s = byDb.get(sql);
  if (!s) {
    s = db.prepare(sql);
    byDb.set(sql, s);
  }
  return s;
}
