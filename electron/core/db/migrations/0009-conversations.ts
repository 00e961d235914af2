import type { Migration } from './types';

/**
 * Conversations that last: each is a titled list of turns, and each turn points at the run that
 * answered it (the run keeps the answer, its citations with their checks and its budget). The turn
 * keeps its own copy of the question so that a turn whose run was deleted — forgetting a folder
 * deletes the runs that quoted it (db/runs.ts purgeRunsQuoting) — still shows what was asked; that
 * is also why run_id is not a foreign key: the turn must outlive its run. Deleting a conversation
 * deletes its turns (cascade) and its runs (db/conversations.ts).
 */
export const migration0009: Migration = {
  version: 9,
  name: 'conversations',
  up: `
    CREATE TABLE conversations (
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      title      TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX conversations_updated ON conversations (updated_at DESC, id DESC);

    CREATE TABLE conversation_turns (
      conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      ordinal         INTEGER NOT NULL,
      run_id          INTEGER NOT NULL,
      question        TEXT NOT NULL,
      asked_at        TEXT NOT NULL,
      PRIMARY KEY (conversation_id, ordinal)
    );
    CREATE INDEX conversation_turns_run ON conversation_turns (run_id);
  `,
};
