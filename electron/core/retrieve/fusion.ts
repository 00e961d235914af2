import type { Fusion } from '../../../shared/fusion';

/** Reciprocal rank fusion constant from Cormack et al.; damps the influence of the very top ranks. */
export const RRF_K = 60;

export interface Ranked {
  rowid: number;
  /** 1-based rank in its list. */
  rank: number;
  /** The list's own score, higher is better (keyword: rescored bm25; vectors: cosine similarity). */
  score?: number;
}

export interface Fused {
  rowid: number;
  score: number;
  lexicalRank: number | null;
  denseRank: number | null;
}

/**
 * Fuses lexical and dense rankings by reciprocal rank fusion. A chunk found by both lists
 * scores the sum of both contributions. Ties are broken by the better single rank, then by
 * rowid, so the order is deterministic.
 */
export function reciprocalRankFusion(lexical: readonly Ranked[], dense: readonly Ranked[], k = RRF_K): Fused[] {
  return fuse(lexical, dense, (list, r) => 1 / (k + r.rank));
}

/**
 * Weighted fusion, a convex combination: `dense` × the vector score plus (1 − dense) × the keyword
 * score, each scaled to [0, 1] for this query. A chunk missing from a list scores 0 there.
 *
 * Keyword scores are shares of their best (lexical.ts) over a floor of 0, which is what every chunk
 * the query's words miss scores: divided by the best, a list of two matches keeps its second at its
 * own share instead of at the floor. Vector scores are min–max scaled over the list (its best 1,
 * its last 0): every chunk has a cosine similarity, and they crowd a narrow band (a list may run
 * from 0.62 to 0.48), so divided by the best they would all land between 0.77 and 1 and the
 * vectors' share would barely reorder what they found, while one they did not list fell from 0.77
 * to 0; the list's last is the floor the rest of the folder lies under. (Bruch et al., "An Analysis
 * of Fusion Functions for Hybrid Retrieval", TOIS 2023: a convex combination beats reciprocal rank
 * fusion in and out of domain; measured here in test/bench/retrieval.ts.)
 */
export function weightedFusion(lexical: readonly Ranked[], dense: readonly Ranked[], denseWeight: number): Fused[] {
  const lex = overFloor(lexical);
  const vec = minMax(dense);
  return fuse(lexical, dense, (list, r) => (list === 'lexicalRank' ? (1 - denseWeight) * lex(r) : denseWeight * vec(r)));
}

/** Each score over the list's best, from a floor of 0 (a missing score is the floor). */
function overFloor(list: readonly Ranked[]): (r: Ranked) => number {
  const best = Math.max(0, ...list.map((r) => r.score ?? 0));
  return (r) => (best > 0 ? Math.max(0, r.score ?? 0) / best : 0);
}

/** A list's scores scaled to [0, 1] over the list (a missing score is the list's lowest); all equal scores are all 1. */
function minMax(list: readonly Ranked[]): (r: Ranked) => number {
  const scores = list.flatMap((r) => (r.score === undefined ? [] : [r.score]));
  const lo = Math.min(...scores);
  const span = Math.max(...scores) - lo;
  return (r) => (span > 0 ? ((r.score ?? lo) - lo) / span : 1);
}

export function fuseWith(fusion: Fusion, lexical: readonly Ranked[], dense: readonly Ranked[]): Fused[] {
  return fusion.kind === 'rrf' ? reciprocalRankFusion(lexical, dense, fusion.k) : weightedFusion(lexical, dense, fusion.dense);
}

function fuse(lexical: readonly Ranked[], dense: readonly Ranked[], contribution: (list: 'lexicalRank' | 'denseRank', r: Ranked) => number): Fused[] {
  const byRow = new Map<number, Fused>();
  const add = (list: readonly Ranked[], key: 'lexicalRank' | 'denseRank') => {
    for (const r of list) {
      const f = byRow.get(r.rowid) ?? { rowid: r.rowid, score: 0, lexicalRank: null, denseRank: null };
      if (f[key] !== null) continue; // a list names each chunk once; keep its best rank
      f[key] = r.rank;
      f.score += contribution(key, r);
      byRow.set(r.rowid, f);
    }
  };
  add(lexical, 'lexicalRank');
  add(dense, 'denseRank');
  const best = (f: Fused) => Math.min(f.lexicalRank ?? Infinity, f.denseRank ?? Infinity);
  return [...byRow.values()].sort((a, b) => b.score - a.score || best(a) - best(b) || a.rowid - b.rowid);
}
