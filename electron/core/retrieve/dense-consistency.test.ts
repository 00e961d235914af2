import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addSyntheticVectors, gaussian, normalise, seeded, syntheticModel, writeSyntheticDocument } from '../../../test/support/synthetic-index';
import { tempDbPath } from '../../../test/support/notes';
import { bitTableName, denseIndexStatus, getQuantization, rescoreTableName, resetBits } from '../db/bit-vectors';
import { activateEmbeddingModel, dropEmbeddingModel, getActiveEmbeddingModel, storedVectorCount, type EmbeddingModelRow } from '../db/embedding-models';
import { countDocumentsMissingVectors } from '../db/documents';
import { indexStatus } from '../db/health';
import { openDatabase, type Db } from '../db/open';
import { vectorStores } from '../api/views';
import { heldCopies } from './bit-scan';
import { denseSearchTraced } from './dense';
import { dropIdleBits, maintainQuantization } from './quantization';

/** Lets a test act between the coarse pass's reading of the state and its reading of the bits, as another process may. */
const between = vi.hoisted(() => ({ act: null as null | (() => void) }));
vi.mock('./bit-scan', async (original) => {
  const real = await original<typeof import('./bit-scan')>();
  return {
    ...real,
    nearestByBits: (...args: Parameters<typeof real.nearestByBits>) => {
      const act = between.act;
      between.act = null;
      act?.();
      return real.nearestByBits(...args);
    },
  };
});

const DIM = 32;

function clustered(count: number, seed: number): Float32Array[] {
  const g = gaussian(seeded(seed));
  const offset = Float32Array.from({ length: DIM }, () => g());
  const centres = Array.from({ length: 20 }, () => Float32Array.from({ length: DIM }, () => g()));
  return Array.from({ length: count }, (_, i) => normalise(Float32Array.from({ length: DIM }, (_, d) => 2 * offset[d]! + centres[i % 20]![d]! + 0.5 * g())));
}

describe('two-stage dense search stays consistent with its float table', () => {
  let file: ReturnType<typeof tempDbPath>;
  let db: Db;
  let model: EmbeddingModelRow;
  let vectors: Float32Array[];
  let rowids: number[];

  beforeEach(() => {
    file = tempDbPath('quire-dense-consistency-');
    db = openDatabase(file.file);
    model = syntheticModel(db, 'synthetic-embed', DIM);
    vectors = clustered(600, 11);
    rowids = [];
    for (let d = 0; d < vectors.length / 20; d++) {
      const slice = vectors.slice(d * 20, d * 20 + 20);
      rowids.push(...writeSyntheticDocument(db, '/notes', { relPath: `doc-${d}.txt`, chunks: slice.map((_, i) => `document ${d} chunk ${i}`), vectors: slice }, model));
    }
  });
  afterEach(() => {
    between.act = null;
    db.close();
    file.dispose();
  });

  const tableExists = (name: string) => db.prepare("SELECT 1 FROM sqlite_schema WHERE name = ?").get(name) !== undefined;

  it('a search reads one snapshot: another process re-centring the bits mid-search does not empty its results', async () => {
    await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 });
    db.prepare('UPDATE vector_quantization SET oversampling = 4 WHERE model_id = ?').run(model.id);
    // The CLI, on the same file, takes a new mean between this search's reading the state and its reading the bits.
    between.act = () => {
      const other = openDatabase(file.file);
      try {
        resetBits(other, model, new Float32Array(DIM), vectors.length);
      } finally {
        other.close();
      }
    };
    const r = denseSearchTraced(db, model, vectors[42]!, 10, { quantizeAbove: 100 });
    expect(between.act).toBeNull(); // it ran
    expect(r.method).toBe('quantized');
    expect(r.hits.length).toBe(10);
    expect(r.hits[0]!.rowid).toBe(rowids[42]);
    // The next search sees the reset: exact until the bits are built again.
    expect(denseSearchTraced(db, model, vectors[42]!, 10, { quantizeAbove: 100 }).method).toBe('exact');
  });

  it('a build another process restarted under it is not marked ready with bits missing', async () => {
    let reset = false;
    const state = (await maintainQuantization(db, model, {
      quantizeAbove: 100,
      sample: 8,
      batch: 200,
      onProgress: (p) => {
        // After the first batch is built, another process re-centres: the rows already passed lose their bits.
        if (p.phase === 'bits' && !reset) {
          reset = true;
          resetBits(db, model, getQuantization(db, model.id)!.mean!, vectors.length);
        }
      },
    }))!;
    expect(reset).toBe(true);
    const count = (t: string) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
    if (state.bitsReady) {
      expect(count(bitTableName(model))).toBe(vectors.length);
      expect(count(rescoreTableName(model))).toBe(vectors.length);
    }
    // Either way, the next upkeep leaves them complete and ready.
    const again = (await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 }))!;
    expect(again.bitsReady).toBe(true);
    expect(count(bitTableName(model))).toBe(vectors.length);
    expect(count(rescoreTableName(model))).toBe(vectors.length);
  });

  it('falling back under the threshold (raised, or the collection shrunk) removes the bits and the float copy', async () => {
    await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 });
    expect(tableExists(rescoreTableName(model))).toBe(true);
    const withCopy = vectorStores(db, model.name)[0]!.bytes;
    expect(heldCopies(db).map(([id]) => id)).toEqual([model.id]); // calibration loaded the in-memory bits
    expect(await maintainQuantization(db, model, { quantizeAbove: 10_000, sample: 8 })).toBeNull();
    expect(heldCopies(db)).toEqual([]);
    expect(tableExists(rescoreTableName(model))).toBe(false);
    expect(tableExists(bitTableName(model))).toBe(false);
    expect(getQuantization(db, model.id)).toBeNull();
    // Sizes follow: the copy and the bits were counted while they existed, not after.
    const without = vectorStores(db, model.name)[0]!.bytes;
    expect(without).toBe(vectors.length * DIM * 4);
    expect(withCopy).toBe(vectors.length * (DIM * 4 * 2 + DIM / 8));
    // Lowered again: built again, and searches go in two stages once calibrated.
    const state = (await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 }))!;
    expect(state.bitsReady).toBe(true);
  });

  it('while writes go on, a stale in-memory copy is not reloaded for each search: SQL answers, ranking the same', async () => {
    await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 });
    db.prepare('UPDATE vector_quantization SET oversampling = 4 WHERE model_id = ?').run(model.id);
    const loaded = heldCopies(db)[0]![1];
    const more = clustered(40, 5);
    for (let d = 0; d < 4; d++) {
      // An import writing between searches: each search finds a new version.
      writeSyntheticDocument(db, '/notes', { relPath: `new-${d}.txt`, chunks: more.slice(d * 10, d * 10 + 10).map((_, i) => `new ${d} ${i}`), vectors: more.slice(d * 10, d * 10 + 10) }, model);
      const q = more[d * 10 + 3]!;
      const r = denseSearchTraced(db, model, q, 10, { quantizeAbove: 100 });
      expect(r.method).toBe('quantized');
      expect(r.hits[0]!.distance).toBeCloseTo(0, 5); // the chunk just written is found
      expect(heldCopies(db)[0]![1]).toBe(loaded);
    }
    // Writes over: the second search at the same version reloads the copy, which ranks as SQL did.
    const q = more[5]!;
    const viaSql = denseSearchTraced(db, model, q, 10, { quantizeAbove: 100 }).hits;
    const viaCopy = denseSearchTraced(db, model, q, 10, { quantizeAbove: 100 }).hits;
    expect(heldCopies(db)[0]![1]).toBe(getQuantization(db, model.id)!.bitsVersion);
    expect(viaCopy).toEqual(viaSql);
  });

  it('a write transaction that fails leaves the float table, the bits, the copy and the in-memory bits in step', async () => {
    await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 });
    db.prepare('UPDATE vector_quantization SET oversampling = 4 WHERE model_id = ?').run(model.id);
    const version = getQuantization(db, model.id)!.bitsVersion;
    // Replacing doc-1 with a vector too short for the table: refused mid-transaction, after doc-1's old vectors and bits were deleted.
    expect(() =>
      writeSyntheticDocument(db, '/notes', { relPath: 'doc-1.txt', chunks: ['new', 'broken'], vectors: [vectors[0]!, new Float32Array(DIM - 8)] }, model),
    ).toThrow(/dimension/i);
    const count = (t: string) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
    expect([count(model.tableName), count(bitTableName(model)), count(rescoreTableName(model))]).toEqual([600, 600, 600]);
    expect(getQuantization(db, model.id)!.bitsVersion).toBe(version);
    const r = denseSearchTraced(db, model, vectors[25]!, 10, { quantizeAbove: 100 });
    expect(r.method).toBe('quantized');
    expect(r.hits[0]!.rowid).toBe(rowids[25]);
  });

  it('documents replaced without the count changing still retake the mean and re-measure the factor', async () => {
    const before = (await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 }))!;
    // The same folder re-imported with other content (another geometry): same count, every vector new.
    const other = clustered(600, 99);
    for (let d = 0; d < other.length / 20; d++) {
      const slice = other.slice(d * 20, d * 20 + 20);
      writeSyntheticDocument(db, '/notes', { relPath: `doc-${d}.txt`, chunks: slice.map((_, i) => `replaced ${d} chunk ${i}`), vectors: slice }, model);
    }
    const after = (await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 }))!;
    expect(after.meanVectors).toBe(before.meanVectors);
    const mean = new Float64Array(DIM);
    for (const v of other) v.forEach((x, i) => (mean[i]! += x / other.length));
    after.mean!.forEach((x, i) => expect(x).toBeCloseTo(mean[i]!, 4));
    expect(after.calibratedVersion).not.toBe(before.calibratedVersion);
    expect(after.bitsReady).toBe(true);
    // A few documents replaced change neither.
    writeSyntheticDocument(db, '/notes', { relPath: 'doc-0.txt', chunks: other.slice(0, 20).map((_, i) => `again ${i}`), vectors: vectors.slice(0, 20) }, model);
    const few = (await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 }))!;
    expect(few.calibratedAt).toBe(after.calibratedAt);
    expect([...few.mean!]).toEqual([...after.mean!]);
  });

  it("another model's bits and float copy go when it is no longer the one searched, and when its table is dropped", async () => {
    await maintainQuantization(db, model, { quantizeAbove: 100, sample: 8 });
    const other = syntheticModel(db, 'other-embed', DIM, false);
    for (let d = 0; d < 30; d++) addSyntheticVectors(db, '/notes', `doc-${d}.txt`, other, rowids.slice(d * 20, d * 20 + 20), vectors.slice(d * 20, d * 20 + 20));
    expect(dropIdleBits(db, model.id)).toBe(0);
    activateEmbeddingModel(db, other);
    await maintainQuantization(db, other, { quantizeAbove: 100, sample: 8 });
    expect(heldCopies(db).map(([id]) => id).sort()).toEqual([model.id, other.id].sort());
    expect(dropIdleBits(db, other.id)).toBe(1);
    expect(heldCopies(db).map(([id]) => id)).toEqual([other.id]);
    expect(tableExists(rescoreTableName(model))).toBe(false);
    expect(tableExists(bitTableName(model))).toBe(false);
    expect(getQuantization(db, model.id)).toBeNull();
    expect(tableExists(rescoreTableName(other))).toBe(true);
    // Back to the first model: the second one's companions go with its table when it is dropped.
    activateEmbeddingModel(db, model);
    dropEmbeddingModel(db, other, 'test');
    expect(tableExists(rescoreTableName(other))).toBe(false);
    expect(tableExists(bitTableName(other))).toBe(false);
    expect(db.prepare('SELECT count(*) FROM vector_quantization').pluck().get()).toBe(0);
  });

  it('a collection no calibration query can be made from is recorded as exact, not measured again at every upkeep', async () => {
    // Every vector a near-copy of every other: no sample has 10 ordinary neighbours to compare.
    const dupes = syntheticModel(db, 'dupes-embed', DIM);
    const g = gaussian(seeded(4));
    const base = Float32Array.from({ length: DIM }, () => g());
    for (let d = 0; d < 30; d++) {
      const vs = Array.from({ length: 20 }, () => normalise(base.map((x) => x + 0.05 * g())));
      addSyntheticVectors(db, '/notes', `doc-${d}.txt`, dupes, rowids.slice(d * 20, d * 20 + 20), vs);
    }
    const phases = async () => {
      const seen = new Set<string>();
      const state = (await maintainQuantization(db, dupes, { quantizeAbove: 100, sample: 8, onProgress: (p) => seen.add(p.phase) }))!;
      return { seen: [...seen], state };
    };
    const first = await phases();
    expect(first.state).toMatchObject({ bitsReady: true, oversampling: null, recallAt10: null, calibratedVectors: 600 });
    expect(first.state.calibratedAt).not.toBeNull();
    expect(denseSearchTraced(db, dupes, base, 10, { quantizeAbove: 100 }).method).toBe('exact');
    expect(denseIndexStatus(db, dupes, 600, 100).reason).toMatch(/^exact: no stored vector could serve as a calibration query/);
    expect((await phases()).seen).toEqual([]);
  });

  it('status counts no vector table: it reads the stored counts', () => {
    const seen: string[] = [];
    const prepare = db.prepare.bind(db);
    const spy = vi.spyOn(db, 'prepare').mockImplementation(((sql: string) => {
      seen.push(sql);
      return prepare(sql);
    }) as typeof db.prepare);
    try {
      const st = indexStatus(db, undefined, 100);
      expect(st.activeModel?.vectors).toBe(vectors.length);
      expect(st.models[0]!.vectors).toBe(vectors.length);
    } finally {
      spy.mockRestore();
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((sql) => new RegExp(`\\b${model.tableName}`).test(sql))).toEqual([]);
  });

  it('status counts what countDocumentsMissingVectors and storedVectorCount count, for every model', () => {
    // A second model covering 5 of the 30 documents, a document without vectors, and the second model active.
    const other = syntheticModel(db, 'other-embed', DIM, false);
    for (let d = 0; d < 5; d++) addSyntheticVectors(db, '/notes', `doc-${d}.txt`, other, rowids.slice(d * 20, d * 20 + 20), vectors.slice(d * 20, d * 20 + 20));
    writeSyntheticDocument(db, '/notes', { relPath: 'plain.txt', chunks: ['no vectors', 'at all'] }, null);
    const check = () => {
      const st = indexStatus(db, undefined, 100);
      const active = getActiveEmbeddingModel(db)!;
      expect(st.documents.needsEmbedding).toBe(countDocumentsMissingVectors(db, active.id));
      expect(st.documents.total).toBe(31);
      expect(st.documents.ready).toBe(31 - st.documents.needsEmbedding);
      expect(st.activeModel!.vectors).toBe(storedVectorCount(db, active.id));
      expect(st.models.map((m) => m.vectors)).toEqual([storedVectorCount(db, model.id), storedVectorCount(db, other.id)]);
      return st;
    };
    expect(check().documents.needsEmbedding).toBe(1);
    activateEmbeddingModel(db, other);
    expect(check()).toMatchObject({ documents: { needsEmbedding: 26 }, activeModel: { vectors: 100 } });
  });
});
