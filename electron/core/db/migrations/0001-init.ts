import type { Migration } from './types';

/**
 * The first schema. vec0 tables are not created here: there is one per embedding model,
 * created when that model is first used (see ../embedding-models.ts).
 */
export const migration0001: Migration = {
  version: 1,
  name: 'init',
  up: `
    CREATE TABLE collections (
      id            TEXT PRIMARY KEY,
      root          TEXT NOT NULL UNIQUE,
      include_globs TEXT NOT NULL DEFAULT '[]',
      exclude_globs TEXT NOT NULL DEFAULT '[]',
      watch         INTEGER NOT NULL DEFAULT 0 CHECK (watch IN (0, 1)),
      created_at    TEXT NOT NULL
    );

    CREATE TABLE documents (
      id             TEXT PRIMARY KEY,
      collection_id  TEXT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
      rel_path       TEXT NOT NULL,
      source_uri     TEXT NOT NULL,
      title          TEXT,
      size           INTEGER NOT NULL,
      mtime_ms       INTEGER NOT NULL,
      sha256         TEXT,
      reader         TEXT,
      reader_version INTEGER,
      chunker        TEXT,
      -- How many chunks the committed version has; lets doctor prove no document is half-written.
      chunk_count    INTEGER NOT NULL DEFAULT 0,
      ingested_at    TEXT NOT NULL,
      -- 'ready': text indexed (vectors are tracked per model in document_embeddings);
      -- 'skipped': a policy reason such as too-large; 'error': the file could not be read.
      status         TEXT NOT NULL CHECK (status IN ('ready', 'skipped', 'error')),
      status_code    TEXT,
      status_message TEXT,
      UNIQUE (collection_id, rel_path)
    );

    -- AUTOINCREMENT: a chunk rowid is never reused, so a vector can never be read back
    -- as belonging to a different chunk.
    CREATE TABLE chunks (
      rowid        INTEGER PRIMARY KEY AUTOINCREMENT,
      id           TEXT NOT NULL UNIQUE,
      document_id  TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
      ordinal      INTEGER NOT NULL,
      heading_path TEXT NOT NULL,
      text         TEXT NOT NULL,
      token_count  INTEGER NOT NULL,
      start_line   INTEGER NOT NULL,
      end_line     INTEGER NOT NULL,
      UNIQUE (document_id, ordinal)
    );

    CREATE VIRTUAL TABLE chunks_fts USING fts5(
      heading_path, text,
      content = 'chunks', content_rowid = 'rowid',
      tokenize = 'porter unicode61 remove_diacritics 2'
    );

    -- External-content FTS must be told about every change; triggers make that impossible to forget.
    CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
      INSERT INTO chunks_fts(rowid, heading_path, text) VALUES (new.rowid, new.heading_path, new.text);
    END;
    CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
      INSERT INTO chunks_fts(chunks_fts, rowid, heading_path, text) VALUES ('delete', old.rowid, old.heading_path, old.text);
    END;
    CREATE TRIGGER chunks_au AFTER UPDATE ON chunks BEGIN
      INSERT INTO chunks_fts(chunks_fts, rowid, heading_path, text) VALUES ('delete', old.rowid, old.heading_path, old.text);
      INSERT INTO chunks_fts(rowid, heading_path, text) VALUES (new.rowid, new.heading_path, new.text);
    END;

    CREATE TABLE embedding_models (
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      name       TEXT NOT NULL,
      digest     TEXT NOT NULL,
      dimension  INTEGER NOT NULL CHECK (dimension > 0),
      table_name TEXT NOT NULL UNIQUE,
      added_at   TEXT NOT NULL,
      UNIQUE (name, digest, dimension)
    );

    -- Which documents have a complete set of vectors in which model's table.
    -- Written in the same transaction as the vectors themselves.
    CREATE TABLE document_embeddings (
      document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
      model_id    INTEGER NOT NULL REFERENCES embedding_models(id) ON DELETE CASCADE,
      embedded_at TEXT NOT NULL,
      PRIMARY KEY (document_id, model_id)
    );

    CREATE TABLE settings (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );

    -- Append-only: no foreign keys, so the record outlives what it describes.
    CREATE TABLE events (
      id            INTEGER PRIMARY KEY AUTOINCREMENT,
      at            TEXT NOT NULL,
      kind          TEXT NOT NULL,
      collection_id TEXT,
      document_id   TEXT,
      path          TEXT,
      detail        TEXT
    );
    CREATE INDEX events_document ON events(document_id);
  `,
};
