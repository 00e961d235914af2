import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bitTableName } from '../electron/core/db/bit-vectors';
import { getActiveEmbeddingModel } from '../electron/core/db/embedding-models';
import { openDatabase } from '../electron/core/db/open';
import { schemaVersion } from '../electron/core/db/migrate';
import { MIGRATIONS } from '../electron/core/db/migrations';
import { createEngine, type Engine } from '../electron/core/engine';
import { denseSearchTraced } from '../electron/core/retrieve/dense';
import { tempDbPath } from './support/notes';
import { gaussian, normalise, seeded, syntheticModel, writeSyntheticDocument } from './support/synthetic-index';

const DIM = 32;

/** A database as Quire wrote it before two-stage search: schema 9, vectors, no bits and no quantization table. */
function oldDatabase(file: string): Float32Array[] {
  const db = openDatabase(file);
  const model = syntheticModel(db, 'synthetic-embed', DIM);
  const g = gaussian(seeded(11));
  const offset = Float32Array.from({ length: DIM }, () => g());
  const centres = Array.from({ length: 30 }, () => Float32Array.from({ length: DIM }, () => g()));
  const vectors = Array.from({ length: 1500 }, (_, i) => normalise(Float32Array.from({ length: DIM }, (_, d) => 2 * offset[d]! + centres[i % 30]![d]! + 0.5 * g())));
  for (let d = 0; d < 75; d++) {
    const slice = vectors.slice(d * 20, d * 20 + 20);
    writeSyntheticDocument(db, '/notes', { relPath: `doc-${d}.txt`, chunks: slice.map((_, i) => `document ${d} chunk ${i}`), vectors: slice }, model);
  }
  db.exec('DROP TABLE vector_quantization');
  // Nor the column migration 0015 adds, which cannot be added twice.
  db.exec('ALTER TABLE conversation_turns DROP COLUMN scope');
  // Nor migration 0017's and 0018's tables.
  db.exec('DROP TABLE keyword_index_churn');
  db.exec('DROP TABLE keyword_index_builds');
  db.pragma('user_version = 9');
  db.close();
  return vectors;
}

describe('a database from before two-stage dense search', () => {
  let file: ReturnType<typeof tempDbPath>;
  let engine: Engine;
  let vectors: Float32Array[];

  beforeEach(() => {
    file = tempDbPath('quire-upgrade-');
    vectors = oldDatabase(file.file);
    engine = createEngine({ dbPath: file.file, parseWorker: null });
  });
  afterEach(async () => {
    await engine.close();
    file.dispose();
  });

  it('upgrades in place: searches stay exact and whole while the bits are built, with progress in status, then go in two stages', async () => {
    engine.settings.set({ denseQuantizeAbove: 1000 });
    const db = openDatabase(file.file);
    try {
      expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
      const model = getActiveEmbeddingModel(db)!;
      const dense = () => engine.indexStatus().activeModel!.dense;
      expect(dense()).toMatchObject({ method: 'exact', bits: null, oversampling: null, reason: 'exact until the sign bits are built' });
      const q = vectors[77]!;
      const before = denseSearchTraced(db, model, q, 10, { quantizeAbove: 1000 });
      expect(before.method).toBe('exact');

      const during: Array<{ phase: string; method: string; same: boolean; built: number | null }> = [];
      const state = await engine.maintainVectors({
        onProgress: (p) => {
          const r = denseSearchTraced(db, model, q, 10, { quantizeAbove: 1000 });
          during.push({ phase: p.phase, method: r.method, same: JSON.stringify(r.hits) === JSON.stringify(before.hits), built: dense().bits?.built ?? null });
        },
      });
      // Every search made meanwhile was exact and gave the same answer.
      expect(during.length).toBeGreaterThan(2);
      expect(during.every((d) => d.method === 'exact' && d.same)).toBe(true);
      // Status reported the build's progress as it went.
      const built = during.filter((d) => d.phase === 'bits').map((d) => d.built!);
      expect(built.at(-1)).toBe(1500);
      expect(built.some((n) => n > 0 && n < 1500)).toBe(true);

      expect(state!.bitsReady).toBe(true);
      expect(db.prepare(`SELECT count(*) FROM ${bitTableName(model)}`).pluck().get()).toBe(1500);
      const after = denseSearchTraced(db, model, q, 10, { quantizeAbove: 1000 });
      expect(after.method).toBe('quantized');
      expect(after.hits[0]!.rowid).toBe(before.hits[0]!.rowid);
      expect(after.hits.filter((h) => before.hits.some((b) => b.rowid === h.rowid)).length).toBeGreaterThanOrEqual(8);

      // Status, the contract's status and the doctor all see it.
      expect(state!.recallAtDepth).not.toBeNull();
      expect(dense()).toMatchObject({ method: 'quantized', oversampling: state!.oversampling, recallAt10: state!.recallAt10, depthOversampling: state!.depthOversampling, calibratedVectors: 1500, bits: { built: 1500, total: 1500, ready: true } });
      expect(dense().reason).toMatch(/^two-stage: sign bits, ×\d+ oversampling, then exact rescoring \(sampled recall@10 0\.9[7-9]\d|1\.000\)/);
      expect((await engine.call('status', {})).activeModel?.dense).toEqual(dense());
      expect(engine.doctor().every((c) => c.ok)).toBe(true);
      // Raising the threshold above the collection's size makes searches exact again.
      engine.settings.set({ denseQuantizeAbove: 5000 });
      expect(dense()).toMatchObject({ method: 'exact', reason: 'exact: 1,500 vectors, under the 5,000 from which search goes in two stages' });
    } finally {
      db.close();
    }
  });

  it('below the threshold (the default 20,000) builds nothing', async () => {
    expect(await engine.maintainVectors()).toBeNull();
    expect(engine.indexStatus().activeModel!.dense).toMatchObject({ method: 'exact', bits: null, quantizeAbove: 20_000 });
  });
});
