import type { Migration } from './types';

/**
 * The model bench: questions saved from answers ("save as test") and the reports of evaluation
 * runs, kept whole as JSON so an old report can be reopened, exported or rerun.
 */
export const migration0003: Migration = {
  version: 3,
  name: 'bench',
  up: `
    CREATE TABLE saved_questions (
      id           TEXT PRIMARY KEY,
      question     TEXT NOT NULL,
      chunk_fact   TEXT,
      answer_regex TEXT,
      answerable   INTEGER NOT NULL CHECK (answerable IN (0, 1)),
      file         TEXT,
      -- The folder the question was saved for; NULL applies to every folder.
      root         TEXT,
      created_at   TEXT NOT NULL,
      CHECK (answerable = 1 OR chunk_fact IS NULL)
    );

    CREATE TABLE eval_reports (
      id           INTEGER PRIMARY KEY AUTOINCREMENT,
      created_at   TEXT NOT NULL,
      docs         TEXT NOT NULL,
      question_set TEXT NOT NULL,
      configs      INTEGER NOT NULL,
      questions    INTEGER NOT NULL,
      ms           REAL NOT NULL,
      report       TEXT NOT NULL
    );
  `,
};
