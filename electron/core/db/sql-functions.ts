import type Database from 'better-sqlite3';
import { searchableText } from '../text/searchable';

/**
 * Functions the schema's SQL calls (migration 0014's triggers and rebuild, db/sections.ts): registered
 * on every connection before its migrations run, since a trigger calling an unknown function fails
 * the write that fires it.
 */
export function registerSqlFunctions(db: Database.Database): void {
  // What keyword search indexes of a heading path or a passage: the words a reader sees (text/searchable.ts).
  db.function('searchable_text', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? searchableText(text) : text));
}
