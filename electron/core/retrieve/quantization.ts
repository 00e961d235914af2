import {
  buildBitsBatch,
  dropBits,
  getQuantization,
  markBitsReadyIfComplete,
  packSigns,
  quantizable,
  resetBits,
  saveCalibration,
  type QuantizationState,
} from '../db/bit-vectors';
import { listEmbeddingModels, storedVectorCount, type EmbeddingModelRow } from '../db/embedding-models';
import type { Db } from '../db/open';
import { stmt } from '../db/statements';
import { releaseBits } from './bit-scan';
import { coarseCandidates, MAX_CANDIDATES, rescore } from './dense';
import { LIST_DEPTH } from '../../../shared/search';

/**
 * Keeping each model's bits and oversampling factor true to its collection. How much binary
 * quantization loses depends on the geometry of the model's vectors, so the factor is measured,
 * never assumed: stored vectors serve as queries, their exact top 10 is compared with what the
 * two-stage search finds at each factor, and the smallest factor reaching the recall wanted is kept.
 */

export const OVERSAMPLING_FACTORS = [4, 8, 16, 32, 64, 128] as const;
/** Sampled recall@10 a factor must reach; below it at ×128, searches of that table stay exact. */
export const RECALL_WANTED = 0.97;
/** Stored vectors used as calibration queries: each costs one exact KNN, so a few dozen. */
export const CALIBRATION_SAMPLE = 48;
/** The mean is retaken, and every bit rebuilt, once the collection has grown or shrunk by half. */
const MEAN_DRIFT = 1.5;
/** The factor is measured again once the collection has grown or shrunk by a quarter. */
const CALIBRATION_DRIFT = 1.25;
/** Writes since the mean (a replaced vector is two: its delete and its insert) that retake it: half the collection replaced. */
const MEAN_CHURN = 1;
/** Writes since calibration that measure the factor again: a quarter of the collection replaced. */
const CALIBRATION_CHURN = 0.5;
/** Cosine 0.9 as L2 distance between unit vectors: closer than this to a query's source is a near-copy of it. */
const NEAR_COPY_DISTANCE = Math.sqrt(2 * (1 - 0.9));
/** How many near-copies a calibration query may have and still be measured (more: skipped). */
const NEAR_COPY_ROOM = 40;
/** Built bits are dropped only once the collection is this share of the threshold or less. */
const KEEP_UNDER_THRESHOLD = 0.9;
/** Rows per write transaction while building bits: short enough that imports and searches interleave. */
const BUILD_BATCH = 1000;

export interface QuantizationProgress {
  phase: 'mean' | 'bits' | 'calibrating';
  done: number;
  total: number;
}

export interface MaintainOptions {
  /** The denseQuantizeAbove setting: below it nothing is built (searches are exact anyway). */
  quantizeAbove: number;
  onProgress?: (p: QuantizationProgress) => void;
  signal?: AbortSignal;
  /** Tests: calibration queries and rows per build transaction. */
  sample?: number;
  batch?: number;
}

/**
 * Brings the model's bits and calibration up to date: takes the mean and builds the bits on first
 * need (a database from before two-stage search upgrades here, batch by batch, exact search until
 * done), rebuilds them when the collection has drifted far from the mean's, and recalibrates as it
 * grows. Yields to the event loop between batches. Returns the state searches will see.
 */
export async function maintainQuantization(db: Db, model: EmbeddingModelRow, options: MaintainOptions): Promise<QuantizationState | null> {
  if (!quantizable(model)) return null;
  const vectors = storedVectorCount(db, model.id);
  let state = getQuantization(db, model.id);
  if (vectors < options.quantizeAbove) {
    // Bits already built are kept a little under the threshold: a collection hovering at it (a
    // watched folder gaining and losing files) would otherwise build, calibrate and drop them over
    // and over. denseMethod still searches exactly under the threshold.
    if (state && vectors >= KEEP_UNDER_THRESHOLD * options.quantizeAbove) return state;
    // Further under, searches are exact: the bits and the float copy (as large as the vec0 table
    // itself) are only storage then. Built again if the table grows past it.
    if (state) db.transaction(() => dropBits(db, model)).immediate();
    releaseBits(db, model.id);
    return null;
  }
  if (!state?.mean || drifted(vectors, state.meanVectors, MEAN_DRIFT) || churned(state, state.meanVersion, state.meanVectors, MEAN_CHURN)) {
    const mean = await meanVector(db, model, options);
    if (options.signal?.aborted) return getQuantization(db, model.id);
    resetBits(db, model, mean, vectors);
    state = getQuantization(db, model.id)!;
  }
  if (!state.bitsReady) {
    // A pass that ends incomplete (bits reset behind it by another process) is followed by another:
    // batches skip rows that have bits, so it only fills the gaps.
    let ready = false;
    for (let pass = 0; pass < 3 && !ready; pass++) {
      await buildBits(db, model, vectors, options);
      if (options.signal?.aborted) return getQuantization(db, model.id);
      ready = markBitsReadyIfComplete(db, model);
    }
    state = getQuantization(db, model.id);
    if (!state?.bitsReady) return state;
  }
  // A calibration from before the depth factor existed (migration 0012) is measured again; its
  // top-10 factor serves every depth meanwhile, so searches stay two-stage.
  const depthUnmeasured = state.calibratedAt !== null && state.oversampling !== null && state.recallAtDepth === null;
  if (state.calibratedAt === null || depthUnmeasured || drifted(vectors, state.calibratedVectors, CALIBRATION_DRIFT) || churned(state, state.calibratedVersion, state.calibratedVectors, CALIBRATION_CHURN)) {
    const c = await calibrateOversampling(db, model, state, options);
    if (options.signal?.aborted) return state;
    // Null: no stored vector made a usable query (each had too many near-copies), so nothing was
    // measured and searches stay exact. Recorded all the same, or every upkeep (after each import)
    // would run the sample's exact searches again; the collection changing measures it again.
    saveCalibration(db, model.id, {
      oversampling: c?.oversampling ?? null,
      recallAt10: c?.recallAt10 ?? null,
      depthOversampling: c?.depth?.oversampling ?? null,
      // Measured even when no query had LIST_DEPTH ordinary neighbours (0: nothing reached), so
      // the next upkeep does not take it for a calibration from before the depth factor.
      recallAtDepth: c ? (c.depth?.recall ?? 0) : null,
      vectors,
      version: state.bitsVersion,
    });
    state = getQuantization(db, model.id)!;
  }
  return state;
}

/**
 * Drops the bits and float copies of every model but the active one: only the active model's
 * table is searched, and the copy doubles a model's vector storage. Switching back rebuilds them
 * in the background (searches exact meanwhile).
 */
export function dropIdleBits(db: Db, activeId: number | null): number {
  const idle = listEmbeddingModels(db).filter((m) => m.id !== activeId && getQuantization(db, m.id) !== null);
  for (const m of idle) {
    db.transaction(() => dropBits(db, m)).immediate();
    releaseBits(db, m.id);
  }
  return idle.length;
}

function drifted(now: number, then: number, ratio: number): boolean {
  return then <= 0 || now >= then * ratio || now * ratio <= then;
}

/**
 * Writes of bits (inserts and deletes, one each) since `version`, against the vectors counted
 * then: a collection whose documents were replaced keeps its size but not its geometry.
 */
function churned(state: QuantizationState, version: number | null, vectors: number, ratio: number): boolean {
  return version !== null && vectors > 0 && state.bitsVersion - version >= vectors * ratio;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The mean of the model's stored vectors, read in windows of chunk rowids (never one long-held cursor). */
async function meanVector(db: Db, model: EmbeddingModelRow, options: MaintainOptions): Promise<Float32Array> {
  const sum = new Float64Array(model.dimension);
  let n = 0;
  let after = 0;
  const batch = options.batch ?? BUILD_BATCH;
  const total = storedVectorCount(db, model.id);
  const window = stmt(db, 'SELECT max(rowid) FROM (SELECT rowid FROM chunks WHERE rowid > ? ORDER BY rowid LIMIT ?)').pluck();
  const read = stmt(db, `SELECT v.embedding FROM chunks c JOIN ${model.tableName} v ON v.rowid = c.rowid WHERE c.rowid > ? AND c.rowid <= ?`).pluck();
  for (;;) {
    const last = window.get(after, batch) as number | null;
    if (last === null || options.signal?.aborted) break;
    for (const blob of read.all(after, last) as Buffer[]) {
      const v = new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
      for (let i = 0; i < v.length; i++) sum[i]! += v[i]!;
      n++;
    }
    after = last;
    options.onProgress?.({ phase: 'mean', done: n, total });
    await tick();
  }
  return Float32Array.from(sum, (s) => (n > 0 ? s / n : 0));
}

async function buildBits(db: Db, model: EmbeddingModelRow, total: number, options: MaintainOptions): Promise<void> {
  let after = 0;
  let done = getQuantization(db, model.id)?.bitsBuilt ?? 0;
  for (;;) {
    if (options.signal?.aborted) return;
    const { last, built } = buildBitsBatch(db, model, after, options.batch ?? BUILD_BATCH);
    if (last === null) return;
    after = last;
    done += built;
    options.onProgress?.({ phase: 'bits', done, total });
    await tick();
  }
}

export interface Calibration {
  /** The smallest factor reaching RECALL_WANTED; null when none does (the table stays exact). */
  oversampling: number | null;
  /** Recall@10 at that factor, or the best any factor reached. */
  recallAt10: number;
  /** Mean recall@10 at every factor tried. */
  byFactor: Record<number, number>;
  /** The same for a search LIST_DEPTH deep (factor × LIST_DEPTH candidates); null when no query had that many ordinary neighbours. */
  depth: { oversampling: number | null; recall: number; byFactor: Record<number, number> } | null;
  queries: number;
}

/** Factors tried at LIST_DEPTH: those whose candidates stay within the coarse pass's bound. */
export const DEPTH_FACTORS = OVERSAMPLING_FACTORS.filter((f) => f * LIST_DEPTH <= MAX_CANDIDATES);

/**
 * Measures recall@10 of two-stage search against exact search for every factor, with queries made
 * from stored vectors (a spread, deterministic sample). A stored vector as it is flatters the bits:
 * it and its near-copies (overlapping chunks) agree bit for bit, so on the benchmark's harder set at
 * 100k chunks it reached 0.98 at ×4 where the question sets got 0.77. A question sits off the
 * collection, at cosine ≈ 0.7 from its best passage (measured top-1 0.65–0.75), so each query is
 * its vector plus a random direction of the same length (cosine 1/√2 to it), and the source's
 * near-copies are left out of both lists (see perf-dense's detail for how this tracks questions).
 * One coarse pass at the largest k serves every factor: its first f × 10 candidates are what a
 * search with factor f rescores. The same queries measure the factor for searches LIST_DEPTH deep
 * (hybrid's lists): recall@LIST_DEPTH with f × LIST_DEPTH candidates.
 */
export async function calibrateOversampling(
  db: Db,
  model: EmbeddingModelRow,
  state: QuantizationState,
  options: { sample?: number; signal?: AbortSignal; onProgress?: (p: QuantizationProgress) => void; wanted?: number } = {},
): Promise<Calibration | null> {
  if (!state.mean) return null;
  const wanted = options.wanted ?? RECALL_WANTED;
  const size = options.sample ?? CALIBRATION_SAMPLE;
  // Knuth's multiplicative hash spreads the sample over the whole collection, the same one each time.
  const sample = stmt(
    db,
    `SELECT c.rowid FROM chunks c JOIN document_embeddings e ON e.document_id = c.document_id AND e.model_id = ?
      ORDER BY (c.rowid * 2654435761) % 4294967296 LIMIT ?`,
  )
    .pluck()
    .all(model.id, size) as number[];
  if (sample.length === 0) return null;
  const vectorOf = stmt(db, `SELECT embedding FROM ${model.tableName} WHERE rowid = ?`).pluck();
  const exactKnn = stmt(db, `SELECT rowid FROM ${model.tableName} WHERE embedding MATCH ? AND k = ? ORDER BY distance`).pluck();
  const maxFactor = OVERSAMPLING_FACTORS.at(-1)!;
  const sums = new Map<number, number>(OVERSAMPLING_FACTORS.map((f) => [f, 0]));
  const deepSums = new Map<number, number>(DEPTH_FACTORS.map((f) => [f, 0]));
  const reach = Math.min(MAX_CANDIDATES, Math.max(maxFactor * 10, DEPTH_FACTORS.at(-1)! * LIST_DEPTH));
  let queries = 0;
  let deepQueries = 0;
  for (const rowid of sample) {
    if (options.signal?.aborted) return null;
    const stored = vectorOf.get(BigInt(rowid)) as Buffer | undefined;
    if (!stored) continue;
    const vector = offCollection(new Float32Array(stored.buffer.slice(stored.byteOffset, stored.byteOffset + stored.byteLength)), rowid);
    const blob = Buffer.from(vector.buffer);
    // The source's near-copies (overlapping or duplicated passages) share its bits: finding them
    // says nothing about how the bits order ordinary neighbours, so both lists leave them out.
    const ordinary = (ids: number[]) => {
      const copies = new Set(rescore(db, model, stored, ids, ids.length).filter((r) => r.distance <= NEAR_COPY_DISTANCE).map((r) => r.rowid));
      return ids.filter((r) => !copies.has(r));
    };
    const nearest = ordinary(exactKnn.all(blob, LIST_DEPTH + NEAR_COPY_ROOM) as number[]);
    const exact = nearest.slice(0, 10);
    if (exact.length < 10) continue;
    const coarse = ordinary(coarseCandidates(db, model, packSigns(vector, state.mean), Math.min(MAX_CANDIDATES, reach + NEAR_COPY_ROOM), null, state.bitsVersion)).slice(0, reach);
    const distance = new Map(rescore(db, model, blob, coarse, coarse.length).map((r) => [r.rowid, r.distance]));
    // What a search rescoring the first `candidates` finds of `truth`, as a share.
    const recall = (candidates: number, truth: readonly number[]) => {
      const want = new Set(truth);
      const found = coarse
        .slice(0, candidates)
        .sort((a, b) => distance.get(a)! - distance.get(b)!)
        .slice(0, truth.length);
      return found.filter((r) => want.has(r)).length / truth.length;
    };
    for (const f of OVERSAMPLING_FACTORS) sums.set(f, sums.get(f)! + recall(f * 10, exact));
    if (nearest.length >= LIST_DEPTH) {
      const deep = nearest.slice(0, LIST_DEPTH);
      for (const f of DEPTH_FACTORS) deepSums.set(f, deepSums.get(f)! + recall(f * LIST_DEPTH, deep));
      deepQueries++;
    }
    queries++;
    options.onProgress?.({ phase: 'calibrating', done: queries, total: sample.length });
    await tick();
  }
  if (queries === 0) return null;
  const byFactor = Object.fromEntries(OVERSAMPLING_FACTORS.map((f) => [f, sums.get(f)! / queries])) as Record<number, number>;
  let depth: Calibration['depth'] = null;
  if (deepQueries > 0) {
    const deepByFactor = Object.fromEntries(DEPTH_FACTORS.map((f) => [f, deepSums.get(f)! / deepQueries])) as Record<number, number>;
    const picked = pickFactor(DEPTH_FACTORS, deepByFactor, wanted);
    depth = { oversampling: picked.factor, recall: picked.recall, byFactor: deepByFactor };
  }
  return { ...pickOversampling(byFactor, wanted), byFactor, depth, queries };
}

/** `v` plus a random unit direction (seeded by the row, so a calibration is repeatable), unit length again. */
function offCollection(v: Float32Array, seed: number): Float32Array {
  // xorshift32 into Box–Muller: a few hundred normal numbers, no dependency.
  let x = (seed * 2654435761) >>> 0 || 1;
  const uniform = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) + 0.5) / 4294967296;
  };
  const noise = Float64Array.from(v, () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()));
  const noiseNorm = Math.hypot(...noise);
  const vNorm = Math.hypot(...v);
  const out = Float32Array.from(v, (a, i) => a / vNorm + noise[i]! / noiseNorm);
  const n = Math.hypot(...out);
  return out.map((a) => a / n);
}

/** The smallest factor whose recall reaches `wanted`, with that recall; else null and the best recall reached. */
export function pickOversampling(byFactor: Record<number, number>, wanted = RECALL_WANTED): { oversampling: number | null; recallAt10: number } {
  const { factor, recall } = pickFactor(OVERSAMPLING_FACTORS, byFactor, wanted);
  return { oversampling: factor, recallAt10: recall };
}

function pickFactor(factors: readonly number[], byFactor: Record<number, number>, wanted: number): { factor: number | null; recall: number } {
  const chosen = factors.find((f) => (byFactor[f] ?? 0) >= wanted) ?? null;
  return { factor: chosen, recall: chosen !== null ? byFactor[chosen]! : Math.max(...factors.map((f) => byFactor[f] ?? 0)) };
}
