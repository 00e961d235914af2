import type { Migration } from './types';

/**
 * bm25's totals in both full-text indexes kept every row ever deleted (FTS5's contentless_delete
 * tables never subtract one; db/keyword-statistics.ts). The delete triggers now count the rows
 * they delete, so an index is rebuilt once enough have gone, and both are rebuilt here, which
 * gives a database that has been re-imported the statistics of its own text again. The rebuild is
 * written out here, as db/keyword-statistics.ts's REBUILD_SQL was when this shipped: a migration
 * must not change when live code does.
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

    INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all');
    INSERT INTO chunks_fts (rowid, heading_path, text, folder)
      SELECT c.rowid, searchable_text(c.heading_path), searchable_text(c.text), rtrim(d.rel_path, replace(d.rel_path, '/', ''))
        FROM chunks c JOIN documents d ON d.id = c.document_id;

    INSERT INTO sections_fts (sections_fts) VALUES ('delete-all');
    INSERT INTO sections_fts (rowid, heading_path, text, folder)
      SELECT s.rowid, searchable_text(s.heading_path),
             searchable_text((SELECT group_concat(c.text, char(10) ORDER BY c.ordinal) FROM chunks c
               WHERE c.document_id = s.document_id AND c.ordinal BETWEEN s.first_ordinal AND s.last_ordinal)),
             rtrim(d.rel_path, replace(d.rel_path, '/', ''))
        FROM sections s JOIN documents d ON d.id = s.document_id;
  `,
};
