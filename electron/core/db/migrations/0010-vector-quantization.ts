import type { Migration } from './types';

/**
 * Two-stage dense search (retrieve/dense.ts): per embedding model, the sign bits of each vector
 * after subtracting the model's mean vector live in a table beside its float table, with a plain
 * copy of the floats for rescoring (db/bit-vectors.ts creates both once the collection is large enough). This row keeps what the bits
 * depend on and what they are worth: the mean and how many vectors it was taken over, how far the
 * bits are built, and the oversampling factor measured on a sample of the stored vectors with the
 * recall@10 it reached. A database from before this change has no rows: searches stay exact until
 * the bits are built and calibrated (retrieve/quantization.ts), so nothing breaks meanwhile.
 */
export const migration0010: Migration = {
  version: 10,
  name: 'vector-quantization',
  up: `
    CREATE TABLE vector_quantization (
      model_id           INTEGER PRIMARY KEY REFERENCES embedding_models (id) ON DELETE CASCADE,
      mean               BLOB,
      mean_vectors       INTEGER NOT NULL DEFAULT 0,
      bits_built         INTEGER NOT NULL DEFAULT 0,
      bits_total         INTEGER NOT NULL DEFAULT 0,
      bits_ready         INTEGER NOT NULL DEFAULT 0,
      bits_version       INTEGER NOT NULL DEFAULT 0,
      oversampling       INTEGER,
      recall_at_10       REAL,
      calibrated_vectors INTEGER NOT NULL DEFAULT 0,
      calibrated_at      TEXT
    );
  `,
};
