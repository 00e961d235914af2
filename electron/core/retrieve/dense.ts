import { QuireError } from '../../../shared/errors';
import type { EmbeddingModelRow } from '../db/embedding-models';
import type { Db } from '../db/open';
import type { Ranked } from './fusion';
import { inScope, scopeParam, type ScopeFilter } from './scope';

export interface DenseHit extends Ranked {
  /** L2 distance between unit vectors: 0 identical, √2 orthogonal. */
  distance: number;
  /** Cosine similarity, 1 − distance²/2 for unit vectors. */
  score: number;
}

/**
 * KNN over the active model's vec0 table only. vec0 answers the k nearest before any filter,
 * so with a collection filter we ask for more and filter afterwards.
 */
export function denseSearch(db: Db, model: EmbeddingModelRow, query: Float32Array, limit: number, filter: ScopeFilter = {}): DenseHit[] {
  if (query.length !== model.dimension) {
    throw new QuireError('EMBED_DIMENSION_MISMATCH', `The query vector has ${query.length} dimensions but ${model.name}'s table has ${model.dimension}.`);
  }
  const scoped = scopeParam(filter) !== null;
  const k = Math.min(4096, scoped ? limit * 4 : limit);
  // vec0 wants the KNN query on its own (one ORDER BY distance, nothing joined in).
  const rows = db
    .prepare(`SELECT rowid, distance FROM ${model.tableName} WHERE embedding MATCH ? AND k = ? ORDER BY distance`)
    .all(Buffer.from(query.buffer, query.byteOffset, query.byteLength), k) as Array<{ rowid: number; distance: number }>;
  const collectionOf = db.prepare('SELECT d.collection_id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.rowid = ?').pluck();
  return rows
    .filter((r) => !scoped || inScope(filter, collectionOf.get(r.rowid) as string))
    .slice(0, limit)
    .map((r, i) => ({ rowid: r.rowid, rank: i + 1, distance: r.distance, score: 1 - (r.distance * r.distance) / 2 }));
}
