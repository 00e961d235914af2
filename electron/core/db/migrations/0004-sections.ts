import type { Migration } from './types';

/**
 * Sections for retrieval: a section is a run of consecutive chunks of one document under the same
 * heading path, and it is indexed whole (heading path and body) in a second, contentless full-text
 * table. A question's words are often spread over a section (its heading and first paragraph name
 * the topic, a later chunk holds the answer), so search scores each chunk by its section as well as
 * by itself. The section rows of existing documents are built here from their chunks, so no
 * re-import is needed.
 */
export const migration0004: Migration = {
  version: 4,
  name: 'sections',
  up: `
    CREATE TABLE sections (
      rowid         INTEGER PRIMARY KEY AUTOINCREMENT,
      document_id   TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
      first_ordinal INTEGER NOT NULL,
      last_ordinal  INTEGER NOT NULL CHECK (last_ordinal >= first_ordinal),
      heading_path  TEXT NOT NULL,
      UNIQUE (document_id, first_ordinal)
    );

    -- Contentless: the text is in chunks already; only the index and its statistics are kept.
    CREATE VIRTUAL TABLE sections_fts USING fts5(
      heading_path, text,
      content = '', contentless_delete = 1,
      tokenize = 'porter unicode61 remove_diacritics 2'
    );

    CREATE TRIGGER sections_ad AFTER DELETE ON sections BEGIN
      DELETE FROM sections_fts WHERE rowid = old.rowid;
    END;

    -- Runs of equal heading paths: within a run, ordinal minus its rank among equal paths is constant.
    INSERT INTO sections (document_id, first_ordinal, last_ordinal, heading_path)
      SELECT document_id, min(ordinal), max(ordinal), heading_path FROM (
        SELECT document_id, ordinal, heading_path,
               ordinal - row_number() OVER (PARTITION BY document_id, heading_path ORDER BY ordinal) AS run
          FROM chunks)
       GROUP BY document_id, heading_path, run
       ORDER BY document_id, min(ordinal);

    INSERT INTO sections_fts (rowid, heading_path, text)
      SELECT s.rowid, s.heading_path,
             (SELECT group_concat(c.text, char(10) ORDER BY c.ordinal) FROM chunks c
               WHERE c.document_id = s.document_id AND c.ordinal BETWEEN s.first_ordinal AND s.last_ordinal)
        FROM sections s;
  `,
};
