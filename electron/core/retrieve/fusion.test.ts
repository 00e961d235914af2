import { describe, expect, it } from 'vitest';
import { DEFAULT_FUSION, formatFusion, parseFusion } from '../../../shared/fusion';
import { fuseWith, reciprocalRankFusion, RRF_K, weightedFusion } from './fusion';

const ranks = (...rowids: number[]) => rowids.map((rowid, i) => ({ rowid, rank: i + 1 }));

describe('reciprocalRankFusion', () => {
  it('scores 1/(k+rank) per list and sums across lists', () => {
    const fused = reciprocalRankFusion(ranks(10, 20), ranks(20, 30));
    const by = new Map(fused.map((f) => [f.rowid, f]));
    expect(by.get(20)!.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1), 12);
    expect(by.get(10)!.score).toBeCloseTo(1 / (RRF_K + 1), 12);
    expect(by.get(30)!.score).toBeCloseTo(1 / (RRF_K + 2), 12);
    expect(fused.map((f) => f.rowid)).toEqual([20, 10, 30]);
  });

  it('keeps both ranks as provenance', () => {
    const fused = reciprocalRankFusion(ranks(1, 2), ranks(2));
    expect(fused.find((f) => f.rowid === 2)).toMatchObject({ lexicalRank: 2, denseRank: 1 });
    expect(fused.find((f) => f.rowid === 1)).toMatchObject({ lexicalRank: 1, denseRank: null });
  });

  it('breaks exact ties deterministically: better single rank, then rowid', () => {
    // 7 is lexical #1 and 9 is dense #1: equal scores, equal best rank → lower rowid first.
    expect(reciprocalRankFusion(ranks(7), ranks(9)).map((f) => f.rowid)).toEqual([7, 9]);
    expect(reciprocalRankFusion(ranks(9), ranks(7)).map((f) => f.rowid)).toEqual([7, 9]);
    // Equal fused scores but different best ranks: a=#1 and #3; b=#2 and #2 → scores differ slightly; check order by score.
    const fused = reciprocalRankFusion(ranks(1, 2, 3), ranks(3, 2, 1));
    expect(fused[0]!.rowid).toBe(1); // 1/61 + 1/63 > 2/62
    expect(fused.map((f) => f.rowid)).toEqual([1, 3, 2]);
  });

  it('handles one empty list as a plain ranking', () => {
    expect(reciprocalRankFusion([], ranks(5, 4)).map((f) => f.rowid)).toEqual([5, 4]);
    expect(reciprocalRankFusion([], [])).toEqual([]);
  });

  it('fuseWith honours the constant it is given', () => {
    const a = fuseWith({ kind: 'rrf', k: 1 }, ranks(1, 2), ranks(2));
    expect(a.find((f) => f.rowid === 2)!.score).toBeCloseTo(1 / 3 + 1 / 2, 12);
  });
});

describe('weightedFusion', () => {
  const scored = (...pairs: Array<[number, number]>) => pairs.map(([rowid, score], i) => ({ rowid, rank: i + 1, score }));

  it('mixes keyword scores over their best (from a floor of 0) and vector scores min–max over their list, by the given share', () => {
    const fused = weightedFusion(scored([1, 10], [2, 6], [4, 2]), scored([2, 0.8], [3, 0.6], [5, 0.4]), 0.3);
    const by = new Map(fused.map((f) => [f.rowid, f.score]));
    expect(by.get(1)).toBeCloseTo(0.7 * 1, 12);
    expect(by.get(2)).toBeCloseTo(0.7 * 0.6 + 0.3 * 1, 12);
    expect(by.get(3)).toBeCloseTo(0.3 * 0.5, 12);
    expect(by.get(4)).toBeCloseTo(0.7 * 0.2, 12);
    expect(by.get(5)).toBeCloseTo(0, 12);
    expect(fused.map((f) => f.rowid)).toEqual([2, 1, 3, 4, 5]);
  });

  it('keeps the last match of a short keyword list above the chunks it did not match', () => {
    // Two keyword matches and five vector neighbours: the second match (also a neighbour) is no
    // weaker than a chunk the keywords missed, as min–max over the keyword list would make it.
    const fused = weightedFusion(scored([1, 1], [2, 0.97]), scored([9, 0.62], [8, 0.6], [7, 0.58], [2, 0.55], [6, 0.5]), 0.3);
    const order = fused.map((f) => f.rowid);
    expect(order.slice(0, 2)).toEqual([2, 1]);
    expect(order.indexOf(2)).toBeLessThan(order.indexOf(9));
  });

  it('reads a missing vector score as the lowest of its list, not as 0 (cosines may be negative)', () => {
    const dense = [{ rowid: 5, rank: 1, score: -0.1 }, { rowid: 6, rank: 2 }, { rowid: 7, rank: 3, score: -0.3 }];
    const by = new Map(weightedFusion([], dense, 1).map((f) => [f.rowid, f.score]));
    expect(by.get(5)).toBeCloseTo(1, 12);
    expect(by.get(6)).toBeCloseTo(0, 12);
    expect(by.get(7)).toBeCloseTo(0, 12);
  });

  it('lets vector scores crowded in a narrow band still reorder the keyword ranking', () => {
    // Divided by their best, 0.62 / 0.55 / 0.48 would all be 0.77 to 1 and 1 would stay first.
    const lex = scored([1, 10], [2, 9], [3, 1]);
    const dense = scored([2, 0.62], [1, 0.55], [3, 0.48]);
    expect(weightedFusion(lex, dense, 0.3).map((f) => f.rowid)).toEqual([2, 1, 3]);
  });

  it('scores a list whose scores are all equal as all best, and one it lacks as 0', () => {
    const fused = weightedFusion(scored([1, 4], [2, 4]), scored([3, 0.5]), 0.4);
    const by = new Map(fused.map((f) => [f.rowid, f.score]));
    expect(by.get(1)).toBeCloseTo(0.6, 12);
    expect(by.get(2)).toBeCloseTo(0.6, 12);
    expect(by.get(3)).toBeCloseTo(0.4, 12);
  });

  it('at 0 is the keyword ranking and at 1 the vector ranking', () => {
    const lex = scored([1, 9], [2, 3]);
    const dense = scored([2, 0.9], [1, 0.1]);
    expect(weightedFusion(lex, dense, 0).map((f) => f.rowid)).toEqual([1, 2]);
    expect(weightedFusion(lex, dense, 1).map((f) => f.rowid)).toEqual([2, 1]);
  });
});

describe('fusion specs', () => {
  it('parses and formats both kinds, canonically', () => {
    expect(parseFusion('rrf:60')).toEqual({ kind: 'rrf', k: 60 });
    expect(parseFusion('rrf')).toEqual({ kind: 'rrf', k: 60 });
    expect(parseFusion(' Weighted:0.3 ')).toEqual({ kind: 'weighted', dense: 0.3 });
    for (const spec of ['rrf:60', 'rrf:1', 'weighted:0', 'weighted:1', 'weighted:0.25']) expect(formatFusion(parseFusion(spec)!)).toBe(spec);
  });

  it('refuses what is not a fusion', () => {
    for (const spec of ['', 'rrf:0', 'rrf:2.5', 'rrf:1001', 'weighted', 'weighted:1.5', 'weighted:-0.1', 'max:3', 'rrf:60;DROP']) expect(parseFusion(spec)).toBeNull();
  });
});
