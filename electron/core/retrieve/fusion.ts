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
 * Weighted fusion: `dense` × the vector score plus (1 − dense) × the keyword score, each divided by
 * the best score in its list, so both lie in [0, 1] whatever their natural scale.
 */
export function weightedFusion(lexical: readonly Ranked[], dense: readonly Ranked[], denseWeight: number): Fused[] {
  const best = (list: readonly Ranked[]) => Math.max(Number.MIN_VALUE, ...list.map((r) => r.score ?? 0));
  const lexBest = best(lexical);
  const denseBest = best(dense);
  return fuse(lexical, dense, (list, r) =>
    list === 'lexicalRank' ? ((1 - denseWeight) * Math.max(0, r.score ?? 0)) / lexBest : (denseWeight * Math.max(0, r.score ?? 0)) / denseBest,
  );
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
