import type { Db } from './open';
import { folderOfSql } from './sections';
import { stmt } from './statements';

/**
 * Keeps bm25's corpus statistics true. Both full-text indexes are contentless with
 * contentless_delete=1 (migration 0013), and FTS5 does not take a row deleted from such a table out
 * of the totals bm25 reads: the row count and each column's token count (checked on SQLite 3.53:
 * four rows, two deleted, the totals still say four). Every re-imported, moved or deleted document
 * leaves its old chunks counted, so a folder whose notes are edited drifts from the statistics of
 * its own text: every idf grows and the rare words' share of a score with it. Measured on the Rust
 * book re-imported once (every row counted twice), keyword search's fact sent fell from 91 to 87%
 * and hit@5 from 94 to 91% (npm run bench:retrieval, rust-book, an index re-cut in place).
 *
 * FTS5 offers no recount for a contentless table, so each delete trigger counts the rows it
 * deletes (migration 0017) and an index is rebuilt from what the database holds once its deleted
 * rows reach REBUILD_SHARE of its live rows, once per tenth of the folder replaced: 0.25 s for
 * 8,000 chunks, 7–18 s for 100,000 chunks and 25,000 sections on two shared cores
 * (npx tsx test/bench/perf-searchable.ts --chunks 100000), in the write transaction: searches read
 * the old index, but this thread is busy throughout, and another process's writes wait only their
 * 5 s busy timeout (db/open.ts), so a concurrent import's documents fail meanwhile (WRITE_FAILED).
 * At a tenth, a rare word's idf is off by about ln 1.1 ≈ 0.1.
 */
export const REBUILD_SHARE = 0.1;

export type KeywordIndex = 'chunks_fts' | 'sections_fts';

/** Every row of each index as the triggers and writeSections write it: heading and text as read, the folder. */
export const REBUILD_SQL: Record<KeywordIndex, string> = {
  chunks_fts: `
    INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all');
    INSERT INTO chunks_fts (rowid, heading_path, text, folder)
      SELECT c.rowid, searchable_text(c.heading_path), searchable_text(c.text), ${folderOfSql('d.rel_path')}
        FROM chunks c JOIN documents d ON d.id = c.document_id;
    UPDATE keyword_index_churn SET deleted = 0 WHERE fts = 'chunks_fts';`,
  sections_fts: `
    INSERT INTO sections_fts (sections_fts) VALUES ('delete-all');
    INSERT INTO sections_fts (rowid, heading_path, text, folder)
      SELECT s.rowid, searchable_text(s.heading_path),
             searchable_text((SELECT group_concat(c.text, char(10) ORDER BY c.ordinal) FROM chunks c
               WHERE c.document_id = s.document_id AND c.ordinal BETWEEN s.first_ordinal AND s.last_ordinal)),
             ${folderOfSql('d.rel_path')}
        FROM sections s JOIN documents d ON d.id = s.document_id;
    UPDATE keyword_index_churn SET deleted = 0 WHERE fts = 'sections_fts';`,
};

const LIVE_ROWS: Record<KeywordIndex, string> = { chunks_fts: 'SELECT count(*) FROM chunks', sections_fts: 'SELECT count(*) FROM sections' };

export interface Churn {
  fts: KeywordIndex;
  /** Rows deleted since the index was last built whole: still in bm25's totals. */
  deleted: number;
  /** Rows the index holds. */
  rows: number;
}

export function keywordIndexChurn(db: Db): Churn[] {
  const deleted = new Map((stmt(db, 'SELECT fts, deleted FROM keyword_index_churn').all() as Array<{ fts: KeywordIndex; deleted: number }>).map((r) => [r.fts, r.deleted]));
  return (['chunks_fts', 'sections_fts'] as const).map((fts) => ({ fts, deleted: deleted.get(fts) ?? 0, rows: stmt(db, LIVE_ROWS[fts]).pluck().get() as number }));
}

const due = (churn: Churn, share: number) => churn.deleted > 0 && churn.deleted >= share * churn.rows;

/**
 * Rebuilds each index whose deleted rows have reached `share` of its live rows (all of them when
 * it holds none), in one write transaction each, so a search sees the old index or the new one.
 * Returns the indexes rebuilt.
 *
 * It runs after an import's or a forget's own writes, as housekeeping: an index not yet due costs
 * a read and no write lock (an unchanged folder's import needs none), and one due while another
 * connection holds the write lock past the busy timeout (another process's import or rebuild) is
 * left for the next import rather than failing the one that has finished.
 */
export function refreshKeywordStatistics(db: Db, share: number = REBUILD_SHARE): KeywordIndex[] {
  const rebuilt: KeywordIndex[] = [];
  for (const churn of keywordIndexChurn(db)) {
    if (!due(churn, share)) continue;
    let done: boolean;
    try {
      done = db
        .transaction(() => {
          // Read again inside the write transaction: another process may have rebuilt it meanwhile.
          if (!due(keywordIndexChurn(db).find((c) => c.fts === churn.fts)!, share)) return false;
          db.exec(REBUILD_SQL[churn.fts]);
          return true;
        })
        .immediate();
    } catch (e) {
      if (String((e as { code?: unknown }).code).startsWith('SQLITE_BUSY')) continue;
      throw e;
    }
    if (done) rebuilt.push(churn.fts);
  }
  return rebuilt;
}
