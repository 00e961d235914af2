import { DOCUMENT_TYPES, type DocumentType, type Output } from '../../../shared/contract';
import { QuireError } from '../../../shared/errors';
import { hasBitsTable, quantizedBytes } from '../db/bit-vectors';
import { countDocumentsMissingVectors } from '../db/documents';
import { getActiveEmbeddingModel, listEmbeddingModels, storedVectorCount } from '../db/embedding-models';
import { withTag } from '../ollama/gateway';
import type { Db } from '../db/open';
import { warningFlags } from '../text/injection';
import { headingAsRead } from '../text/searchable';

type LibraryDocument = Output<'library'>['collections'][number]['documents'][number];

/** A collection's documents as the library shows them, with needs-embedding derived for the active model. */
export function libraryDocuments(db: Db, collectionId: string): LibraryDocument[] {
  const active = getActiveEmbeddingModel(db);
  const rows = db
    .prepare(
      `SELECT d.id, d.rel_path, d.title, d.reader, d.status, d.status_code, d.status_message, d.chunk_count, d.ingested_at,
              EXISTS (SELECT 1 FROM document_embeddings e WHERE e.document_id = d.id AND e.model_id = ?) AS embedded
         FROM documents d WHERE d.collection_id = ? ORDER BY d.rel_path`,
    )
    .all(active?.id ?? -1, collectionId) as Array<{
    id: string;
    rel_path: string;
    title: string | null;
    reader: string | null;
    status: 'ready' | 'skipped' | 'error';
    status_code: string | null;
    status_message: string | null;
    chunk_count: number;
    ingested_at: string;
    embedded: number;
  }>;
  return rows.map((r) => ({
    id: r.id,
    relPath: r.rel_path,
    title: r.title,
    type: documentType(r.reader),
    status: r.status === 'ready' && r.chunk_count > 0 && !r.embedded ? 'needs-embedding' : r.status,
    statusCode: r.status_code,
    statusMessage: r.status_message,
    chunks: r.chunk_count,
    ingestedAt: r.ingested_at,
  }));
}

/** Reader names are the type names; a reader unknown to this version has no type to show. */
function documentType(reader: string | null): DocumentType | null {
  return (DOCUMENT_TYPES as readonly (string | null)[]).includes(reader) ? (reader as DocumentType) : null;
}

/**
 * A chunk for the source panel, with its context: the chunks sent to the model with it before and
 * after it (`sent`, joined into one run each side, as the passage joined them), else on a side
 * where none was sent, the chunk next to it.
 */
export function chunkView(db: Db, chunkId: string, sent: readonly string[] = []): Output<'getChunk'> {
  const row = db
    .prepare(
      `SELECT c.id, c.document_id, c.ordinal, c.heading_path, c.text, c.start_line, c.end_line, c.page_start, c.page_end, c.flags, d.rel_path, col.root
         FROM chunks c JOIN documents d ON d.id = c.document_id JOIN collections col ON col.id = d.collection_id
        WHERE c.id = ?`,
    )
    .get(chunkId) as
    | { id: string; document_id: string; ordinal: number; heading_path: string; text: string; start_line: number; end_line: number; page_start: number | null; page_end: number | null; flags: string; rel_path: string; root: string }
    | undefined;
  if (!row) throw new QuireError('INVALID_ARGUMENT', 'That passage is no longer in the index (the file changed or was removed).');
  const neighbour = (ordinal: number) => {
    const n = db.prepare('SELECT id, text, start_line, end_line FROM chunks WHERE document_id = ? AND ordinal = ?').get(row.document_id, ordinal) as
      | { id: string; text: string; start_line: number; end_line: number }
      | undefined;
    return n ? { chunkId: n.id, text: n.text, lines: [n.start_line, n.end_line] as [number, number] } : null;
  };
  // The sent chunks of this document, by ordinal; only an unbroken run next to the cited one counts.
  const sentRows = sent.length === 0 ? [] : (db
    .prepare('SELECT c.id, c.ordinal, c.text, c.start_line, c.end_line FROM json_each(?) j JOIN chunks c ON c.id = j.value WHERE c.document_id = ?')
    .all(JSON.stringify(sent), row.document_id) as Array<{ id: string; ordinal: number; text: string; start_line: number; end_line: number }>);
  const byOrdinal = new Map(sentRows.map((r) => [r.ordinal, r]));
  const run = (step: -1 | 1) => {
    const rows = [];
    for (let o = row.ordinal + step; byOrdinal.has(o); o += step) rows.push(byOrdinal.get(o)!);
    if (step < 0) rows.reverse();
    if (rows.length === 0) return neighbour(row.ordinal + step);
    return { chunkId: rows[0]!.id, text: lineAligned(rows), lines: [rows[0]!.start_line, rows.at(-1)!.end_line] as [number, number] };
  };
  return {
    chunkId: row.id,
    path: row.rel_path,
    root: row.root,
    heading: headingAsRead(row.heading_path),
    lines: [row.start_line, row.end_line],
    pages: row.page_start !== null && row.page_end !== null ? [row.page_start, row.page_end] : null,
    text: row.text,
    flags: warningFlags(JSON.parse(row.flags) as string[]),
    before: run(-1),
    after: run(1),
  };
}

/**
 * Chunks in document order joined so that each sits on its own lines, as the panel numbers them:
 * the blank lines between two chunks belong to neither, so they are put back; a chunk that goes on
 * where a long line was split continues that line (the split was at a space).
 */
function lineAligned(rows: ReadonlyArray<{ text: string; start_line: number; end_line: number }>): string {
  return rows.map((r, i) => (i === 0 ? '' : r.start_line === rows[i - 1]!.end_line ? ' ' : '\n'.repeat(Math.max(1, r.start_line - rows[i - 1]!.end_line))) + r.text).join('');
}

/** Every stored model's vectors, newest first, for Settings (and the CLI's status). */
export function vectorStores(db: Db, chosenModel: string): Output<'vectorStores'>['stores'] {
  const active = getActiveEmbeddingModel(db);
  const chosen = withTag(chosenModel);
  return listEmbeddingModels(db)
    .reverse()
    .map((m) => {
      const vectors = storedVectorCount(db, m.id);
      return {
        modelId: m.id,
        name: m.name,
        digest: m.digest,
        dimension: m.dimension,
        vectors,
        documentsMissing: countDocumentsMissingVectors(db, m.id),
        active: active?.id === m.id,
        chosen: m.name === chosen,
        // Past the threshold the floats are stored twice (vec0 and the rescoring copy), with the bits.
        bytes: vectors * m.dimension * 4 + (hasBitsTable(db, m) ? quantizedBytes(vectors, m.dimension) : 0),
      };
    });
}
