/** Reciprocal rank fusion constant from Cormack et al.; damps the influence of the very top ranks. */
export const RRF_K = 60;

export interface Ranked {
  rowid: number;
  /** 1-based rank in its list. */
  rank: number;
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
  const byRow = new Map<number, Fused>();
  const add = (list: readonly Ranked[], key: 'lexicalRank' | 'denseRank') => {
    for (const { rowid, rank } of list) {
      const f = byRow.get(rowid) ?? { rowid, score: 0, lexicalRank: null, denseRank: null };
      if (f[key] !== null) continue; // a list names each chunk once; keep its best rank
      f[key] = rank;
      f.score += 1 / (k + rank);
      byRow.set(rowid, f);
    }
  };
  add(lexical, 'lexicalRank');
  add(dense, 'denseRank');
  const best = (f: Fused) => Math.min(f.lexicalRank ?? Infinity, f.denseRank ?? Infinity);
  return [...byRow.values()].sort((a, b) => b.score - a.score || best(a) - best(b) || a.rowid - b.rowid);
}
