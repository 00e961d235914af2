import type { Db } from './open';
import { stmt } from './statements';

/**
 * SQL joining a chunk (by its table alias) to the section holding it: the last section of its
 * document starting at or before it (one index seek on (document_id, first_ordinal), where a
 * BETWEEN test scans every earlier section), and only if it reaches the chunk. The alias is ours,
 * never input.
 */
export function sectionOfChunk(chunk: string, section = 's'): string {
  return `${section}.rowid = (SELECT x.rowid FROM sections x WHERE x.document_id = ${chunk}.document_id AND x.first_ordinal <= ${chunk}.ordinal
                              ORDER BY x.first_ordinal DESC LIMIT 1) AND ${chunk}.ordinal <= ${section}.last_ordinal`;
}

/** A run of consecutive chunks of one document under one heading path (see migration 0004). */
export interface SectionRun {
  firstOrdinal: number;
  lastOrdinal: number;
  headingPath: string;
  text: string;
}

/** Chunks in ordinal order → their sections. */
export function sectionRuns(chunks: ReadonlyArray<{ ordinal: number; headingPath: string; text: string }>): SectionRun[] {
  const runs: SectionRun[] = [];
  for (const c of chunks) {
    const last = runs.at(-1);
    if (last && last.headingPath === c.headingPath && last.lastOrdinal === c.ordinal - 1) {
      last.lastOrdinal = c.ordinal;
      last.text += `\n${c.text}`;
    } else {
      runs.push({ firstOrdinal: c.ordinal, lastOrdinal: c.ordinal, headingPath: c.headingPath, text: c.text });
    }
  }
  return runs;
}

/**
 * SQL for the folder part of a relative path, up to its last slash ('' at the top): what the
 * full-text indexes' folder column holds (migration 0013's triggers write the same expression).
 */
export function folderOfSql(relPath: string): string {
  return `rtrim(${relPath}, replace(${relPath}, '/', ''))`;
}

/** Writes a document's sections and their full-text rows; the caller holds the write transaction. */
export function writeSections(db: Db, documentId: string, chunks: ReadonlyArray<{ ordinal: number; headingPath: string; text: string }>): void {
  const insert = stmt(db, 'INSERT INTO sections (document_id, first_ordinal, last_ordinal, heading_path) VALUES (?, ?, ?, ?)');
  // The folder column is the document's folder (migration 0013): the document row is written first.
  // Heading and text as a reader sees them (migration 0014), as the chunks' own rows are.
  const index = stmt(db, `INSERT INTO sections_fts (rowid, heading_path, text, folder) VALUES (?, searchable_text(?), searchable_text(?), (SELECT ${folderOfSql('rel_path')} FROM documents WHERE id = ?))`);
  for (const run of sectionRuns(chunks)) {
    const { lastInsertRowid } = insert.run(documentId, run.firstOrdinal, run.lastOrdinal, run.headingPath);
    index.run(lastInsertRowid, run.headingPath, run.text, documentId);
  }
}

/** Removes a document's sections; their full-text rows go with them (trigger sections_ad). */
export function deleteSections(db: Db, documentId: string): void {
  stmt(db, 'DELETE FROM sections WHERE document_id = ?').run(documentId);
}
