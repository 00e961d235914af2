import { describe, expect, it } from 'vitest';
import { gaussian, seeded } from '../support/synthetic-index';
import { buildVectorSets, lsaBasis, TfIdf, type Sparse } from './dense-vector-sets';

describe("the dense benchmark's vector sets", () => {
  it('the randomized SVD finds an orthonormal basis holding a low-rank matrix whole', () => {
    // 300 rows of rank 4 over 60 terms (plus a little noise): 4 directions hold nearly everything.
    const g = gaussian(seeded(2));
    const factors = Array.from({ length: 4 }, () => Array.from({ length: 60 }, g));
    const rows: Sparse[] = Array.from({ length: 300 }, () => {
      const w = Array.from({ length: 4 }, g);
      const dense = Array.from({ length: 60 }, (_, t) => w.reduce((s, x, f) => s + x * factors[f]![t]!, 0) + 0.01 * g());
      return { idx: Int32Array.from(dense.keys()), val: Float32Array.from(dense) };
    });
    const k = 4;
    const basis = lsaBasis(rows, 60, k, 3);
    for (let a = 0; a < k; a++) {
      for (let b = 0; b < k; b++) {
        let dot = 0;
        for (let t = 0; t < 60; t++) dot += basis[t * k + a]! * basis[t * k + b]!;
        expect(dot).toBeCloseTo(a === b ? 1 : 0, 6);
      }
    }
    let kept = 0;
    let total = 0;
    for (const r of rows) {
      for (let j = 0; j < k; j++) {
        let z = 0;
        for (let n = 0; n < r.idx.length; n++) z += r.val[n]! * basis[r.idx[n]! * k + j]!;
        kept += z * z;
      }
      for (const v of r.val) total += v * v;
    }
    expect(kept / total).toBeGreaterThan(0.999);
  });

  it('TF-IDF drops stopwords and rare terms and is unit length; texts sharing words land closer in both sets', () => {
    const texts = [
      'extract a tar archive into a directory',
      'create a gzipped tar archive from a directory',
      'list the files inside a tar archive',
      'rebase the current git branch onto main',
      'show the git log of a branch with graphs',
      'undo the last git commit but keep the changes',
    ].flatMap((t) => [t, `${t} quickly`]);
    const tfidf = new TfIdf(texts);
    expect(tfidf.vocab.has('the')).toBe(false);
    const row = tfidf.row('tar archive of the git branch');
    expect(row.val.reduce((s, v) => s + v * v, 0)).toBeCloseTo(1, 5);
    const sets = buildVectorSets(texts, 64, () => {});
    const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    for (const embed of [(t: string) => sets.r(t, 1), (t: string) => sets.h(t)]) {
      const q = embed('how do I extract a tar archive');
      expect(cos(q, embed(texts[0]!))).toBeGreaterThan(cos(q, embed(texts[6]!)));
      expect(Math.hypot(...embed(texts[3]!))).toBeCloseTo(1, 5);
    }
  });
});
