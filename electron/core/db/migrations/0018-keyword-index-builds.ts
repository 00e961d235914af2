import type { Migration } from './types';

/**
 * A full-text index's statistics are rebuilt in a shadow table, batch by batch, each batch its own
 * short write transaction (db/keyword-index-build.ts), instead of in one transaction that held the
 * write lock for 10–18 s at 100,000 chunks. A row here is a build under way and its claim:
 * every rowid of the base table (chunks or sections) at or below `cursor` is in the shadow, copied
 * by a batch or kept there by the shadow's triggers; `deleted` counts rows deleted from the shadow
 * since it began (bm25's totals keep them, as the live index's do: keyword_index_churn, migration
 * 0017); `owner` and `heartbeat` (ms since 1970, at its last batch) say which connection is building
 * and whether it still is. The shadow table and its triggers exist only while a row does.
 */
export const migration0018: Migration = {
  version: 18,
  name: 'keyword-index-builds',
  up: `
    CREATE TABLE keyword_index_builds (
      fts       TEXT PRIMARY KEY,
      cursor    INTEGER NOT NULL,
      deleted   INTEGER NOT NULL DEFAULT 0,
      owner     TEXT NOT NULL,
      heartbeat INTEGER NOT NULL
    ) WITHOUT ROWID;
  `,
};
