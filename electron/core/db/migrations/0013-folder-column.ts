import type { Migration } from './types';

/**
 * The document's folder as a third full-text column of chunks and sections. A folder name says what
 * the notes in it are about where their text does not (`linux/`, `windows/`, `guides/networking/`):
 * a question that names it ("on windows", "in the networking guide") should prefer them. Only the
 * folders, not the file name: a file's name is mostly its title, which the heading path already
 * holds. `rtrim(p, replace(p, '/', ''))` is the path up to its last slash ('' at the top).
 *
 * chunks_fts becomes contentless (as sections_fts is): an external-content table must find each
 * column in its content table, and chunks has no folder. A row is deleted by rowid, so no trigger has
 * to know what a row was indexed with; the folder is read from the document, which is written before
 * its chunks (and, for a moved document, before its chunks are re-pointed to it). Both indexes are
 * rebuilt here from what the database holds, so no re-import is needed.
 */
export const migration0013: Migration = {
  version: 13,
  name: 'folder-column',
  up: `
    DROP TRIGGER chunks_ai;
    DROP TRIGGER chunks_ad;
    DROP TRIGGER chunks_au;
    DROP TABLE chunks_fts;

    CREATE VIRTUAL TABLE chunks_fts USING fts5(
      heading_path, text, folder,
      content = '', contentless_delete = 1,
      tokenize = 'porter unicode61 remove_diacritics 2'
    );

    CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
      INSERT INTO chunks_fts (rowid, heading_path, text, folder)
        VALUES (new.rowid, new.heading_path, new.text, (SELECT rtrim(rel_path, replace(rel_path, '/', '')) FROM documents WHERE id = new.document_id));
    END;
    CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
      DELETE FROM chunks_fts WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER chunks_au AFTER UPDATE OF document_id, heading_path, text ON chunks BEGIN
      DELETE FROM chunks_fts WHERE rowid = old.rowid;
      INSERT INTO chunks_fts (rowid, heading_path, text, folder)
        VALUES (new.rowid, new.heading_path, new.text, (SELECT rtrim(rel_path, replace(rel_path, '/', '')) FROM documents WHERE id = new.document_id));
    END;

    INSERT INTO chunks_fts (rowid, heading_path, text, folder)
      SELECT c.rowid, c.heading_path, c.text, rtrim(d.rel_path, replace(d.rel_path, '/', ''))
        FROM chunks c JOIN documents d ON d.id = c.document_id;

    DROP TRIGGER sections_ad;
    DROP TABLE sections_fts;

    CREATE VIRTUAL TABLE sections_fts USING fts5(
      heading_path, text, folder,
      content = '', contentless_delete = 1,
      tokenize = 'porter unicode61 remove_diacritics 2'
    );

    CREATE TRIGGER sections_ad AFTER DELETE ON sections BEGIN
      DELETE FROM sections_fts WHERE rowid = old.rowid;
    END;

    INSERT INTO sections_fts (rowid, heading_path, text, folder)
      SELECT s.rowid, s.heading_path,
             (SELECT group_concat(c.text, char(10) ORDER BY c.ordinal) FROM chunks c
               WHERE c.document_id = s.document_id AND c.ordinal BETWEEN s.first_ordinal AND s.last_ordinal),
             rtrim(d.rel_path, replace(d.rel_path, '/', ''))
        FROM sections s JOIN documents d ON d.id = s.document_id;
  `,
};
