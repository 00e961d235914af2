import { createHash } from 'node:crypto';
import { QuireError } from '../../../shared/errors';
import type { EmbeddingModelIdentity } from '../ollama/embedder';
import { withTag } from '../ollama/gateway';
import { countDocumentsMissingModel, countDocumentsMissingVectors } from './documents';
import { deleteBits, dropBits, writeBits } from './bit-vectors';
import { appendEvent } from './events';
import type { Db } from './open';
import { stmt } from './statements';
import { getSetting, setSetting } from './settings';

export interface EmbeddingModelRow {
  id: number;
  name: string;
  digest: string;
  dimension: number;
  tableName: string;
  addedAt: string;
}

const ACTIVE_KEY = 'active_embedding_model_id';

/**
 * The row (and vec0 table) for exactly this model name, digest and dimension, created on first use.
 * A re-pulled model with new weights gets a new digest and so a new table: vectors from two
 * versions of a model are never compared with each other.
 */
export function ensureEmbeddingModel(db: Db, identity: EmbeddingModelIdentity): EmbeddingModelRow {
  const existing = findEmbeddingModel(db, identity);
  if (existing) return existing;
  const tableName = vecTableName(identity);
  return db.transaction(() => {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${tableName} USING vec0(embedding float[${identity.dimension}])`);
    stmt(db, 'INSERT INTO embedding_models (name, digest, dimension, table_name, added_at) VALUES (?, ?, ?, ?, ?)').run(
      identity.name,
      identity.digest,
      identity.dimension,
      tableName,
      new Date().toISOString(),
    );
    return findEmbeddingModel(db, identity)!;
  }).immediate();
}

export function findEmbeddingModel(db: Db, identity: EmbeddingModelIdentity): EmbeddingModelRow | null {
  const row = db
    .prepare('SELECT * FROM embedding_models WHERE name = ? AND digest = ? AND dimension = ?')
    .get(identity.name, identity.digest, identity.dimension) as RawRow | undefined;
  return row ? fromRaw(row) : null;
}

export function listEmbeddingModels(db: Db): EmbeddingModelRow[] {
  return (stmt(db, 'SELECT * FROM embedding_models ORDER BY id').all() as RawRow[]).map(fromRaw);
}

export function getActiveEmbeddingModel(db: Db): EmbeddingModelRow | null {
  const id = getSetting(db, ACTIVE_KEY);
  if (id === null) return null;
  const row = stmt(db, 'SELECT * FROM embedding_models WHERE id = ?').get(Number(id)) as RawRow | undefined;
  return row ? fromRaw(row) : null;
}

/** Makes `model` the one whose table is queried; an event records every change. */
export function activateEmbeddingModel(db: Db, model: EmbeddingModelRow): void {
  const previous = getActiveEmbeddingModel(db);
  if (previous?.id === model.id) return;
  db.transaction(() => {
    setSetting(db, ACTIVE_KEY, String(model.id));
    appendEvent(db, {
      kind: 'model.switched',
      detail: { from: previous ? describe(previous) : null, to: describe(model) },
    });
  }).immediate();
  // Only after the switch: older versions of this model can never be queried again (Ollama serves
  // the newest, and a query embedded by one version is never compared with another's vectors).
  for (const old of listEmbeddingModels(db)) {
    if (old.name === model.name && old.id !== model.id) dropEmbeddingModel(db, old, `superseded by ${model.name} ${model.digest.slice(0, 12)}`);
  }
}

/**
 * Deletes a stored model's vectors (its vec0 table) and its bookkeeping, in one transaction. Never
 * the active model's: searches use it. Returns how many chunks' vectors went.
 */
export function dropEmbeddingModel(db: Db, model: EmbeddingModelRow, reason: string): { vectors: number } {
  return db.transaction(() => {
    if (getActiveEmbeddingModel(db)?.id === model.id) {
      throw new QuireError('INVALID_ARGUMENT', `${model.name} is the embedding model searches use; choose another one first.`);
    }
    const vectors = storedVectorCount(db, model.id);
    db.exec(`DROP TABLE IF EXISTS ${model.tableName}`);
    dropBits(db, model);
    stmt(db, 'DELETE FROM document_embeddings WHERE model_id = ?').run(model.id);
    stmt(db, 'DELETE FROM embedding_models WHERE id = ?').run(model.id);
    appendEvent(db, { kind: 'model.dropped', detail: { ...describe(model), vectors, reason } });
    return { vectors };
  }).immediate();
}

/** Chunks with vectors in this model's table (counted from the documents it covers, not by scanning it). */
export function storedVectorCount(db: Db, modelId: number): number {
  return stmt(db, 'SELECT coalesce(sum(d.chunk_count), 0) FROM document_embeddings e JOIN documents d ON d.id = e.document_id WHERE e.model_id = ?').pluck().get(modelId) as number;
}

/**
 * Switching back to a model whose vectors are already complete is instant: the newest stored
 * version of `name` (the digest Quire met last) becomes the one searches use if it covers every
 * document with text. Returns it, or null when it does not (then an embedding run builds it, and
 * activates it when done). An older version is never taken instead, complete or not: Ollama has
 * moved on from it, so queries embedded now would not match its vectors (search refuses them).
 */
export function activateCompleteModel(db: Db, name: string): EmbeddingModelRow | null {
  const newest = stmt(db, 'SELECT * FROM embedding_models WHERE name = ? ORDER BY id DESC LIMIT 1').get(withTag(name)) as RawRow | undefined;
  if (!newest || countDocumentsMissingVectors(db, newest.id) > 0) return null;
  const model = fromRaw(newest);
  activateEmbeddingModel(db, model);
  return model;
}

/**
 * A switch of embedding model under way: the chosen model is not the one searches use yet, and
 * this many documents still lack its vectors. Null when the chosen model is the active one (or
 * there is no active model: the first embedding activates itself).
 */
export function pendingSwitch(db: Db, chosen: string): { to: string; documentsLeft: number } | null {
  const active = getActiveEmbeddingModel(db);
  const to = withTag(chosen);
  if (!active || active.name === to) return null;
  const documentsLeft = countDocumentsMissingModel(db, to);
  return { to, documentsLeft };
}

/** Writes one chunk's vector; refuses a vector whose length is not the table's dimension. */
export function insertVector(db: Db, model: EmbeddingModelRow, chunkRowid: number | bigint, vector: Float32Array): void {
  if (vector.length !== model.dimension) {
    throw new QuireError(
      'EMBED_DIMENSION_MISMATCH',
      `Refusing to store a ${vector.length}-dimensional vector in the ${model.dimension}-dimensional table of ${model.name}.`,
    );
  }
  // vec0 has no upsert; callers delete first (deleteVector), in the same transaction.
  const rowid = BigInt(chunkRowid);
  const blob = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  stmt(db, `INSERT INTO ${model.tableName} (rowid, embedding) VALUES (?, ?)`).run(rowid, blob);
  writeBits(db, model, rowid, vector);
}

/** Removes one chunk's vector from the model's table, and its bits for two-stage search. */
export function deleteVector(db: Db, model: EmbeddingModelRow, chunkRowid: number | bigint): void {
  const rowid = BigInt(chunkRowid);
  stmt(db, `DELETE FROM ${model.tableName} WHERE rowid = ?`).run(rowid);
  deleteBits(db, model, rowid);
}

/** vec0 table names come from our own identity data, never from user text, and are sanitised anyway. */
export function vecTableName(identity: EmbeddingModelIdentity): string {
  const slug = identity.name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40);
  const tag = createHash('sha256').update(`${identity.name}\0${identity.digest}\0${identity.dimension}`).digest('hex').slice(0, 10);
  return `vec_${slug}_${tag}`;
}

function describe(m: EmbeddingModelRow) {
  return { name: m.name, digest: m.digest, dimension: m.dimension };
}

interface RawRow {
  id: number;
  name: string;
  digest: string;
  dimension: number;
  table_name: string;
  added_at: string;
}

function fromRaw(r: RawRow): EmbeddingModelRow {
  return { id: r.id, name: r.name, digest: r.digest, dimension: r.dimension, tableName: r.table_name, addedAt: r.added_at };
}
