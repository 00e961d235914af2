import type { Db } from '../db/open';
import { stmt } from '../db/statements';
import { BOUNDS } from '../../../shared/settings';
import { LOOKUP_SQL, positionKey, sectionTokens, type ChunkPosition } from './lexical-rows';

/**
 * The most tokens a passage holds: four chunks at the default chunk size, under two-thirds of the
 * 1,600 source tokens an answer sends by default, so room is left for other passages (and the
 * budget narrows a passage that does not fit).
 */
export const PASSAGE_TOKENS = 1024;

/**
 * Small-to-big, the parent of parent–child retrieval: each hit is sent with its section around it,
 * so the detail a question asks about arrives with the sentences that name its topic. A section of
 * at most PASSAGE_TOKENS is sent whole: a short section is one topic, and its detail is often a
 * chunk or two from the words that matched. In a longer one the passage grows from the hit a chunk
 * at a time while it stays within PASSAGE_TOKENS, toward the better-ranked neighbour (more of the
 * question is there; before on a tie, as a topic's words precede its detail); it never crosses into
 * the next section (another topic). A hit already inside an earlier passage adds nothing and is
 * skipped; chunks already sent are not sent twice.
 *
 * Measured on the question sets (npm run bench:retrieval): sending the hit with its neighbours
 * lifted "the first passage holds the fact" from about a third to over half at the same source
 * tokens; whole short sections then lifted hit@3 on both rust-book sets; growing to the bound in
 * long sections instead of one chunk each side lifted fact sent on rust-book from 89 to 91% at the
 * same tokens, and growing toward the better-ranked side hit@1 from 66 to 68%. Nothing was lost on
 * any set, the held-out ones included.
 */
export interface Passage {
  /** The hit's rowid (the chunk that matched). */
  rowid: number;
  /** The passage's chunks in document order, the hit among them. */
  rowids: number[];
}

/**
 * How far a passage in a long section may reach either side of its hit, in chunks: a bound on the
 * lookup, not on the passage. A passage may grow all on one side (a hit at a section's edge, or
 * with no better-ranked neighbour it grows before first), so the whole bound of chunks at the
 * smallest chunk size, not half of it, on each side.
 */
const reach = (bound: number) => Math.ceil(bound / BOUNDS.chunkTokens.min);

export function toPassages(db: Db, hits: readonly number[], limit: number, options: { passageTokens?: number } = {}): Passage[] {
  const bound = options.passageTokens ?? PASSAGE_TOKENS;
  if (hits.length === 0 || limit <= 0) return [];
  const far = reach(bound);
  const positions = new Map((stmt(db, LOOKUP_SQL.positions).all(JSON.stringify(hits)) as ChunkPosition[]).map((p) => [p.rowid, p]));
  const sizes = sectionTokens(db, [...positions.values()].flatMap((p) => (p.section !== null ? [p.section] : [])));
  // The ordinals that may be sent around each hit: its whole section when short, else at most
  // reach(bound) chunks either side within it. Without a section holding it (a damaged index), a chunk is
  // sent alone. All of them, with their sizes, in one statement.
  const range = (p: ChunkPosition): [number, number] => {
    if (p.section === null || p.first_ordinal === null || p.last_ordinal === null) return [p.ordinal, p.ordinal];
    if ((sizes.get(p.section) ?? Infinity) <= bound) return [p.first_ordinal, p.last_ordinal];
    return [Math.max(p.first_ordinal, p.ordinal - far), Math.min(p.last_ordinal, p.ordinal + far)];
  };
  const ranges = new Map([...positions.values()].map((p) => [p.rowid, range(p)]));
  const triples = [...positions.values()].map((p) => [p.document_id, ...ranges.get(p.rowid)!]);
  const chunks = new Map(
    (stmt(db, LOOKUP_SQL.windows).all(JSON.stringify(triples)) as Array<{ rowid: number; document_id: string; ordinal: number; tokens: number }>).map((c) => [positionKey(c.document_id, c.ordinal), c]),
  );
  const rank = new Map(hits.map((h, i) => [h, i]));
  const used = new Set<number>();
  const passages: Passage[] = [];
  for (const rowid of hits) {
    if (passages.length >= limit) break;
    if (used.has(rowid)) continue;
    const p = positions.get(rowid);
    if (!p) continue;
    const [lo, hi] = ranges.get(rowid)!;
    const hit = chunks.get(positionKey(p.document_id, p.ordinal));
    let tokens = hit?.tokens ?? 0;
    let from = p.ordinal;
    let to = p.ordinal;
    // A chunk already sent, or one the bound cannot take, ends the passage on that side.
    const take = (o: number): boolean => {
      if (o < lo || o > hi) return false;
      const c = chunks.get(positionKey(p.document_id, o));
      if (!c || used.has(c.rowid) || tokens + c.tokens > bound) return false;
      tokens += c.tokens;
      return true;
    };
    // Toward the better-ranked neighbour first (more of the question is there); on a tie, before:
    // a topic's words come before its detail.
    const rankAt = (o: number) => rank.get(chunks.get(positionKey(p.document_id, o))?.rowid ?? -1) ?? Infinity;
    let before = true;
    let after = true;
    while (before || after) {
      if (after && (!before || rankAt(to + 1) < rankAt(from - 1))) after = take(to + 1) ? (to++, true) : false;
      else before = take(from - 1) ? (from--, true) : false;
    }
    const rowids: number[] = [];
    for (let o = from; o <= to; o++) rowids.push(o === p.ordinal ? rowid : chunks.get(positionKey(p.document_id, o))!.rowid);
    for (const r of rowids) used.add(r);
    passages.push({ rowid, rowids });
  }
  return passages;
}
