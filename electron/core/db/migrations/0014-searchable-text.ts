import type { Migration } from './types';

/**
 * Both full-text indexes hold what a reader sees of a heading path and a passage: link addresses,
 * reference labels and reference definitions left out (`searchable_text`, text/searchable.ts,
 * registered by db/sql-functions.ts on every connection that migrates, so on every one that writes). The chunks keep their Markdown as written:
 * it is what prompts, citations and the source panel show. The triggers of migration 0013 are
 * replaced, and both indexes rebuilt from what the database holds, so no re-import is needed.
 */
export const migration0014: Migration = {
  version: 14,
  name: 'searchable-text',
  up: `
    DROP TRIGGER chunks_ai;
    DROP TRIGGER chunks_au;

    CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
      INSERT INTO chunks_fts (rowid, heading_path, text, folder)
        VALUES (new.rowid, searchable_text(new.heading_path), searchable_text(new.text), (SELECT rtrim(rel_path, replace(rel_path, '/', '')) FROM documents WHERE id = new.document_id));
    END;
    CREATE TRIGGER chunks_au AFTER UPDATE OF document_id, heading_path, text ON chunks BEGIN
      DELETE FROM chunks_fts WHERE rowid = old.rowid;
      INSERT INTO chunks_fts (rowid, heading_path, text, folder)
        VALUES (new.rowid, searchable_text(new.heading_path), searchable_text(new.text), (SELECT rtrim(rel_path, replace(rel_path, '/', '')) FROM documents WHERE id = new.document_id));
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
