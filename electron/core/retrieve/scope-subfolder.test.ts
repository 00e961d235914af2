import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gaussian, normalise, seeded, syntheticModel, writeSyntheticDocument } from '../../../test/support/synthetic-index';
import { tempDbPath } from '../../../test/support/notes';
import type { EmbeddingModelRow } from '../db/embedding-models';
import { ensureCollection } from '../db/collections';
import { openDatabase, type Db } from '../db/open';
import { denseSearchTraced } from './dense';
import { lexicalSearch } from './lexical';
import { maintainQuantization } from './quantization';
import type { ScopeFolder } from './scope';

const DIM = 64;
/** Four places in one folder: `work/` must never take in `workshop/`, and takes in `work/deep/`. */
const PLACES = ['work/', 'workshop/', 'work/deep/', ''] as const;

/** Clustered unit vectors (a shared offset, topics, noise), as real embeddings are: see dense-quantized.test.ts. */
function clustered(count: number, seed: number, topics = 40): Float32Array[] {
  const g = gaussian(seeded(seed));
  const offset = Float32Array.from({ length: DIM }, () => g());
  const centres = Array.from({ length: topics }, () => Float32Array.from({ length: DIM }, () => g()));
  return Array.from({ length: count }, (_, i) => normalise(Float32Array.from({ length: DIM }, (_, d) => 2.5 * offset[d]! + centres[i % topics]![d]! + 0.6 * g())));
}

describe('a scope of a subfolder inside an imported folder', () => {
  let file: ReturnType<typeof tempDbPath>;
  let db: Db;
  let model: EmbeddingModelRow;
  let vectors: Float32Array[];
  let rowids: number[];
  let pathOf: Map<number, string>;
  let notes: string;

  beforeEach(() => {
    file = tempDbPath('quire-subscope-');
    db = openDatabase(file.file);
    model = syntheticModel(db, 'synthetic-embed', DIM);
    vectors = clustered(1600, 11);
    rowids = [];
    pathOf = new Map();
    for (let d = 0; d < vectors.length / 20; d++) {
      const relPath = `${PLACES[d % PLACES.length]}doc-${d}.txt`;
      const slice = vectors.slice(d * 20, d * 20 + 20);
      const ids = writeSyntheticDocument(db, '/notes', { relPath, chunks: slice.map((_, i) => `garden ledger document ${d} chunk ${i}`), vectors: slice }, model);
      for (const id of ids) pathOf.set(id, relPath);
      rowids.push(...ids);
    }
    notes = ensureCollection(db, '/notes').id;
  });
  afterEach(() => {
    db.close();
    file.dispose();
  });

  const under = (rowid: number, folder: string) => folder === '' || pathOf.get(rowid)!.startsWith(`${folder}/`);
  const folders = (path: string): ScopeFolder[] => [{ collectionId: notes, path }];

  it('keyword search returns passages of the subfolder only: work holds work/deep, never workshop', () => {
    const all = lexicalSearch(db, 'garden ledger', 1000);
    expect(all.some((r) => pathOf.get(r.rowid)!.startsWith('workshop/'))).toBe(true);
    // Every chunk holds both words, so a scoped search returns every chunk of its folder, and only those.
    for (const folder of ['work', 'workshop', 'work/deep', '/work/']) {
      const clean = folder.replace(/^\/|\/$/g, '');
      const got = lexicalSearch(db, 'garden ledger', 1000, { folders: folders(folder) });
      expect(got.map((r) => r.rowid).sort((a, b) => a - b), folder).toEqual(rowids.filter((r) => under(r, clean)).sort((a, b) => a - b));
    }
    expect(lexicalSearch(db, 'garden ledger', 1000, { folders: folders('') }).map((r) => r.rowid)).toEqual(all.map((r) => r.rowid));
    // A folder's name is compared as text, not as a pattern: `wor_` (LIKE's one-character wildcard) matches nothing.
    expect(lexicalSearch(db, 'garden ledger', 1000, { folders: folders('wor_') })).toEqual([]);
    expect(lexicalSearch(db, 'garden ledger', 1000, { folders: folders('wor%') })).toEqual([]);
    // A whole collection and its subfolder together: the whole collection.
    expect(lexicalSearch(db, 'garden ledger', 1000, { collectionIds: [notes], folders: folders('work') }).length).toBe(all.length);
  });

  it('dense search, exact and two-stage, finds the nearest inside the subfolder', async () => {
    await maintainQuantization(db, model, { quantizeAbove: 1000, sample: 16 });
    for (const at of [20, 25, 40]) {
      const q = vectors[at]!;
      const distance = (rowid: number) => vectors[rowids.indexOf(rowid)]!.reduce((s, x, j) => s + (x - q[j]!) ** 2, 0);
      const truth = rowids.filter((r) => under(r, 'work')).sort((a, b) => distance(a) - distance(b) || a - b).slice(0, 10);
      for (const [quantizeAbove, method] of [[100_000, 'exact'], [1000, 'quantized']] as const) {
        const r = denseSearchTraced(db, model, q, 10, { quantizeAbove, filter: { folders: folders('work') } });
        expect(r.method).toBe(method);
        expect(r.hits).toHaveLength(10);
        for (const h of r.hits) expect(pathOf.get(h.rowid), `${at} ${method}`).toMatch(/^work\//);
        if (method === 'exact') expect(r.hits.map((h) => h.rowid)).toEqual(truth);
        else expect(r.hits[9]!.distance).toBeLessThan(1.1 * Math.sqrt(distance(truth[9]!)));
      }
      const shop = denseSearchTraced(db, model, q, 10, { quantizeAbove: 1000, filter: { folders: folders('workshop') } });
      expect(shop.hits.length).toBe(10);
      for (const h of shop.hits) expect(pathOf.get(h.rowid)).toMatch(/^workshop\//);
    }
  });
});
