import type { Db } from '../db/open';
import { sectionOfChunk } from '../db/sections';
import { stmt } from '../db/statements';

/**
 * Small-to-big: each hit is sent with the chunk before and after it in the same section, so the
 * detail a question asks about arrives with the sentences that name its topic. Measured on the
 * question sets, this lifts "the first passage holds the fact" from about a third to over half at
 * the same source tokens (the budget then sends fewer, larger passages). A hit already inside an
 * earlier passage adds nothing and is skipped; neighbours already sent are not sent twice.
 */
export interface Passage {
  /** The hit's rowid (the chunk that matched). */
  rowid: number;
  /** The passage's chunks in document order, the hit among them. */
  rowids: number[];
}

interface Position {
  rowid: number;
  document_id: string;
  ordinal: number;
  first_ordinal: number | null;
  last_ordinal: number | null;
}

/** Every hit's place in its document and section: one statement for all of them (exported for the query-plan test). */
export const HIT_POSITIONS = `SELECT c.rowid AS rowid, c.document_id, c.ordinal, s.first_ordinal, s.last_ordinal
       FROM json_each(@rowids) j
       JOIN chunks c ON c.rowid = j.value
       LEFT JOIN sections s ON ${sectionOfChunk('c')}`;

/** The chunks at given (document, ordinal) places: the hits' neighbours, one statement for all. */
export const CHUNKS_AT = `SELECT c.rowid AS rowid, c.document_id, c.ordinal
       FROM json_each(@places) j
       JOIN chunks c ON c.document_id = json_extract(j.value, '$[0]') AND c.ordinal = json_extract(j.value, '$[1]')`;

export function toPassages(db: Db, hits: readonly number[], limit: number): Passage[] {
  if (hits.length === 0 || limit <= 0) return [];
  const positions = new Map((stmt(db, HIT_POSITIONS).all({ rowids: JSON.stringify(hits) }) as Position[]).map((p) => [p.rowid, p]));
  // Without a section holding it (a damaged index), a chunk is sent alone: no neighbours asked for.
  const places: Array<[string, number]> = [];
  for (const p of positions.values()) {
    if (p.first_ordinal === null || p.last_ordinal === null) continue;
    if (p.ordinal > p.first_ordinal) places.push([p.document_id, p.ordinal - 1]);
    if (p.ordinal < p.last_ordinal) places.push([p.document_id, p.ordinal + 1]);
  }
  const at = new Map<string, number>();
  if (places.length > 0) {
    for (const r of stmt(db, CHUNKS_AT).all({ places: JSON.stringify(places) }) as Array<{ rowid: number; document_id: string; ordinal: number }>) at.set(`${r.document_id}\0${r.ordinal}`, r.rowid);
  }
  const used = new Set<number>();
  const passages: Passage[] = [];
  for (const rowid of hits) {
    if (passages.length >= limit) break;
    if (used.has(rowid)) continue;
    const p = positions.get(rowid);
    if (!p) continue;
    const rowids = [rowid];
    if (p.first_ordinal !== null && p.last_ordinal !== null) {
      const before = p.ordinal > p.first_ordinal ? at.get(`${p.document_id}\0${p.ordinal - 1}`) : undefined;
      const after = p.ordinal < p.last_ordinal ? at.get(`${p.document_id}\0${p.ordinal + 1}`) : undefined;
      if (before !== undefined && !used.has(before)) rowids.unshift(before);
      if (after !== undefined && !used.has(after)) rowids.push(after);
    }
    for (const r of rowids) used.add(r);
    passages.push({ rowid, rowids });
  }
  return passages;
}
