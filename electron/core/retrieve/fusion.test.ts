import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion, RRF_K } from './fusion';

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
});
