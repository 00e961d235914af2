import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gaussian, normalise, seeded, syntheticModel, writeSyntheticDocument } from '../../../test/support/synthetic-index';
import { tempDbPath } from '../../../test/support/notes';
import { bitTableName, denseIndexStatus, getQuantization, packSigns } from '../db/bit-vectors';
import type { EmbeddingModelRow } from '../db/embedding-models';
import { runDoctor } from '../db/health';
import { openDatabase, type Db } from '../db/open';
import { ensureCollection } from '../db/collections';
import { deleteDocument, documentIdFor } from '../db/documents';
import { candidateCount, coarseCandidates, denseSearchTraced, VEC0_K_MAX } from './dense';
import { LIST_DEPTH } from '../../../shared/search';
import { calibrateOversampling, DEPTH_FACTORS, maintainQuantization, OVERSAMPLING_FACTORS, pickOversampling } from './quantization';

const DIM = 64;

/**
 * Vectors with the structure real embeddings have: a shared offset direction (so raw signs would be
 * alike), topics (clusters) and noise around them, unit length.
 */
function clustered(count: number, seed: number, topics = 40): Float32Array[] {
  const g = gaussian(seeded(seed));
  const offset = Float32Array.from({ length: DIM }, () => g());
  const centres = Array.from({ length: topics }, () => Float32Array.from({ length: DIM }, () => g()));
  return Array.from({ length: count }, (_, i) => {
    const c = centres[i % topics]!;
    return normalise(Float32Array.from({ length: DIM }, (_, d) => 2.5 * offset[d]! + c[d]! + 0.6 * g()));
  });
}

function exactTop(vectors: Float32Array[], rowids: number[], q: Float32Array, k: number, keep: (i: number) => boolean = () => true): number[] {
  const d = vectors.map((v, i) => ({ i, d: v.reduce((s, x, j) => s + (x - q[j]!) ** 2, 0) }));
  return d
    .filter((x) => keep(x.i))
    .sort((a, b) => a.d - b.d)
    .slice(0, k)
    .map((x) => rowids[x.i]!);
}

describe('two-stage dense search', () => {
  let file: ReturnType<typeof tempDbPath>;
  let db: Db;
  let model: EmbeddingModelRow;
  let vectors: Float32Array[];
  let rowids: number[];
  let folderOf: string[];

  beforeEach(() => {
    file = tempDbPath('quire-dense-');
    db = openDatabase(file.file);
    model = syntheticModel(db, 'synthetic-embed', DIM);
    vectors = clustered(1600, 7);
    rowids = [];
    folderOf = [];
    // Two folders, documents of 20 chunks each.
    for (let d = 0; d < vectors.length / 20; d++) {
      const root = d % 2 === 0 ? '/notes/even' : '/notes/odd';
      const slice = vectors.slice(d * 20, d * 20 + 20);
      rowids.push(...writeSyntheticDocument(db, root, { relPath: `doc-${d}.txt`, chunks: slice.map((_, i) => `document ${d} chunk ${i}`), vectors: slice }, model));
      folderOf.push(...slice.map(() => root));
    }
  });
  afterEach(() => {
    db.close();
    file.dispose();
  });

  it('packs centred signs exactly as vec_quantize_binary(vec_sub(v, mean)) does', () => {
    const g = gaussian(seeded(3));
    const mean = Float32Array.from({ length: DIM }, () => g() * 0.1);
    for (let t = 0; t < 20; t++) {
      const v = Float32Array.from({ length: DIM }, () => g());
      v[t] = mean[t]!; // a component equal to the mean is a 0 bit, as in sqlite-vec (> 0.0)
      const sql = db.prepare('SELECT vec_quantize_binary(vec_sub(?, ?))').pluck().get(Buffer.from(v.buffer), Buffer.from(mean.buffer)) as Buffer;
      expect(packSigns(v, mean).equals(sql)).toBe(true);
    }
    // Without a mean it is plain sign quantization; bit i is bit i % 8 of byte i / 8.
    const v = new Float32Array(DIM).fill(-1);
    v[0] = 1;
    v[9] = 1;
    expect([...packSigns(v, null).subarray(0, 2)]).toEqual([0b1, 0b10]);
  });

  it('centres on the mean: raw signs of vectors sharing a direction are nearly all alike, centred ones split evenly', async () => {
    const state = await maintainQuantization(db, model, { quantizeAbove: 100, sample: 16, batch: 300 });
    const ones = (b: Buffer) => [...b].reduce((n, byte) => n + byte.toString(2).replaceAll('0', '').length, 0);
    const raw = vectors.slice(0, 200).map((v) => packSigns(v, null));
    const centred = vectors.slice(0, 200).map((v) => packSigns(v, state!.mean));
    const agreement = (bits: Buffer[]) => {
      let same = 0;
      for (let i = 1; i < bits.length; i++) same += DIM - ones(Buffer.from(bits[i]!.map((x, j) => x ^ bits[0]![j]!)));
      return same / ((bits.length - 1) * DIM);
    };
    expect(agreement(raw)).toBeGreaterThan(0.75);
    expect(agreement(centred)).toBeLessThan(0.65);
    // The stored mean is the collection's mean.
    const mean = new Float64Array(DIM);
    for (const v of vectors) v.forEach((x, i) => (mean[i]! += x / vectors.length));
    state!.mean!.forEach((x, i) => expect(x).toBeCloseTo(mean[i]!, 4));
  });

  it('below the threshold searches exactly and builds nothing; above it builds the bits, calibrates and goes in two stages', async () => {
    expect(await maintainQuantization(db, model, { quantizeAbove: 5000 })).toBeNull();
    expect(denseSearchTraced(db, model, vectors[5]!, 10, { quantizeAbove: 5000 }).method).toBe('exact');

    const progress: string[] = [];
    const state = (await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 24, batch: 500, onProgress: (p) => progress.push(p.phase) }))!;
    expect(progress).toEqual(expect.arrayContaining(['mean', 'bits', 'calibrating']));
    expect(state.bitsReady).toBe(true);
    expect(db.prepare(`SELECT count(*) FROM ${bitTableName(model)}`).pluck().get()).toBe(vectors.length);
    expect(OVERSAMPLING_FACTORS).toContain(state.oversampling);
    expect(state.recallAt10).toBeGreaterThanOrEqual(0.97);

    const q = vectors[123]!;
    const quantized = denseSearchTraced(db, model, q, 10, { quantizeAbove: 1000 });
    expect(quantized.method).toBe('quantized');
    expect(quantized.k).toBe(state.oversampling! * 10);
    expect(quantized.hits[0]!.rowid).toBe(rowids[123]);
    const truth = exactTop(vectors, rowids, q, 10);
    expect(quantized.hits.filter((h) => truth.includes(h.rowid)).length).toBeGreaterThanOrEqual(8);
    // Distances are exact (rescored from the float vectors), not Hamming distances.
    expect(quantized.hits[0]!.distance).toBeCloseTo(0, 5);
    // The same table with a higher threshold (the setting raised) is searched exactly again.
    const exact = denseSearchTraced(db, model, q, 10, { quantizeAbove: 10_000 });
    expect(exact.method).toBe('exact');
    expect(exact.hits.map((h) => h.rowid)).toEqual(truth);
  });

  it('keeps bits it built while the collection stays within 10% under the threshold, so one hovering at it does not rebuild them again and again', async () => {
    const built = (await maintainQuantization(db, model, { quantizeAbove: 1600, sample: 16 }))!;
    expect(built.bitsReady).toBe(true);
    // 1,600 vectors: 6% under a threshold of 1,700 keeps what was built, calibration included.
    const phases: string[] = [];
    const kept = (await maintainQuantization(db, model, { quantizeAbove: 1700, sample: 16, onProgress: (p) => phases.push(p.phase) }))!;
    expect(phases).toEqual([]);
    expect(kept).toMatchObject({ bitsReady: true, calibratedAt: built.calibratedAt, bitsVersion: built.bitsVersion });
    expect(db.prepare(`SELECT count(*) FROM ${bitTableName(model)}`).pluck().get()).toBe(vectors.length);
    // The setting decides the method all the same: calibrated at 1,600, under 1,700 searches are exact.
    expect(denseSearchTraced(db, model, vectors[9]!, 10, { quantizeAbove: 1700 }).method).toBe('exact');
    expect(denseSearchTraced(db, model, vectors[9]!, 10, { quantizeAbove: 1600 }).method).toBe('quantized');
    // More than 10% under: they are only storage, and go.
    expect(await maintainQuantization(db, model, { quantizeAbove: 1800, sample: 16 })).toBeNull();
    expect(getQuantization(db, model.id)).toBeNull();
  });

  it('a collection that shrinks just under the threshold keeps its bits and calibration, yet searches exactly; growing back, two-stage again without measuring anew', async () => {
    const built = (await maintainQuantization(db, model, { quantizeAbove: 1600, sample: 16 }))!;
    expect(denseSearchTraced(db, model, vectors[9]!, 10, { quantizeAbove: 1600 }).method).toBe('quantized');
    // Five documents (100 vectors) go: 1,500, 6% under the threshold.
    const even = ensureCollection(db, '/notes/even').id;
    for (let d = 0; d < 10; d += 2) deleteDocument(db, documentIdFor(even, `doc-${d}.txt`));
    const phases: string[] = [];
    const kept = (await maintainQuantization(db, model, { quantizeAbove: 1600, sample: 16, onProgress: (p) => phases.push(p.phase) }))!;
    expect(phases).toEqual([]);
    expect(kept).toMatchObject({ bitsReady: true, calibratedAt: built.calibratedAt });
    expect(denseSearchTraced(db, model, vectors[19]!, 10, { quantizeAbove: 1600 }).method).toBe('exact');
    expect(denseIndexStatus(db, model, 1500, 1600).method).toBe('exact');
    // Back over the threshold: two-stage at once, on the calibration kept.
    for (let d = 0; d < 10; d += 2) writeSyntheticDocument(db, '/notes/even', { relPath: `doc-${d}.txt`, chunks: vectors.slice(d * 20, d * 20 + 20).map((_, i) => `document ${d} chunk ${i}`), vectors: vectors.slice(d * 20, d * 20 + 20) }, model);
    await maintainQuantization(db, model, { quantizeAbove: 1600, sample: 16, onProgress: (p) => phases.push(p.phase) });
    expect(phases).toEqual([]);
    expect(denseSearchTraced(db, model, vectors[19]!, 10, { quantizeAbove: 1600 }).method).toBe('quantized');
  });

  it('keeps the scope inside the KNN in both methods: a folder on other topics still gets its own nearest', async () => {
    await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 16 });
    const odd = ensureCollection(db, '/notes/odd').id;
    // A query from the odd folder's own topics, and one from the even folder's, which the odd folder does not share.
    for (const at of [20, 40]) {
      const q = vectors[at]!;
      const truth = exactTop(vectors, rowids, q, 10, (i) => folderOf[i] === '/notes/odd');
      const exactDistance = (v: Float32Array, rowid: number) => Math.sqrt(vectors[rowids.indexOf(rowid)]!.reduce((s, x, j) => s + (x - v[j]!) ** 2, 0));
      for (const [quantizeAbove, method] of [[100_000, 'exact'], [1000, 'quantized']] as const) {
        const r = denseSearchTraced(db, model, q, 10, { quantizeAbove, filter: { collectionIds: [odd] } });
        expect(r.method).toBe(method);
        const got = r.hits.map((h) => h.rowid);
        for (const rowid of got) expect(folderOf[rowids.indexOf(rowid)]).toBe('/notes/odd');
        if (method === 'exact') expect(got).toEqual(truth);
        else if (at === 20) expect(got.filter((x) => truth.includes(x)).length).toBeGreaterThanOrEqual(8);
        // Far from every chunk in scope, all are nearly as far as each other, and bits cannot tell
        // them apart as finely: what two stages find is nearly as near as the true nearest (5% here).
        else expect(r.hits[9]!.distance).toBeLessThan(1.1 * exactDistance(q, truth[9]!));
        expect(r.hits.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      }
    }
  });

  it('the in-memory coarse pass ranks exactly as the SQL one (Hamming, then rowid), and follows every write', async () => {
    await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 8 });
    const state = () => getQuantization(db, model.id)!;
    const bits = packSigns(vectors[300]!, state().mean);
    for (const k of [1, 10, 100, 1000]) {
      expect(coarseCandidates(db, model, bits, k, null, state().bitsVersion)).toEqual(coarseCandidates(db, model, bits, k));
    }
    const before = state().bitsVersion;
    // A new chunk identical to the query: the next search sees it first, though the copy was loaded before it.
    const [added] = writeSyntheticDocument(db, '/notes/odd', { relPath: 'copy.txt', chunks: ['copy'], vectors: [vectors[300]!] }, model);
    expect(state().bitsVersion).not.toBe(before);
    const near = coarseCandidates(db, model, bits, 2, null, state().bitsVersion);
    expect(near).toEqual([rowids[300], added].sort((a, b) => a! - b!));
    // And a deleted one is gone from it.
    writeSyntheticDocument(db, '/notes/odd', { relPath: 'copy.txt', chunks: ['moved away'], vectors: [vectors[900]!] }, model);
    expect(coarseCandidates(db, model, bits, 1, null, state().bitsVersion)).toEqual([rowids[300]]);
  });

  it('measures a second factor for searches LIST_DEPTH deep, and a deep search rescores that many candidates at the recall measured', async () => {
    const state = (await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 24 }))!;
    expect(DEPTH_FACTORS).toContain(state.depthOversampling);
    expect(state.recallAtDepth).toBeGreaterThanOrEqual(0.97);
    const c = (await calibrateOversampling(db, model, state, { sample: 24 }))!;
    const recalls = DEPTH_FACTORS.map((f) => c.depth!.byFactor[f]!);
    for (let i = 1; i < recalls.length; i++) expect(recalls[i]).toBeGreaterThanOrEqual(recalls[i - 1]!);
    expect(c.depth!.oversampling).toBe(DEPTH_FACTORS.find((f) => c.depth!.byFactor[f]! >= 0.97));

    // Ten or fewer: the top-10 factor. Deeper: the depth factor × limit, never fewer than the top 10 needs.
    expect(candidateCount({ oversampling: 32, depthOversampling: 8 }, 10)).toBe(320);
    expect(candidateCount({ oversampling: 32, depthOversampling: 8 }, 50)).toBe(400);
    expect(candidateCount({ oversampling: 32, depthOversampling: 4 }, 20)).toBe(320);
    expect(candidateCount({ oversampling: 32, depthOversampling: null }, 50)).toBe(1600);
    expect(candidateCount({ oversampling: 128, depthOversampling: 128 }, 50)).toBe(VEC0_K_MAX);

    let found = 0;
    const queries = [11, 222, 333, 444, 555, 666, 777, 888];
    for (const i of queries) {
      const deep = denseSearchTraced(db, model, vectors[i]!, LIST_DEPTH, { quantizeAbove: 1000 });
      expect(deep.method).toBe('quantized');
      expect(deep.k).toBe(candidateCount(state, LIST_DEPTH));
      const truth = exactTop(vectors, rowids, vectors[i]!, LIST_DEPTH);
      found += deep.hits.filter((h) => truth.includes(h.rowid)).length / LIST_DEPTH;
    }
    expect(found / queries.length).toBeGreaterThanOrEqual(0.9);
    expect(denseIndexStatus(db, model, vectors.length, 1000)).toMatchObject({ depthOversampling: state.depthOversampling, recallAtDepth: state.recallAtDepth });
    expect(denseIndexStatus(db, model, vectors.length, 1000).reason).toMatch(new RegExp(`×${state.depthOversampling} for the ${LIST_DEPTH} candidates hybrid search fuses`));
  });

  it('a calibration from before the depth factor keeps two-stage search at the top-10 factor until upkeep measures the depth one', async () => {
    await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 16 });
    db.prepare('UPDATE vector_quantization SET depth_oversampling = NULL, recall_at_depth = NULL WHERE model_id = ?').run(model.id);
    const old = getQuantization(db, model.id)!;
    const before = denseSearchTraced(db, model, vectors[42]!, LIST_DEPTH, { quantizeAbove: 1000 });
    expect(before.method).toBe('quantized');
    expect(before.k).toBe(Math.min(VEC0_K_MAX, old.oversampling! * LIST_DEPTH));
    const during: string[] = [];
    const after = (await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 16, onProgress: () => during.push(denseSearchTraced(db, model, vectors[42]!, 10, { quantizeAbove: 1000 }).method) }))!;
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((m) => m === 'quantized')).toBe(true);
    expect(after.recallAtDepth).not.toBeNull();
    expect(after.depthOversampling).not.toBeNull();
    // Measured once: the next upkeep leaves it alone.
    const calibratedAt = after.calibratedAt;
    expect((await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 16 }))!.calibratedAt).toBe(calibratedAt);
  });

  it("never asks vec0 for more than its k limit", async () => {
    await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 8 });
    const r = denseSearchTraced(db, model, vectors[0]!, 50, { quantizeAbove: 1000, oversampling: 128 });
    expect(r.method).toBe('quantized');
    expect(r.k).toBe(VEC0_K_MAX);
    expect(r.hits.length).toBe(50);
  });

  it('keeps the bits in step with every write, and rebuilds them on a new mean when the collection has grown', async () => {
    await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 8 });
    const bits = () => db.prepare(`SELECT count(*) FROM ${bitTableName(model)}`).pluck().get() as number;
    // Replacing a document replaces its vectors and their bits; a new document adds both.
    const more = clustered(900, 99);
    writeSyntheticDocument(db, '/notes/even', { relPath: 'doc-0.txt', chunks: ['replaced'], vectors: [more[0]!] }, model);
    expect(bits()).toBe(vectors.length - 19);
    for (let d = 0; d < 40; d++) writeSyntheticDocument(db, '/notes/odd', { relPath: `new-${d}.txt`, chunks: ['a', 'b', 'c', 'd', 'e'], vectors: more.slice(1 + d * 5, 6 + d * 5) }, model);
    expect(bits()).toBe(vectors.length - 19 + 200);
    expect(runDoctor(db).every((c) => c.ok)).toBe(true);
    const before = getQuantization(db, model.id)!;
    // Grown by half since the mean was taken: a new mean, the bits rebuilt, the factor measured again.
    const most = clustered(700, 5);
    for (let d = 0; d < 100; d++) writeSyntheticDocument(db, '/notes/odd', { relPath: `grow-${d}.txt`, chunks: ['x', 'y', 'z', 'w', 'v', 'u', 't'], vectors: most.slice(d * 7, d * 7 + 7) }, model);
    const after = (await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 8 }))!;
    expect(after.meanVectors).toBe(vectors.length - 19 + 200 + 700);
    expect(after.meanVectors).not.toBe(before.meanVectors);
    expect(after.calibratedVectors).toBe(after.meanVectors);
    expect(bits()).toBe(after.meanVectors);
    expect(runDoctor(db).every((c) => c.ok)).toBe(true);
  });

  it('picks the smallest factor that reaches the recall wanted, and none (exact search) when no factor does', async () => {
    expect(pickOversampling({ 4: 0.9, 8: 0.97, 16: 0.99, 32: 1, 64: 1, 128: 1 })).toEqual({ oversampling: 8, recallAt10: 0.97 });
    expect(pickOversampling({ 4: 0.98, 8: 0.99, 16: 1, 32: 1, 64: 1, 128: 1 })).toEqual({ oversampling: 4, recallAt10: 0.98 });
    expect(pickOversampling({ 4: 0.5, 8: 0.6, 16: 0.7, 32: 0.8, 64: 0.9, 128: 0.95 })).toEqual({ oversampling: null, recallAt10: 0.95 });

    const state = (await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 24 }))!;
    const c = (await calibrateOversampling(db, model, state, { sample: 24 }))!;
    const recalls = OVERSAMPLING_FACTORS.map((f) => c.byFactor[f]!);
    // More candidates never find fewer of the true neighbours.
    for (let i = 1; i < recalls.length; i++) expect(recalls[i]).toBeGreaterThanOrEqual(recalls[i - 1]!);
    expect(c.oversampling).toBe(OVERSAMPLING_FACTORS.find((f) => c.byFactor[f]! >= 0.97));
    // Asking for more than any factor gives: none chosen, the best recall kept, searches stay exact.
    const none = (await calibrateOversampling(db, model, state, { sample: 24, wanted: 1.01 }))!;
    expect(none.oversampling).toBeNull();
    expect(none.recallAt10).toBe(Math.max(...recalls));
    db.prepare('UPDATE vector_quantization SET oversampling = NULL WHERE model_id = ?').run(model.id);
    expect(denseSearchTraced(db, model, vectors[0]!, 10, { quantizeAbove: 1000 }).method).toBe('exact');
    expect(denseIndexStatus(db, model, vectors.length, 1000).reason).toMatch(/^exact: no oversampling up to ×128 reached recall@10 0\.97/);
  });
});
