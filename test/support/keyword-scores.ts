import type { Db } from '../../electron/core/db/open';
import type { NotesFolder } from './notes';

/** Notes whose words recur across them, so bm25's idf and lengths depend on every row counted. */
export const TOPICS = ['deploy keys rotate', 'bread dough rise', 'garden tomatoes water', 'bicycle chain oil', 'tax return receipts', 'guitar strings tune'];

export const writeNotes = (folder: NotesFolder, version: number, topics: readonly string[] = TOPICS, prefix = 'n') => {
  topics.forEach((t, i) => folder.write(`${prefix}${i}.md`, `# Note ${i}\n\n${'We ' + t + ' on Mondays. '.repeat(1 + ((i + version) % 3))}\n\n## More\n\nVersion ${version} of the ${t} note.\n`));
};

/** bm25 of every row matching `match` (the notes' words by default), by document path and heading: what ranking reads from FTS5's totals. */
export const scores = (db: Db, table: 'chunks_fts' | 'sections_fts', match = 'rotate OR bread OR version') => {
  const join = table === 'chunks_fts' ? 'JOIN chunks x ON x.rowid = f.rowid JOIN documents d ON d.id = x.document_id' : 'JOIN sections x ON x.rowid = f.rowid JOIN documents d ON d.id = x.document_id';
  const rows = db.prepare(`SELECT d.rel_path || '#' || x.heading_path AS at, bm25(${table}) AS s FROM ${table} f ${join} WHERE ${table} MATCH ? ORDER BY at`).all(match) as Array<{ at: string; s: number }>;
  return rows.map((r) => `${r.at} ${r.s.toFixed(9)}`);
};

/**
 * The row count FTS5's bm25 uses: the first varint of the index's averages record (rowid 1 of its
 * `_data` table, fts5_index.c), which counts every row inserted since the index was emptied, the
 * deleted ones of a contentless_delete table included.
 */
export const ftsTotalRows = (db: Db, table: string): number => {
  const block = db.prepare(`SELECT block FROM ${table}_data WHERE id = 1`).pluck().get() as Buffer | undefined;
  if (!block) return 0;
  let n = 0;
  for (let i = 0; i < 9; i++) {
    const c = block[i]!;
    n = n * 128 + (c & 0x7f);
    if (!(c & 0x80)) break;
  }
  return n;
};
