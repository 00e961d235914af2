import { REBUILD_SQL } from '../keyword-statistics';
import type { Migration } from './types';

/**
 * bm25's totals in both full-text indexes kept every row ever deleted (FTS5's contentless_delete
 * tables never subtract one; db/keyword-statistics.ts). The delete triggers now count the rows
 * they delete, so an index is rebuilt once enough have gone, and both are rebuilt here, which
 * gives a database that has been re-imported the statistics of its own text again.
 */
export const migration0017: Migration = {
  version: 17,
  name: 'keyword-statistics',
  up: `
    CREATE TABLE keyword_index_churn (fts TEXT PRIMARY KEY, deleted INTEGER NOT NULL) WITHOUT ROWID;
    INSERT INTO keyword_index_churn (fts, deleted) VALUES ('chunks_fts', 0), ('sections_fts', 0);

    DROP TRIGGER chunks_ad;
    DROP TRIGGER chunks_au;
    DROP TRIGGER sections_ad;
    CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
      DELETE FROM chunks_fts WHERE rowid = old.rowid;
      UPDATE keyword_index_churn SET deleted = deleted + 1 WHERE fts = 'chunks_fts';
    END;
    CREATE TRIGGER chunks_au AFTER UPDATE OF document_id, heading_path, text ON chunks BEGIN
      DELETE FROM chunks_fts WHERE rowid = old.rowid;
      UPDATE keyword_index_churn SET deleted = deleted + 1 WHERE fts = 'chunks_fts';
      INSERT INTO chunks_fts (rowid, heading_path, text, folder)
        VALUES (new.rowid, searchable_text(new.heading_path), searchable_text(new.text), (SELECT rtrim(rel_path, replace(rel_path, '/', '')) FROM documents WHERE id = new.document_id));
    END;
    CREATE TRIGGER sections_ad AFTER DELETE ON sections BEGIN
      DELETE FROM sections_fts WHERE rowid = old.rowid;
      UPDATE keyword_index_churn SET deleted = deleted + 1 WHERE fts = 'sections_fts';
    END;
    ${REBUILD_SQL.chunks_fts}
    ${REBUILD_SQL.sections_fts}
  `,
};
