import { QuireError } from '../../../shared/errors';
import { bitTableName, denseMethod, getQuantization, packSigns, rescoreTableName, type DenseMethod, type QuantizationState } from '../db/bit-vectors';
import { storedVectorCount, type EmbeddingModelRow } from '../db/embedding-models';
import type { Db } from '../db/open';
import { stmt } from '../db/statements';
import { nearestByBits } from './bit-scan';
import type { Ranked } from './fusion';
import { inScopeSql, scopeParam, type ScopeFilter } from './scope';

export interface DenseHit extends Ranked {
  /** L2 distance between unit vectors: 0 identical, √2 orthogonal. */
  distance: number;
  /** Cosine similarity, 1 − distance²/2 for unit vectors. */
  score: number;
}

/** sqlite-vec 0.1.9 refuses a KNN query with k above this (SQLITE_VEC_VEC0_K_MAX). */
export const VEC0_K_MAX = 4096;
/** Candidates the coarse pass hands to rescoring, at most (the same bound, so a search never reads more floats than vec0 would return). */
export const MAX_CANDIDATES = VEC0_K_MAX;

export interface DenseOptions {
  filter?: ScopeFilter;
  /** Chunks from which the model's table is searched in two stages (the denseQuantizeAbove setting). */
  quantizeAbove?: number;
  /** Benchmarks and tests: force one method ('quantized' still needs calibrated bits). */
  method?: DenseMethod;
  /** Benchmarks and calibration: this factor instead of the calibrated one. */
  oversampling?: number;
}

export function denseSearch(db: Db, model: EmbeddingModelRow, query: Float32Array, limit: number, options: DenseOptions = {}): DenseHit[] {
  return denseSearchTraced(db, model, query, limit, options).hits;
}

export function denseSearchTraced(
  db: Db,
  model: EmbeddingModelRow,
  query: Float32Array,
  limit: number,
  options: DenseOptions = {},
): { hits: DenseHit[]; method: DenseMethod; k: number } {
  if (query.length !== model.dimension) {
    throw new QuireError('EMBED_DIMENSION_MISMATCH', `The query vector has ${query.length} dimensions but ${model.name}'s table has ${model.dimension}.`);
  }
  // One read transaction, so every statement sees the same snapshot: another process (the CLI and
  // the app share the file) may re-centre or drop the bits and the float copy between them, and a
  // search that read the old state must not read the new, half-built tables. Read-only: deferred.
  return db.transaction(() => searchSnapshot(db, model, query, limit, options)).deferred();
}

function searchSnapshot(db: Db, model: EmbeddingModelRow, query: Float32Array, limit: number, options: DenseOptions): { hits: DenseHit[]; method: DenseMethod; k: number } {
  const scope = scopeParam(options.filter ?? {});
  const q = Buffer.from(query.buffer, query.byteOffset, query.byteLength);
  const state = getQuantization(db, model.id);
  const quantized = (options.method ?? denseMethod(state, options.quantizeAbove ?? Number.POSITIVE_INFINITY, vectorsNow(db, model, state))) === 'quantized' && state?.mean;
  let rows: Array<{ rowid: number; distance: number }>;
  let k: number;
  if (quantized) {
    k = options.oversampling !== undefined ? Math.min(MAX_CANDIDATES, options.oversampling * limit) : candidateCount(state, limit);
    const candidates = coarseCandidates(db, model, packSigns(query, state.mean), k, scope, state.bitsVersion);
    rows = rescore(db, model, q, candidates, limit);
  } else {
    k = Math.min(VEC0_K_MAX, limit);
    rows = stmt(db, knnSql(model.tableName, scope !== null)).all({ query: q, k, ...(scope !== null ? { scope } : {}) }) as typeof rows;
  }
  return { method: quantized ? 'quantized' : 'exact', k, hits: rows.map((r, i) => ({ rowid: r.rowid, rank: i + 1, distance: r.distance, score: 1 - (r.distance * r.distance) / 2 })) };
}

/** The table's vector count by the bits' version it was taken at: every write or delete of a vector moves that version (from any process). */
const counted = new WeakMap<Db, Map<number, { version: number; vectors: number }>>();

/**
 * How many vectors the model's table holds now, for the method: counted again only after a write
 * (the count sums every document's chunks, a few milliseconds on a large collection), and only
 * when the bits could be used at all.
 */
function vectorsNow(db: Db, model: EmbeddingModelRow, state: QuantizationState | null): number {
  if (!state?.bitsReady || state.oversampling === null) return 0;
  let byModel = counted.get(db);
  if (!byModel) counted.set(db, (byModel = new Map()));
  const known = byModel.get(model.id);
  if (known?.version === state.bitsVersion) return known.vectors;
  const vectors = storedVectorCount(db, model.id);
  byModel.set(model.id, { version: state.bitsVersion, vectors });
  return vectors;
}

/**
 * How many candidates the coarse pass hands to rescoring for `limit` results. Each factor is the
 * one calibration measured for its depth: the top-10 factor up to 10 results; deeper (hybrid's
 * lists are LIST_DEPTH long, shared/search.ts), the depth factor × limit, never fewer than the top 10 needs. Before
 * the depth factor is measured, or when none reached the recall wanted, the top-10 factor serves
 * at every depth, as before the depth factor existed: unmeasured, it is usually more candidates
 * than needed; when none of ×4…×64 reached recall@LIST_DEPTH 0.97, recall at that depth is below
 * it (recall_at_depth holds the best reached). Between 10 and LIST_DEPTH, and past it, the depth
 * factor is carried over from LIST_DEPTH, not measured there (search asks for at least LIST_DEPTH).
 */
export function candidateCount(state: Pick<QuantizationState, 'oversampling' | 'depthOversampling'>, limit: number): number {
  const top = state.oversampling ?? 1;
  if (limit <= 10 || state.depthOversampling === null) return Math.min(MAX_CANDIDATES, top * limit);
  return Math.min(MAX_CANDIDATES, Math.max(top * 10, state.depthOversampling * limit));
}

/**
 * A scope is applied inside the KNN (vec0's `rowid IN (…)` constraint), so the k nearest are the
 * k nearest in scope: a folder on other topics than the query's still gets its own nearest.
 */
const IN_SCOPE = `rowid IN (SELECT c.rowid FROM documents d JOIN chunks c ON c.document_id = d.id
                             WHERE ${inScopeSql('scope')})`;

/** Exported for the query-plan tests. vec0 wants the KNN on its own: one ORDER BY distance, nothing joined in. */
export function knnSql(table: string, scoped: boolean, match = '@query'): string {
  return `SELECT rowid, distance FROM ${table} WHERE embedding MATCH ${match} AND k = @k${scoped ? ` AND ${IN_SCOPE}` : ''} ORDER BY distance`;
}

/**
 * The coarse stage: the k nearest (in scope) by Hamming distance on the centred sign bits, nearest
 * first (ties by rowid, so a shorter list is a prefix of a longer one: calibration relies on it).
 */
export function coarseCandidates(db: Db, model: EmbeddingModelRow, bits: Buffer, k: number, scope: string | null = null, version?: number): number[] {
  // Unscoped (the common case): the in-memory copy unless it is stale while writes go on (then SQL,
  // which ranks the same). A scope reads only its own chunks' bits.
  if (scope === null && version !== undefined) {
    const near = nearestByBits(db, model, version, bits, Math.min(MAX_CANDIDATES, k));
    if (near) return near;
  }
  return stmt(db, coarseSql(bitTableName(model), scope !== null))
    .pluck()
    .all({ query: bits, k: Math.min(MAX_CANDIDATES, k), ...(scope !== null ? { scope } : {}) }) as number[];
}

/** Exported for the query-plan tests: a scan of the compact bits table, or of the scope's chunks' bits by rowid. */
export function coarseSql(table: string, scoped: boolean): string {
  const distance = 'vec_distance_hamming(vec_bit(b.bits), vec_bit(@query))';
  return scoped
    ? `SELECT b.rowid FROM documents d JOIN chunks c ON c.document_id = d.id JOIN ${table} b ON b.rowid = c.rowid
        WHERE ${inScopeSql('scope')} ORDER BY ${distance}, b.rowid LIMIT @k`
    : `SELECT b.rowid FROM ${table} b ORDER BY ${distance}, b.rowid LIMIT @k`;
}

/**
 * The exact stage, in one statement: each candidate's float vector read by rowid from the model's
 * plain rescoring table (db/bit-vectors.ts rescoreTableName), its L2 distance to the query, the nearest `limit`.
 */
export function rescore(db: Db, model: EmbeddingModelRow, query: Buffer, candidates: readonly number[], limit: number): Array<{ rowid: number; distance: number }> {
  if (candidates.length === 0) return [];
  return stmt(db, rescoreSql(rescoreTableName(model))).all({ query, candidates: JSON.stringify(candidates), limit }) as Array<{ rowid: number; distance: number }>;
}

/** Exported for the query-plan tests and the benchmark (which runs it against the vec0 float table too). */
export function rescoreSql(table: string, column = 'embedding'): string {
  return `SELECT v.rowid AS rowid, vec_distance_l2(v.${column}, @query) AS distance
       FROM json_each(@candidates) j
       JOIN ${table} v ON v.rowid = j.value
      ORDER BY distance LIMIT @limit`;
}
