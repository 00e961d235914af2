import type { Db } from '../db/open';
import { sectionOfChunk } from '../db/sections';
import { stmt } from '../db/statements';
import type { FtsHit } from './fts-top';

/**
 * Keyword search's lookups, each one statement for all its rows (a few hundred candidates looked up
 * one by one cost a statement each; see lexical.ts).
 */

/** Each takes one JSON array; exported for the query-plan test (each row one index seek). */
export const LOOKUP_SQL = {
  positions: `SELECT c.rowid AS rowid, c.document_id, c.ordinal, s.rowid AS section, s.first_ordinal, s.last_ordinal
                FROM json_each(?) j
                JOIN chunks c ON c.rowid = j.value
                LEFT JOIN sections s ON ${sectionOfChunk('c')}`,
  rowidsAt: `SELECT c.rowid AS rowid, c.document_id, c.ordinal
               FROM json_each(?) j
               JOIN chunks c ON c.document_id = j.value ->> '$[0]' AND c.ordinal = j.value ->> '$[1]'`,
  /** Each [document, from, to] triple's chunks, with their sizes: one range seek each. */
  windows: `SELECT c.rowid AS rowid, c.document_id, c.ordinal, c.token_count AS tokens
              FROM json_each(?) j
              JOIN chunks c ON c.document_id = j.value ->> '$[0]' AND c.ordinal BETWEEN j.value ->> '$[1]' AND j.value ->> '$[2]'`,
  texts: 'SELECT c.rowid AS rowid, c.document_id, c.text FROM json_each(?) j JOIN chunks c ON c.rowid = j.value',
  sectionTokens: `SELECT s.rowid AS section, sum(c.token_count) AS tokens
                    FROM json_each(?) j
                    JOIN sections s ON s.rowid = j.value
                    JOIN chunks c ON c.document_id = s.document_id AND c.ordinal BETWEEN s.first_ordinal AND s.last_ordinal
                   GROUP BY s.rowid`,
} as const;

export interface ChunkPosition {
  rowid: number;
  document_id: string;
  ordinal: number;
  section: number | null;
  first_ordinal: number | null;
  last_ordinal: number | null;
}

/** The hits' documents, ordinals and sections, in the hits' order, each with its score. */
export function chunkPositions(db: Db, hits: readonly FtsHit[]): Array<ChunkPosition & { score: number }> {
  if (hits.length === 0) return [];
  const rows = stmt(db, LOOKUP_SQL.positions).all(JSON.stringify(hits.map((h) => h.rowid))) as ChunkPosition[];
  const byRowid = new Map(rows.map((r) => [r.rowid, r]));
  return hits.flatMap((h) => {
    const r = byRowid.get(h.rowid);
    return r ? [{ ...r, score: h.score }] : [];
  });
}

/** Rowids of chunks by (document, ordinal); positions with no chunk are absent. */
export function rowidsAt(db: Db, positions: ReadonlyArray<{ document_id: string; ordinal: number }>): Map<string, number> {
  const found = new Map<string, number>();
  if (positions.length === 0) return found;
  const rows = stmt(db, LOOKUP_SQL.rowidsAt).all(JSON.stringify(positions.map((p) => [p.document_id, p.ordinal]))) as Array<{ rowid: number; document_id: string; ordinal: number }>;
  for (const r of rows) found.set(positionKey(r.document_id, r.ordinal), r.rowid);
  return found;
}

export function positionKey(documentId: string, ordinal: number): string {
  return `${documentId}\0${ordinal}`;
}

/** The text of each chunk by rowid. */
export function chunkTexts(db: Db, rowids: readonly number[]): Map<number, string> {
  if (rowids.length === 0) return new Map();
  const rows = stmt(db, LOOKUP_SQL.texts).all(JSON.stringify(rowids)) as Array<{ rowid: number; text: string }>;
  return new Map(rows.map((r) => [r.rowid, r.text]));
}

/** Each section's size in tokens (its chunks' counts summed), by section rowid. */
export function sectionTokens(db: Db, sections: readonly number[]): Map<number, number> {
  if (sections.length === 0) return new Map();
  const rows = stmt(db, LOOKUP_SQL.sectionTokens).all(JSON.stringify([...new Set(sections)])) as Array<{ section: number; tokens: number }>;
  return new Map(rows.map((r) => [r.section, r.tokens]));
}
