import type { Migration } from './types';

/**
 * Grounded answers: injection flags travel with each chunk; every question asked leaves a run
 * (the trace a bad answer is debugged from); per-model calibration of our token estimate
 * against what Ollama reports.
 */
export const migration0002: Migration = {
  version: 2,
  name: 'answers',
  up: `
    -- JSON array of injection flags found at import; '[]' when clean.
    ALTER TABLE chunks ADD COLUMN flags TEXT NOT NULL DEFAULT '[]';

    CREATE TABLE runs (
      id                   INTEGER PRIMARY KEY AUTOINCREMENT,
      started_at           TEXT NOT NULL,
      finished_at          TEXT,
      status               TEXT NOT NULL CHECK (status IN ('running', 'answered', 'refused', 'error', 'cancelled')),
      question             TEXT NOT NULL,
      standalone_query     TEXT,
      history_turns        INTEGER NOT NULL DEFAULT 0,
      retrieval_mode       TEXT,
      retrieval            TEXT NOT NULL DEFAULT '[]',
      sent_chunk_ids       TEXT NOT NULL DEFAULT '[]',
      k                    INTEGER,
      num_ctx              INTEGER,
      budget               TEXT,
      estimated_tokens     INTEGER,
      prompt_eval_count    INTEGER,
      eval_count           INTEGER,
      done_reason          TEXT,
      truncation_suspected INTEGER NOT NULL DEFAULT 0,
      latency              TEXT,
      chat_model           TEXT,
      chat_digest          TEXT,
      embed_model          TEXT,
      embed_digest         TEXT,
      answer               TEXT,
      citations            TEXT NOT NULL DEFAULT '[]',
      flags                TEXT NOT NULL DEFAULT '[]',
      error_code           TEXT,
      error_message        TEXT
    );

    CREATE TABLE calibration (
      model      TEXT NOT NULL,
      digest     TEXT NOT NULL,
      ratio      REAL NOT NULL CHECK (ratio > 0),
      samples    INTEGER NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (model, digest)
    );
  `,
};
