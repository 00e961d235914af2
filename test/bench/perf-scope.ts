/**
 * What a scope costs: keyword and exact dense search over one imported folder of synthetic chunks,
 * unscoped, scoped to the whole folder, and scoped to a subfolder holding a quarter of it
 * (`work/`, beside `workshop/`). Run alone: npx tsx test/bench/perf-scope.ts [--chunks 20000] [--dim 384]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureCollection } from '../../electron/core/db/collections';
import { openDatabase } from '../../electron/core/db/open';
import { denseSearchTraced } from '../../electron/core/retrieve/dense';
import { lexicalSearch } from '../../electron/core/retrieve/lexical';
import type { ScopeFilter } from '../../electron/core/retrieve/scope';
import { gaussian, normalise, seeded, syntheticModel, writeSyntheticDocument } from '../support/synthetic-index';
import { latencyOf } from './perf-lexical';

const { values } = parseArgs({ options: { chunks: { type: 'string', default: '20000' }, dim: { type: 'string', default: '384' } } });
const CHUNKS = Number(values.chunks);
const DIM = Number(values.dim);
const PER_DOC = 20;
const WORDS = ['keys', 'rotation', 'garden', 'ledger', 'sourdough', 'deploy', 'archive', 'backup', 'tulips', 'platform', 'compost', 'invoice'];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-perf-scope-'));
const db = openDatabase(path.join(dir, 'q.db'));
try {
  const model = syntheticModel(db, 'perf-scope', DIM);
  const random = seeded(3);
  const g = gaussian(random);
  const places = ['work/', 'workshop/', 'work/deep/', ''];
  for (let d = 0; d < CHUNKS / PER_DOC; d++) {
    const chunks = Array.from({ length: PER_DOC }, () => Array.from({ length: 12 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' '));
    const vectors = chunks.map(() => normalise(Float32Array.from({ length: DIM }, g)));
    writeSyntheticDocument(db, '/notes', { relPath: `${places[d % places.length]}doc-${d}.md`, chunks, vectors }, model);
  }
  const id = ensureCollection(db, '/notes').id;
  const scopes: Array<[string, ScopeFilter]> = [
    ['unscoped', {}],
    ['whole folder', { collectionIds: [id] }],
    ['work/deep/ (a quarter)', { folders: [{ collectionId: id, path: 'work/deep' }] }],
    ['work/ (a half)', { folders: [{ collectionId: id, path: 'work' }] }],
  ];
  const queries = Array.from({ length: 30 }, (_, i) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 5 + 3) % WORDS.length]}`);
  const vectors = queries.map(() => normalise(Float32Array.from({ length: DIM }, g)));
  for (const [name, filter] of scopes) {
    const lex: number[] = [];
    const dense: number[] = [];
    for (let i = 0; i < queries.length; i++) {
      let t = performance.now();
      lexicalSearch(db, queries[i]!, 50, filter);
      lex.push(performance.now() - t);
      t = performance.now();
      denseSearchTraced(db, model, vectors[i]!, 50, { quantizeAbove: Number.MAX_SAFE_INTEGER, filter });
      dense.push(performance.now() - t);
    }
    console.log(`${name.padEnd(18)} lexical ms ${JSON.stringify(latencyOf(lex))}  dense exact ms ${JSON.stringify(latencyOf(dense))}`);
  }
} finally {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
