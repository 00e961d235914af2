import type { Db } from '../db/open';
import { stmt } from '../db/statements';
import { LOOKUP_SQL, positionKey, rowidsAt, sectionTokens, type ChunkPosition } from './lexical-rows';

/**
 * Four chunks at the default chunk size, under two-thirds of the 1,600 source tokens an answer sends
 * by default: room is left for other passages (and the budget narrows a passage that does not fit).
 * Measured on the question sets (npm run bench:retrieval): hit@3 up on both rust-book sets, fact sent
 * +1 on rust-book, nothing lost anywhere.
 */
export const WHOLE_SECTION_TOKENS = 1024;

/**
 * Small-to-big: each hit is sent with the chunk before and after it in the same section, so the
 * detail a question asks about arrives with the sentences that name its topic. Measured on the
 * question sets, this lifts "the first passage holds the fact" from about a third to over half at
 * the same source tokens (the budget then sends fewer, larger passages). A hit in a short section
 * (at most WHOLE_SECTION_TOKENS) comes with its whole section instead, the parent of parent–child
 * retrieval: a short section is one topic, and its detail is often a chunk or two from the words
 * that matched. A hit already inside an earlier passage adds nothing and is skipped; chunks
 * already sent are not sent twice.
 */
export interface Passage {
  /** The hit's rowid (the chunk that matched). */
  rowid: number;
  /** The passage's chunks in document order, the hit among them. */
  rowids: number[];
}

export function toPassages(db: Db, hits: readonly number[], limit: number, options: { wholeSectionTokens?: number } = {}): Passage[] {
  const whole = options.wholeSectionTokens ?? WHOLE_SECTION_TOKENS;
  if (hits.length === 0 || limit <= 0) return [];
  const positions = new Map((stmt(db, LOOKUP_SQL.positions).all(JSON.stringify(hits)) as ChunkPosition[]).map((p) => [p.rowid, p]));
  const sizes = sectionTokens(db, [...positions.values()].flatMap((p) => (p.section !== null ? [p.section] : [])));
  // The ordinals sent around each hit: its whole section when short, else the chunk before and
  // after within it. Without a section holding it (a damaged index), a chunk is sent alone.
  const span = (p: ChunkPosition): [number, number] => {
    if (p.section === null || p.first_ordinal === null || p.last_ordinal === null) return [p.ordinal, p.ordinal];
    if ((sizes.get(p.section) ?? Infinity) <= whole) return [p.first_ordinal, p.last_ordinal];
    return [Math.max(p.first_ordinal, p.ordinal - 1), Math.min(p.last_ordinal, p.ordinal + 1)];
  };
  const places: Array<{ document_id: string; ordinal: number }> = [];
  for (const p of positions.values()) {
    const [from, to] = span(p);
    for (let o = from; o <= to; o++) if (o !== p.ordinal) places.push({ document_id: p.document_id, ordinal: o });
  }
  const at = rowidsAt(db, places);
  const used = new Set<number>();
  const passages: Passage[] = [];
  for (const rowid of hits) {
    if (passages.length >= limit) break;
    if (used.has(rowid)) continue;
    const p = positions.get(rowid);
    if (!p) continue;
    const [from, to] = span(p);
    const rowids: number[] = [];
    for (let o = from; o <= to; o++) {
      const r = o === p.ordinal ? rowid : at.get(positionKey(p.document_id, o));
      // Contiguous only: a chunk already sent ends the passage on that side.
      if (r === undefined || (r !== rowid && used.has(r))) {
        if (o < p.ordinal) rowids.length = 0;
        else break;
        continue;
      }
      rowids.push(r);
    }
    for (const r of rowids) used.add(r);
    passages.push({ rowid, rowids });
  }
  return passages;
}
