import type { Db } from '../db/open';
import { stmt } from '../db/statements';
import { LOOKUP_SQL, positionKey, rowidsAt, type ChunkPosition } from './lexical-rows';

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

export function toPassages(db: Db, hits: readonly number[], limit: number): Passage[] {
  if (hits.length === 0 || limit <= 0) return [];
  const positions = new Map((stmt(db, LOOKUP_SQL.positions).all(JSON.stringify(hits)) as ChunkPosition[]).map((p) => [p.rowid, p]));
  // Without a section holding it (a damaged index), a chunk is sent alone: no neighbours asked for.
  const places: Array<{ document_id: string; ordinal: number }> = [];
  for (const p of positions.values()) {
    if (p.first_ordinal === null || p.last_ordinal === null) continue;
    if (p.ordinal > p.first_ordinal) places.push({ document_id: p.document_id, ordinal: p.ordinal - 1 });
    if (p.ordinal < p.last_ordinal) places.push({ document_id: p.document_id, ordinal: p.ordinal + 1 });
  }
  const at = rowidsAt(db, places);
  const used = new Set<number>();
  const passages: Passage[] = [];
  for (const rowid of hits) {
    if (passages.length >= limit) break;
    if (used.has(rowid)) continue;
    const p = positions.get(rowid);
    if (!p) continue;
    const rowids = [rowid];
    if (p.first_ordinal !== null && p.last_ordinal !== null) {
      const before = p.ordinal > p.first_ordinal ? at.get(positionKey(p.document_id, p.ordinal - 1)) : undefined;
      const after = p.ordinal < p.last_ordinal ? at.get(positionKey(p.document_id, p.ordinal + 1)) : undefined;
      if (before !== undefined && !used.has(before)) rowids.unshift(before);
      if (after !== undefined && !used.has(after)) rowids.push(after);
    }
    for (const r of rowids) used.add(r);
    passages.push({ rowid, rowids });
  }
  return passages;
}
