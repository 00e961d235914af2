import type { EmbeddingModelRow } from './embedding-models';
import type { Db } from './open';
import { stmt } from './statements';
import { LIST_DEPTH } from '../../../shared/search';

/**
 * The coarse half of two-stage dense search: each vector's sign bits after subtracting the model's
 * mean vector, in a compact table beside the model's float table. Real embeddings share a
 * common direction, so raw signs would be mostly alike; centred signs split the collection evenly.
 * Hamming distance on these bits orders candidates roughly; the float vectors then rescore them.
 */

export interface QuantizationState {
  modelId: number;
  /** The mean the bits were centred on; null until the bits table exists. */
  mean: Float32Array | null;
  /** How many vectors the mean was taken over (it is retaken as the collection grows). */
  meanVectors: number;
  bitsBuilt: number;
  bitsTotal: number;
  /** Every stored vector has bits; from then on writes keep them in step. */
  bitsReady: boolean;
  /** Changes with every write of bits (from any process): an in-memory copy of them is current while it holds. */
  bitsVersion: number;
  /** The calibrated oversampling factor; null: no factor reached the recall wanted (exact search). */
  oversampling: number | null;
  /** Sampled recall@10 at that factor (or the best any factor reached). */
  recallAt10: number | null;
  /** The factor for a search DEPTH deep (hybrid's lists); null: none reached the recall wanted, or not measured. */
  depthOversampling: number | null;
  /** Sampled recall@DEPTH at that factor (or the best reached); null: not measured (searches then use the top-10 factor). */
  recallAtDepth: number | null;
  calibratedVectors: number;
  calibratedAt: string | null;
  /** bitsVersion when the bits were complete on this mean, and when the factor was measured (null: unknown). */
  meanVersion: number | null;
  calibratedVersion: number | null;
}

export type DenseMethod = 'exact' | 'quantized';

/**
 * The method a query of this model's table takes: two-stage while the table holds at least
 * `quantizeAbove` vectors (`vectors`, its count now), its bits are complete and calibrated; exact
 * otherwise (small tables, one kept a little under the threshold with its bits, a database still
 * building its bits after an upgrade, or a geometry where no factor reached the recall wanted).
 * The count now, not the calibration's: bits are kept within 10% under the threshold
 * (quantization.ts), so a calibration taken above it may outlive the collection being there.
 */
export function denseMethod(state: QuantizationState | null, quantizeAbove: number, vectors: number): DenseMethod {
  if (!state || !state.bitsReady || state.oversampling === null) return 'exact';
  return vectors >= quantizeAbove ? 'quantized' : 'exact';
}

/** What status shows of a model's dense index: its method, why, and the calibration behind it. */
export interface DenseIndexStatus {
  method: DenseMethod;
  quantizeAbove: number;
  bits: { built: number; total: number; ready: boolean } | null;
  oversampling: number | null;
  recallAt10: number | null;
  /** The factor for searches DEPTH deep (hybrid's lists), and its sampled recall; null: the top-10 factor serves. */
  depthOversampling: number | null;
  recallAtDepth: number | null;
  calibratedVectors: number;
  /** One sentence: why this method. */
  reason: string;
}

export function denseIndexStatus(db: Db, model: EmbeddingModelRow, vectors: number, quantizeAbove: number): DenseIndexStatus {
  const state = getQuantization(db, model.id);
  const method = denseMethod(state, quantizeAbove, vectors);
  const bits = state?.mean ? { built: state.bitsReady ? state.bitsTotal : Math.min(state.bitsBuilt, state.bitsTotal), total: state.bitsTotal, ready: state.bitsReady } : null;
  const factor = state?.oversampling ?? null;
  const recall = state?.recallAt10 ?? null;
  const fmt = (n: number) => n.toLocaleString('en');
  let reason: string;
  if (!quantizable(model)) reason = `exact: ${model.dimension} dimensions cannot be packed as bits`;
  else if (method === 'quantized') {
    const deep = state!.depthOversampling !== null && state!.recallAtDepth !== null ? `; ×${state!.depthOversampling} for the ${LIST_DEPTH} candidates hybrid search fuses (recall@${LIST_DEPTH} ${state!.recallAtDepth.toFixed(3)})` : '';
    reason = `two-stage: sign bits, ×${factor} oversampling, then exact rescoring (sampled recall@10 ${recall!.toFixed(3)})${deep}`;
  }
  else if (vectors < quantizeAbove) reason = `exact: ${fmt(vectors)} vectors, under the ${fmt(quantizeAbove)} from which search goes in two stages`;
  else if (!bits) reason = 'exact until the sign bits are built';
  else if (!bits.ready) reason = `exact until the sign bits are built (${fmt(bits.built)} of ${fmt(bits.total)})`;
  else if (state?.calibratedAt === null) reason = 'exact until the oversampling is calibrated';
  else if (factor === null && recall === null) reason = 'exact: no stored vector could serve as a calibration query (each has too many near-copies)';
  else if (factor === null) reason = `exact: no oversampling up to ×128 reached recall@10 0.97 on this model's vectors (best ${recall?.toFixed(3) ?? '?'})`;
  else reason = `exact: calibrated at ${fmt(state!.calibratedVectors)} vectors, under the ${fmt(quantizeAbove)} threshold`;
  const depthOversampling = state?.depthOversampling ?? null;
  const recallAtDepth = depthOversampling !== null ? (state?.recallAtDepth ?? null) : null;
  return { method, quantizeAbove, bits, oversampling: factor, recallAt10: recall, depthOversampling, recallAtDepth, calibratedVectors: state?.calibratedVectors ?? 0, reason };
}

/** Bits are packed in whole bytes, and sqlite-vec's bit vectors and vec_quantize_binary refuse other lengths. */
export function quantizable(model: Pick<EmbeddingModelRow, 'dimension'>): boolean {
  return model.dimension % 8 === 0;
}

/**
 * The bits live in a plain rowid table, not a vec0 `bit[D]` one: vec0 0.1.9 picks each chunk's k
 * nearest by repeated selection (min_idx, O(chunk × k)), so its coarse KNN slows with k (at 10,000
 * chunks: 4.8 ms at k = 400, 17 ms at k = 4096), while SQLite's own ORDER BY … LIMIT over
 * vec_distance_hamming took 1.6 and 4.1 ms. Oversampling asks for hundreds of candidates.
 */
export function bitTableName(model: Pick<EmbeddingModelRow, 'tableName'>): string {
  return `${model.tableName}_bq`;
}

/**
 * The float vectors again, in a plain rowid table, for the rescoring stage. Reading a vector from
 * vec0 by rowid goes through its chunked storage and measured 20× slower than a rowid lookup here
 * (npm run perf:dense, detail.rescoreSource), which would undo what the coarse pass saves. Kept only
 * while two-stage search is on (the model's table is past the threshold), like the bits.
 */
export function rescoreTableName(model: Pick<EmbeddingModelRow, 'tableName'>): string {
  return `${model.tableName}_rs`;
}

/**
 * Packs the signs of `vector − mean` as vec_quantize_binary does: element i is bit i % 8 of byte
 * i / 8, set when the difference is above zero (a > b exactly when fround(a − b) > 0 for floats).
 */
export function packSigns(vector: Float32Array, mean: Float32Array | null): Buffer {
  const out = Buffer.alloc(vector.length >> 3);
  for (let i = 0; i < vector.length; i++) {
    if (vector[i]! > (mean ? mean[i]! : 0)) out[i >> 3]! |= 1 << (i & 7);
  }
  return out;
}

export function getQuantization(db: Db, modelId: number): QuantizationState | null {
  const r = stmt(db, 'SELECT * FROM vector_quantization WHERE model_id = ?').get(modelId) as RawState | undefined;
  if (!r) return null;
  return {
    modelId: r.model_id,
    mean: r.mean ? new Float32Array(r.mean.buffer.slice(r.mean.byteOffset, r.mean.byteOffset + r.mean.byteLength)) : null,
    meanVectors: r.mean_vectors,
    bitsBuilt: r.bits_built,
    bitsTotal: r.bits_total,
    bitsReady: r.bits_ready === 1,
    bitsVersion: r.bits_version,
    oversampling: r.oversampling,
    recallAt10: r.recall_at_10,
    depthOversampling: r.depth_oversampling,
    recallAtDepth: r.recall_at_depth,
    calibratedVectors: r.calibrated_vectors,
    calibratedAt: r.calibrated_at,
    meanVersion: r.mean_version,
    calibratedVersion: r.calibrated_version,
  };
}

/**
 * Starts a new set of bits centred on `mean`: the old bits table (if any) goes, an empty one comes,
 * and the state says nothing is built or calibrated, so searches are exact until both are done.
 * From this moment writes add bits for new vectors (writeBits), so the build only fills in the rest.
 */
export function resetBits(db: Db, model: EmbeddingModelRow, mean: Float32Array, vectors: number): void {
  db.transaction(() => {
    db.exec(`DROP TABLE IF EXISTS ${bitTableName(model)}`);
    db.exec(`DROP TABLE IF EXISTS ${rescoreTableName(model)}`);
    db.exec(`CREATE TABLE ${bitTableName(model)} (rowid INTEGER PRIMARY KEY, bits BLOB NOT NULL)`);
    db.exec(`CREATE TABLE ${rescoreTableName(model)} (rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL)`);
    stmt(db, 'DELETE FROM vector_quantization WHERE model_id = ?').run(model.id);
    // A fresh random version, never one an in-memory copy of the old bits could still carry.
    stmt(db, 'INSERT INTO vector_quantization (model_id, mean, mean_vectors, bits_total, bits_version) VALUES (?, ?, ?, ?, ?)').run(
      model.id,
      Buffer.from(mean.buffer, mean.byteOffset, mean.byteLength),
      vectors,
      vectors,
      Math.floor(Math.random() * 2 ** 52),
    );
  }).immediate();
}

/** Removes a model's bits and their state (the model's table is being dropped, or bits are given up). */
export function dropBits(db: Db, model: EmbeddingModelRow): void {
  db.exec(`DROP TABLE IF EXISTS ${bitTableName(model)}`);
  db.exec(`DROP TABLE IF EXISTS ${rescoreTableName(model)}`);
  stmt(db, 'DELETE FROM vector_quantization WHERE model_id = ?').run(model.id);
}

/**
 * Adds one vector's bits, centred on the stored mean, when the model has a bits table (a mean);
 * nothing otherwise. Called inside the transaction that writes the float vector.
 */
export function writeBits(db: Db, model: EmbeddingModelRow, rowid: bigint, vector: Float32Array): void {
  const mean = stmt(db, 'SELECT mean FROM vector_quantization WHERE model_id = ? AND mean IS NOT NULL').pluck().get(model.id) as Buffer | undefined;
  if (!mean) return;
  insertBits(db, model, rowid, packSigns(vector, asFloats(mean)), Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
  bumpVersion(db, model);
}

// Packed here (packSigns, tested against vec_quantize_binary) so that writes and the build agree bit for bit.
function insertBits(db: Db, model: EmbeddingModelRow, rowid: bigint, bits: Buffer, vector: Buffer): void {
  stmt(db, `INSERT INTO ${bitTableName(model)} (rowid, bits) VALUES (?, ?)`).run(rowid, bits);
  stmt(db, `INSERT INTO ${rescoreTableName(model)} (rowid, embedding) VALUES (?, ?)`).run(rowid, vector);
}

function bumpVersion(db: Db, model: EmbeddingModelRow): void {
  stmt(db, 'UPDATE vector_quantization SET bits_version = bits_version + 1 WHERE model_id = ?').run(model.id);
}

function asFloats(blob: Buffer): Float32Array {
  return blob.byteOffset % 4 === 0 ? new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4) : new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

/** Bytes a model's vectors take beyond its vec0 table while two-stage search is on: the float copy and the bits. */
export function quantizedBytes(vectors: number, dimension: number): number {
  return vectors * (dimension * 4 + Math.ceil(dimension / 8));
}

/** Deletes one vector's bits if the model has a bits table. */
export function deleteBits(db: Db, model: EmbeddingModelRow, rowid: bigint): void {
  if (!hasBitsTable(db, model)) return;
  stmt(db, `DELETE FROM ${bitTableName(model)} WHERE rowid = ?`).run(rowid);
  stmt(db, `DELETE FROM ${rescoreTableName(model)} WHERE rowid = ?`).run(rowid);
  bumpVersion(db, model);
}

/** The model has a bits table and a float copy for rescoring (a mean was taken: it is past the threshold). */
export function hasBitsTable(db: Db, model: Pick<EmbeddingModelRow, 'id'>): boolean {
  return stmt(db, 'SELECT 1 FROM vector_quantization WHERE model_id = ? AND mean IS NOT NULL').get(model.id) !== undefined;
}

/**
 * Fills in bits for the next `limit` chunks after rowid `after` that have a float vector and no bits
 * yet, in one write transaction (so a long build never holds the write lock for long, and a writer
 * adding bits meanwhile is not duplicated). Returns the last rowid examined, or null when done.
 */
export function buildBitsBatch(db: Db, model: EmbeddingModelRow, after: number, limit: number): { last: number | null; built: number } {
  return db.transaction(() => {
    const last = stmt(db, 'SELECT max(rowid) FROM (SELECT rowid FROM chunks WHERE rowid > ? ORDER BY rowid LIMIT ?)').pluck().get(after, limit) as number | null;
    if (last === null) return { last: null, built: 0 };
    const mean = asFloats(stmt(db, 'SELECT mean FROM vector_quantization WHERE model_id = ?').pluck().get(model.id) as Buffer);
    // Walking chunks by its key, a point lookup in the vec0 float table for each (vec0's rowid = ? plan).
    const rows = stmt(db, toBuildSql(model)).all(after, last) as Array<{ rowid: number; embedding: Buffer }>;
    for (const r of rows) insertBits(db, model, BigInt(r.rowid), packSigns(asFloats(r.embedding), mean), r.embedding);
    // One version step per row written, as writeBits takes, in one statement for the batch.
    stmt(db, 'UPDATE vector_quantization SET bits_built = bits_built + ?, bits_version = bits_version + ? WHERE model_id = ?').run(rows.length, rows.length, model.id);
    return { last, built: rows.length };
  }).immediate();
}

/** A window of chunks' float vectors still lacking bits (exported for the query-plan test). */
export function toBuildSql(model: EmbeddingModelRow): string {
  return `SELECT c.rowid AS rowid, v.embedding AS embedding
         FROM chunks c JOIN ${model.tableName} v ON v.rowid = c.rowid
        WHERE c.rowid > ? AND c.rowid <= ?
          AND NOT EXISTS (SELECT 1 FROM ${rescoreTableName(model)} r WHERE r.rowid = c.rowid)`;
}

/**
 * Marks the bits ready only if every embedded chunk has them: another process may have re-centred
 * (resetBits) behind a build's cursor, leaving rows it had passed without bits, and a table marked
 * ready while missing rows would hide those chunks from two-stage search. False: build again.
 */
export function markBitsReadyIfComplete(db: Db, model: EmbeddingModelRow): boolean {
  return db.transaction(() => {
    if (!hasBitsTable(db, model)) return false;
    const missing = stmt(db, missingBitsSql(model)).pluck().get(model.id) as number;
    if (missing > 0) return false;
    const total = stmt(db, `SELECT count(*) FROM ${rescoreTableName(model)}`).pluck().get() as number;
    stmt(db, 'UPDATE vector_quantization SET bits_ready = 1, bits_built = ?, bits_total = ?, mean_version = bits_version WHERE model_id = ?').run(total, total, model.id);
    return true;
  }).immediate();
}

/** Embedded chunks of the model with no rescoring copy (so no bits): one probe of each by rowid. */
export function missingBitsSql(model: EmbeddingModelRow): string {
  return `SELECT count(*) FROM document_embeddings e JOIN chunks c ON c.document_id = e.document_id
           WHERE e.model_id = ? AND NOT EXISTS (SELECT 1 FROM ${rescoreTableName(model)} r WHERE r.rowid = c.rowid)`;
}

/** `version`: the bits_version the calibration measured (its start: writes during it count as changes since). */
export function saveCalibration(
  db: Db,
  modelId: number,
  c: { oversampling: number | null; recallAt10: number | null; depthOversampling: number | null; recallAtDepth: number | null; vectors: number; version: number },
): void {
  stmt(
    db,
    'UPDATE vector_quantization SET oversampling = ?, recall_at_10 = ?, depth_oversampling = ?, recall_at_depth = ?, calibrated_vectors = ?, calibrated_at = ?, calibrated_version = ? WHERE model_id = ?',
  ).run(
    c.oversampling,
    c.recallAt10,
    c.depthOversampling,
    c.recallAtDepth,
    c.vectors,
    new Date().toISOString(),
    c.version,
    modelId,
  );
}

interface RawState {
  model_id: number;
  mean: Buffer | null;
  mean_vectors: number;
  bits_built: number;
  bits_total: number;
  bits_ready: number;
  bits_version: number;
  oversampling: number | null;
  recall_at_10: number | null;
  depth_oversampling: number | null;
  recall_at_depth: number | null;
  calibrated_vectors: number;
  calibrated_at: string | null;
  mean_version: number | null;
  calibrated_version: number | null;
}
