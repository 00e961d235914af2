/**
 * Dense search at scale: query latency of lexical, dense exact, dense two-stage and hybrid search at
 * each size, recall@10 of two-stage against exact search with each model's calibrated oversampling
 * on two vector sets (R: real-model-like; H: harder), and ask's own time (everything but the model)
 * at the largest size. Chunks are recombined from sentences of ../shared/corpora (generated text
 * when it is absent, and it says so) and written through the same repositories an import uses, so
 * FTS, sections, vectors and bits are all real. Vectors come from dense-vector-sets.ts.
 *
 *   npm run perf:dense [-- --chunks 10000,100000] [--dim 768] [--queries 80] [--corpora DIR]
 *
 * prints one JSON document (the shape of runDenseBench's result); progress goes to stderr.
 * `runDenseBench` is exported for the whole-app benchmark (perf.ts) to include.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ask } from '../../electron/core/answer/ask';
import { getQuantization } from '../../electron/core/db/bit-vectors';
import { ensureEmbeddingModel, type EmbeddingModelRow } from '../../electron/core/db/embedding-models';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { Embedder } from '../../electron/core/ollama/embedder';
import { OllamaGateway } from '../../electron/core/ollama/gateway';
import { coarseCandidates, denseSearchTraced, rescore, rescoreSql } from '../../electron/core/retrieve/dense';
import { calibrateOversampling, DEPTH_FACTORS, maintainQuantization, OVERSAMPLING_FACTORS } from '../../electron/core/retrieve/quantization';
import { search } from '../../electron/core/retrieve/search';
import { packSigns, rescoreTableName } from '../../electron/core/db/bit-vectors';
import { SettingsStore } from '../../electron/core/settings';
import { startStandin } from '../support/ollama-standin/server';
import { activateEmbeddingModel } from '../../electron/core/db/embedding-models';
import { addSyntheticVectors, seeded, syntheticModel, writeSyntheticDocument } from '../support/synthetic-index';
import { buildVectorSets, type VectorSets } from './dense-vector-sets';

const REPO = path.resolve(import.meta.dirname, '../..');
const CORPORA = path.resolve(REPO, '../shared/corpora');
const QUESTIONS = path.resolve(import.meta.dirname, 'questions');
/** What search() asks of each list before fusion (shared/search.ts LIST_DEPTH). */
const DEPTH = 50;
const CHUNKS_PER_DOCUMENT = 10;

export interface Latency {
  p50: number;
  p95: number;
}
export interface QueryLatencies {
  lexical: Latency;
  denseExact: Latency;
  denseQuantized: Latency;
  hybrid: Latency;
}
export interface Geometry {
  /** Mean cosine of a query to random chunks, to its nearest chunk, to its 10th nearest. */
  random: number;
  top1: number;
  top10: number;
}
export interface SetResult {
  /** recall@10 of two-stage vs exact search, the questions as queries, at the calibrated factor. */
  recallAt10: number;
  /** The factor the table calibrated for itself (null: none reached 0.97; searches stay exact). */
  oversampling: number | null;
  /** The calibration's own sampled recall (stored vectors as queries). */
  calibratedRecallAt10: number | null;
  /** The factor calibrated for searches DEPTH deep, the candidates it gives there, and recall@DEPTH of those searches (the questions as queries). */
  depthOversampling: number | null;
  candidatesAtDepth: number;
  recallAt50: number;
  /** Both at DEPTH (the hybrid lists' depth), as the app searches. */
  denseExactP50: number;
  denseQuantizedP50: number;
  geometry: Geometry;
}
export interface DenseBenchResult {
  query: Record<string, QueryLatencies>;
  recallAt10: number;
  oversampling: number | null;
  hardSet: { recallAt10: number; oversampling: number | null; denseQuantizedP50: number };
  askOwnMs: number;
  corpus: 'shared' | 'generated';
  geometry: { R: Geometry; H: Geometry };
  /** Everything else measured: per size and set, the rescoring sources compared, build times. */
  detail: Record<string, unknown>;
}

export async function runDenseBench(opts: { chunks: number[]; dim: number; log: (s: string) => void; queries?: number; corpora?: string }): Promise<DenseBenchResult> {
  const { dim, log } = opts;
  const sizes = [...opts.chunks].sort((a, b) => a - b);
  const total = sizes.at(-1)!;
  const { texts, corpus } = chunkTexts(total, log, opts.corpora);
  const questions = loadQuestions(opts.queries ?? 80);
  log(`${questions.length} questions from ${path.relative(REPO, QUESTIONS)} as queries`);
  const sets = buildVectorSets(texts, dim, log);
  const queryR = questions.map((q, i) => sets.r(q, 5_000_000 + i));
  const queryH = questions.map((q) => sets.h(q));

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-perf-dense-'));
  const ollama = await startStandin();
  const gateway = new OllamaGateway({ host: ollama.url });
  const db = openDatabase(path.join(tmp, 'quire.db'));
  const detail: Record<string, unknown> = {};
  const query: Record<string, QueryLatencies> = {};
  let last: { R: SetResult; H: SetResult } | null = null;
  let askOwnMs = Number.NaN;
  try {
    // Set R is stored as the stand-in's embedding model, so hybrid search and ask take the real
    // path (the query embedded over HTTP by the stand-in: its own hashed vector, which costs the
    // same to search with); set H is a second model's table, searched with its own query vectors.
    if (dim !== 768) ollama.setDimension('embeddinggemma:latest', dim);
    const embedder = await Embedder.resolve(gateway, 'embeddinggemma', { fresh: true });
    const probe = await embedder.embedQuery('dimension check');
    if (probe.length !== dim) throw new Error(`the stand-in gives ${probe.length} dimensions, not ${dim}`);
    const modelR = ensureEmbeddingModel(db, embedder.identity!);
    activateEmbeddingModel(db, modelR);
    const modelH = syntheticModel(db, 'bench-set-h', dim, false);

    let written = 0;
    for (const size of sizes) {
      const t0 = performance.now();
      written = writeChunks(db, texts, written, size, sets, modelR, modelH);
      const writeS = (performance.now() - t0) / 1000;
      log(`${size} chunks written (${writeS.toFixed(1)} s)`);
      // The bench measures two stages at every size; the app starts them at the setting (20,000).
      const upkeep: Record<string, number> = {};
      for (const [name, model] of [['R', modelR], ['H', modelH]] as const) {
        const t = performance.now();
        await maintainQuantization(db, model, { quantizeAbove: 100 });
        upkeep[name] = Math.round(performance.now() - t);
      }
      log(`bits built and calibrated: R ${upkeep.R} ms, H ${upkeep.H} ms`);
      const R = measureSet(db, modelR, queryR, log, `R@${size}`);
      const H = measureSet(db, modelH, queryH, log, `H@${size}`);
      // How the calibration (stored vectors set off the collection) tracks the questions, factor by factor.
      const byFactor: Record<string, unknown> = {};
      for (const [name, model, queries] of [['R', modelR, queryR], ['H', modelH, queryH]] as const) {
        const c = await calibrateOversampling(db, model, getQuantization(db, model.id)!);
        byFactor[name] = {
          calibration: c?.byFactor ?? null,
          questions: questionRecallByFactor(db, model, queries, 10, OVERSAMPLING_FACTORS),
          // The same at the hybrid lists' depth, by depth factor (candidates = factor × DEPTH).
          calibrationAtDepth: c?.depth?.byFactor ?? null,
          questionsAtDepth: questionRecallByFactor(db, model, queries, DEPTH, DEPTH_FACTORS),
        };
      }
      log(`recall@10 by factor: ${JSON.stringify(byFactor)}`);
      const lexical = await timeAll(questions, (q) => search(db, q, { mode: 'lexical', gateway: null }));
      // Hybrid as the app runs it: its method (exact or two-stage) chosen by the setting's threshold.
      const hybridMs = await timeAll(questions, (q) => search(db, q, { mode: 'hybrid', gateway }));
      const embedMs = await timeAll(questions, (q) => embedder.embedQuery(q));
      const quantizeAbove = new SettingsStore(db).get('denseQuantizeAbove');
      query[String(size)] = {
        lexical: stats(lexical),
        denseExact: stats(R.exactMs),
        denseQuantized: stats(R.quantizedMs),
        hybrid: stats(hybridMs),
      };
      detail[String(size)] = {
        writeSeconds: Math.round(writeS * 10) / 10,
        upkeepMs: upkeep,
        hybridDenseMethod: size >= quantizeAbove ? 'quantized' : 'exact',
        queryEmbedOverHttp: stats(embedMs),
        R: R.summary,
        H: H.summary,
        rescoreSource: compareRescoreSources(db, modelR, queryR, size),
        recallByFactor: byFactor,
      };
      last = { R: R.summary, H: H.summary };
      if (size === total) askOwnMs = await askOwnTime(db, gateway, questions.slice(0, 30), log);
      log(JSON.stringify({ size, ...query[String(size)], R: R.summary, H: H.summary }));
    }
  } finally {
    db.close();
    await ollama.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return {
    query,
    recallAt10: last!.R.recallAt10,
    oversampling: last!.R.oversampling,
    hardSet: { recallAt10: last!.H.recallAt10, oversampling: last!.H.oversampling, denseQuantizedP50: last!.H.denseQuantizedP50 },
    askOwnMs,
    corpus,
    geometry: { R: last!.R.geometry, H: last!.H.geometry },
    detail,
  };
}

export function writeChunks(db: Db, texts: string[], from: number, to: number, sets: VectorSets, modelR: EmbeddingModelRow, modelH: EmbeddingModelRow): number {
  for (let start = from; start < to; start += CHUNKS_PER_DOCUMENT) {
    const chunks = texts.slice(start, Math.min(to, start + CHUNKS_PER_DOCUMENT));
    const relPath = `bench/doc-${start / CHUNKS_PER_DOCUMENT}.md`;
    const rowids = writeSyntheticDocument(db, '/bench/notes', { relPath, chunks, vectors: chunks.map((t, i) => sets.r(t, start + i)) }, modelR);
    addSyntheticVectors(db, '/bench/notes', relPath, modelH, rowids, chunks.map((t) => sets.h(t)));
  }
  return to;
}

interface Measured {
  exactMs: number[];
  quantizedMs: number[];
  summary: SetResult;
}

export function measureSet(db: Db, model: EmbeddingModelRow, queries: Float32Array[], log: (s: string) => void, label: string): Measured {
  const state = getQuantization(db, model.id)!;
  const exactMs: number[] = [];
  const quantizedMs: number[] = [];
  let recall = 0;
  let recallDeep = 0;
  let deepK = 0;
  const cos = { random: 0, top1: 0, top10: 0 };
  const random = seeded(31);
  const maxRowid = db.prepare('SELECT max(rowid) FROM chunks').pluck().get() as number;
  const vectorOf = db.prepare(`SELECT embedding FROM ${model.tableName} WHERE rowid = ?`).pluck();
  const factor = state.oversampling ?? 128;
  for (const q of queries) {
    let t = performance.now();
    const exact = denseSearchTraced(db, model, q, DEPTH, { method: 'exact' });
    exactMs.push(performance.now() - t);
    // DEPTH deep, as hybrid search asks: the candidates its calibrated depth factor gives.
    t = performance.now();
    const deep = denseSearchTraced(db, model, q, DEPTH, { method: 'quantized', ...(state.oversampling === null ? { oversampling: factor } : {}) });
    quantizedMs.push(performance.now() - t);
    const deepTruth = new Set(exact.hits.map((h) => h.rowid));
    recallDeep += deep.hits.filter((h) => deepTruth.has(h.rowid)).length / Math.max(1, deepTruth.size);
    deepK = deep.k;
    // recall@10: what a 10-result two-stage search finds of the exact top 10.
    const ten = denseSearchTraced(db, model, q, 10, { method: 'quantized', oversampling: factor });
    const truth = new Set(exact.hits.slice(0, 10).map((h) => h.rowid));
    recall += ten.hits.filter((h) => truth.has(h.rowid)).length / Math.max(1, truth.size);
    cos.top1 += exact.hits[0]!.score;
    cos.top10 += exact.hits[9]!.score;
    let r = 0;
    for (let i = 0; i < 20; i++) {
      const blob = vectorOf.get(BigInt(1 + Math.floor(random() * maxRowid))) as Buffer | undefined;
      if (!blob) continue;
      const v = new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
      r += v.reduce((s, x, j) => s + x * q[j]!, 0) / 20;
    }
    cos.random += r;
  }
  const n = queries.length;
  const summary: SetResult = {
    recallAt10: round(recall / n, 3),
    oversampling: state.oversampling,
    calibratedRecallAt10: state.recallAt10 === null ? null : round(state.recallAt10, 3),
    depthOversampling: state.depthOversampling,
    candidatesAtDepth: deepK,
    recallAt50: round(recallDeep / n, 3),
    denseExactP50: stats(exactMs).p50,
    denseQuantizedP50: stats(quantizedMs).p50,
    geometry: { random: round(cos.random / n, 2), top1: round(cos.top1 / n, 2), top10: round(cos.top10 / n, 2) },
  };
  log(`${label}: ${JSON.stringify(summary)}${state.oversampling === null ? ' (no factor reached 0.97: measured at ×128)' : ''}`);
  return { exactMs, quantizedMs, summary };
}

/**
 * recall@depth of two-stage against exact search at each factor (factor × depth candidates), the
 * questions as queries: depth 10 is what the top-10 factor is calibrated for, DEPTH (the hybrid
 * lists' depth) what the depth factor is.
 */
export function questionRecallByFactor(db: Db, model: EmbeddingModelRow, queries: Float32Array[], depth: number, factors: readonly number[]): Record<number, number> {
  const state = getQuantization(db, model.id)!;
  const sums = new Map<number, number>(factors.map((f) => [f, 0]));
  for (const q of queries) {
    const buf = Buffer.from(q.buffer, q.byteOffset, q.byteLength);
    const truth = new Set(denseSearchTraced(db, model, q, depth, { method: 'exact' }).hits.map((h) => h.rowid));
    const coarse = coarseCandidates(db, model, packSigns(q, state.mean), Math.max(...factors) * depth);
    const distance = new Map(rescore(db, model, buf, coarse, coarse.length).map((r) => [r.rowid, r.distance]));
    for (const f of factors) {
      const found = coarse.slice(0, f * depth).sort((a, b) => distance.get(a)! - distance.get(b)!).slice(0, depth);
      sums.set(f, sums.get(f)! + found.filter((r) => truth.has(r)).length / Math.max(1, truth.size));
    }
  }
  return Object.fromEntries(factors.map((f) => [f, round(sums.get(f)! / queries.length, 3)]));
}

/**
 * The rescoring stage's two possible sources for the candidates' float vectors, on the same
 * candidates: the plain rowid table Quire keeps for it, and the model's vec0 float table read by
 * rowid (which would spare the second copy).
 */
function compareRescoreSources(db: Db, model: EmbeddingModelRow, queries: Float32Array[], size: number): Record<string, unknown> {
  const state = getQuantization(db, model.id)!;
  const factor = state.oversampling ?? 128;
  const vec0 = db.prepare(rescoreSql(model.tableName));
  const plain = db.prepare(rescoreSql(rescoreTableName(model)));
  const times = { vec0: [] as number[], plain: [] as number[] };
  for (const q of queries) {
    const candidates = JSON.stringify(coarseCandidates(db, model, packSigns(q, state.mean), Math.min(4096, factor * DEPTH)));
    const query = Buffer.from(q.buffer, q.byteOffset, q.byteLength);
    for (const [name, s] of [['vec0', vec0], ['plain', plain]] as const) {
      const t = performance.now();
      s.all({ query, candidates, limit: DEPTH });
      times[name].push(performance.now() - t);
    }
  }
  return { candidates: Math.min(4096, factor * DEPTH), vec0ByRowid: stats(times.vec0), plainTable: stats(times.plain), size };
}

/**
 * ask's own time: its whole run minus the model's (the answer's generation, and every call to
 * Ollama the gateway makes: the query's embedding, model lookups), with the stand-in answering at
 * zero latency. What remains is Quire's: storing the run, retrieval, fitting the prompt, checking citations.
 */
async function askOwnTime(db: Db, gateway: OllamaGateway, questions: string[], log: (s: string) => void): Promise<number> {
  let inOllama = 0;
  const timed = timeGateway(gateway, (ms) => (inOllama += ms));
  const own: number[] = [];
  const retrieval: number[] = [];
  for (const q of [questions[0]!, ...questions]) {
    inOllama = 0;
    let total = 0;
    let generate = 0;
    let retrieve = 0;
    for await (const e of ask(db, timed, q, { chatModel: 'llama3.2' })) {
      if (e.type === 'done' || e.type === 'error') {
        total = e.result.latencyMs.total;
        generate = e.result.latencyMs.generate;
        retrieve = e.result.latencyMs.retrieve;
        if (e.type === 'error') log(`ask failed: ${e.error.message}`);
      }
    }
    own.push(Math.max(0, total - generate - inOllama));
    // Retrieval's share (its query embedding is most of inOllama once the model lookups are cached).
    retrieval.push(Math.max(0, retrieve - inOllama));
  }
  own.shift(); // the first warms the model caches
  retrieval.shift();
  const s = stats(own);
  log(`ask own time: p50 ${s.p50} ms, p95 ${s.p95} ms over ${own.length} questions; of it retrieval (search without the query's embedding) p50 ${stats(retrieval).p50} ms`);
  return s.p50;
}

/**
 * The gateway with every promise-returning call but the chat stream timed (embedding, model
 * lookups): the time this process sat idle waiting for it. Not the call's whole duration: search
 * runs keyword search while the query's embedding is computed, and that work is Quire's own (the
 * in-process stand-in's handling counts as Quire's too, so the figure errs high).
 */
function timeGateway(gateway: OllamaGateway, add: (ms: number) => void): OllamaGateway {
  return new Proxy(gateway, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      if (prop === 'withOptions') return (...args: unknown[]) => timeGateway((value as (...a: unknown[]) => OllamaGateway).apply(target, args), add);
      if (prop === 'client') return value.bind(target);
      return (...args: unknown[]) => {
        const loop = performance.eventLoopUtilization();
        const out = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (out instanceof Promise) return out.finally(() => add(performance.eventLoopUtilization(loop).idle));
        return out;
      };
    },
  });
}

async function timeAll<T>(items: readonly T[], run: (item: T) => unknown): Promise<number[]> {
  await run(items[0]!); // warm statement caches
  const out: number[] = [];
  for (const item of items) {
    const t = performance.now();
    await run(item);
    out.push(performance.now() - t);
  }
  return out;
}

function stats(xs: number[]): Latency {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
  return { p50: round(at(0.5), 1), p95: round(at(0.95), 1) };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The question sets' questions (answerable or not: all are things people ask), in a fixed order. */
export function loadQuestions(max: number): string[] {
  const files = ['tldr.json', 'rust-book.json', 'held-out/tldr.json', 'held-out/rust-book.json'].map((f) => path.join(QUESTIONS, f)).filter((f) => fs.existsSync(f));
  const all = files.flatMap((f) => (JSON.parse(fs.readFileSync(f, 'utf8')) as Array<{ question: string }>).map((q) => q.question));
  // Interleave the sets so a short run still has both kinds.
  const stride = Math.max(1, Math.floor(all.length / max));
  return all.filter((_, i) => i % stride === 0).slice(0, max);
}

/**
 * `count` chunks, each a run of 3–7 consecutive sentences from one file of the corpora, starting
 * anywhere: recombined so that 100k chunks come from a few thousand files, each still about one topic.
 */
export function chunkTexts(count: number, log: (s: string) => void, corpora = CORPORA): { texts: string[]; corpus: 'shared' | 'generated' } {
  const files = fs.existsSync(corpora) ? listMarkdown(corpora) : [];
  const documents = files.map((f) => sentences(fs.readFileSync(f, 'utf8'))).filter((s) => s.length >= 3);
  const corpus = documents.length > 0 ? 'shared' : 'generated';
  if (corpus === 'generated') {
    log(`${corpora} not found: generating text instead (a seeded vocabulary in topics). Results on generated text are not comparable with the shared corpora.`);
    documents.push(...generatedDocuments(3000));
  } else {
    log(`corpus: ${documents.length} files of ${corpora}`);
  }
  const random = seeded(41);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const doc = documents[Math.floor(random() * documents.length)]!;
    const length = 3 + Math.floor(random() * 5);
    const start = Math.floor(random() * Math.max(1, doc.length - length + 1));
    texts.push(doc.slice(start, start + length).join('\n'));
  }
  return { texts, corpus };
}

function listMarkdown(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listMarkdown(p));
    else if (/\.(md|txt)$/i.test(e.name) && !/^(LICENSE|COPYRIGHT)/i.test(e.name)) out.push(p);
  }
  return out.sort();
}

function sentences(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/^\s*(#+|>|-|\*|\d+\.)\s*/, '').trim())
    .filter((l) => l.length > 0 && !l.startsWith('```'))
    .flatMap((l) => l.split(/(?<=[.!?])\s+(?=[A-Z`])/));
}

function generatedDocuments(n: number): string[][] {
  const random = seeded(43);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qui', 'dor', 'fen', 'gal', 'hun'];
  const word = () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => syllables[Math.floor(random() * syllables.length)]).join('');
  const common = Array.from({ length: 400 }, word);
  const topics = Array.from({ length: 200 }, () => Array.from({ length: 40 }, word));
  return Array.from({ length: n }, () => {
    const topic = topics[Math.floor(random() * topics.length)]!;
    return Array.from({ length: 12 }, () =>
      Array.from({ length: 8 + Math.floor(random() * 8) }, () => (random() < 0.4 ? topic : common)[Math.floor(random() * (random() < 0.4 ? 40 : 400))] ?? common[0]).join(' ') + '.',
    );
  });
}

// Runnable: npm run perf:dense [-- --chunks 10000,100000 --dim 768 --queries 80 --corpora DIR]
if (process.argv[1] && import.meta.url === `file://${path.resolve(process.argv[1])}`) {
  const { values } = parseArgs({
    options: { chunks: { type: 'string', default: '10000,100000' }, dim: { type: 'string', default: '768' }, queries: { type: 'string', default: '80' }, corpora: { type: 'string' } },
  });
  const result = await runDenseBench({
    chunks: values.chunks.split(',').map(Number),
    dim: Number(values.dim),
    queries: Number(values.queries),
    ...(values.corpora ? { corpora: values.corpora } : {}),
    log: (s) => process.stderr.write(`${s}\n`),
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
