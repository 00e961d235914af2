import { createHash } from 'node:crypto';
import type { Chunk } from './chunk';
import { deleteVector, insertVector, listEmbeddingModels, type EmbeddingModelRow } from './embedding-models';
import { appendEvent } from './events';
import { purgeRunsQuoting, repointRuns } from './runs';
import { deleteSections, writeSections } from './sections';
import type { Db } from './open';
import { stmt } from './statements';

export type StoredStatus = 'ready' | 'skipped' | 'error';
/** What a person sees: 'needs-embedding' is 'ready' text lacking vectors for the active model. */
export type DocumentStatus = StoredStatus | 'needs-embedding';

export interface DocumentRow {
  id: string;
  collectionId: string;
  relPath: string;
  sourceUri: string;
  title: string | null;
  size: number;
  mtimeMs: number;
  sha256: string | null;
  reader: string | null;
  readerVersion: number | null;
  chunker: string | null;
  ingestedAt: string;
  status: StoredStatus;
  statusCode: string | null;
  statusMessage: string | null;
}

export function documentIdFor(collectionId: string, relPath: string): string {
  return createHash('sha256').update(`${collectionId}\0${relPath}`).digest('hex').slice(0, 12);
}

export function chunkIdFor(documentId: string, ordinal: number): string {
  return `${documentId}#${ordinal}`;
}

export function getDocument(db: Db, id: string): DocumentRow | null {
  const r = stmt(db, 'SELECT * FROM documents WHERE id = ?').get(id) as RawDoc | undefined;
  return r ? fromRaw(r) : null;
}

export function listDocuments(db: Db, collectionId: string): DocumentRow[] {
  return (stmt(db, 'SELECT * FROM documents WHERE collection_id = ? ORDER BY rel_path').all(collectionId) as RawDoc[]).map(fromRaw);
}

/** A chunk as stored: with the injection flags found in it at import. */
export type StoredChunk = Chunk & { flags: readonly string[] };

export interface DocumentVersion {
  meta: Omit<DocumentRow, 'ingestedAt' | 'status' | 'statusCode' | 'statusMessage'>;
  chunks: readonly StoredChunk[];
  /** Vectors for `chunks`, in order, and the model they belong to; absent when Ollama was not used. */
  embedding?: { model: EmbeddingModelRow; vectors: readonly Float32Array[] };
}

/**
 * Swaps a document to a new version in ONE synchronous transaction: old chunks, their FTS rows
 * (by trigger), their sections and their vectors in every model's table go; new chunks, FTS rows,
 * sections and vectors come in; the row and an event are written. A crash leaves the old version or the new one.
 */
export function writeDocumentVersion(db: Db, version: DocumentVersion): 'added' | 'replaced' {
  const { meta, chunks, embedding } = version;
  if (embedding && embedding.vectors.length !== chunks.length) {
    throw new Error(`writeDocumentVersion: ${embedding.vectors.length} vectors for ${chunks.length} chunks.`);
  }
  return db.transaction(() => {
    const existed = removeDerived(db, meta.id);
    stmt(db, 
      `INSERT INTO documents (id, collection_id, rel_path, source_uri, title, size, mtime_ms, sha256, reader, reader_version, chunker, chunk_count, ingested_at, status, status_code, status_message)
       VALUES (@id, @collectionId, @relPath, @sourceUri, @title, @size, @mtimeMs, @sha256, @reader, @readerVersion, @chunker, @chunkCount, @ingestedAt, 'ready', NULL, NULL)
       ON CONFLICT(id) DO UPDATE SET source_uri = excluded.source_uri, title = excluded.title, size = excluded.size,
         mtime_ms = excluded.mtime_ms, sha256 = excluded.sha256, reader = excluded.reader, reader_version = excluded.reader_version,
         chunker = excluded.chunker, chunk_count = excluded.chunk_count, ingested_at = excluded.ingested_at, status = 'ready', status_code = NULL, status_message = NULL`,
    ).run({ ...meta, chunkCount: chunks.length, ingestedAt: new Date().toISOString() });
    const insertChunk = stmt(db, 
      'INSERT INTO chunks (id, document_id, ordinal, heading_path, text, token_count, start_line, end_line, page_start, page_end, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    chunks.forEach((c, i) => {
      const { lastInsertRowid } = insertChunk.run(chunkIdFor(meta.id, c.ordinal), meta.id, c.ordinal, c.headingPath, c.text, c.tokenCount, c.startLine, c.endLine, c.pages?.[0] ?? null, c.pages?.[1] ?? null, JSON.stringify(c.flags));
      if (embedding) insertVector(db, embedding.model, lastInsertRowid, embedding.vectors[i]!);
    });
    writeSections(db, meta.id, chunks);
    if (embedding) markEmbedded(db, meta.id, embedding.model);
    const outcome = existed ? 'replaced' : 'added';
    appendEvent(db, {
      kind: existed ? 'document.replaced' : 'document.added',
      collectionId: meta.collectionId,
      documentId: meta.id,
      path: meta.relPath,
      detail: { sha256: meta.sha256, chunks: chunks.length, embeddedWith: embedding?.model.name ?? null },
    });
    return outcome;
  }).immediate();
}

/**
 * Adds vectors for a document's stored chunks (no re-read), all or nothing. The document may have
 * been replaced while its vectors were being computed: then its chunks are no longer the ones
 * embedded, nothing is written, and false tells the caller to leave it for a later run.
 */
export function writeDocumentVectors(db: Db, documentId: string, model: EmbeddingModelRow, rowids: readonly number[], vectors: readonly Float32Array[]): boolean {
  return db.transaction(() => {
    const current = stmt(db, "SELECT c.rowid FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.document_id = ? AND d.status = 'ready' ORDER BY c.ordinal")
      .pluck()
      .all(documentId) as number[];
    if (current.length !== rowids.length || current.some((r, i) => r !== rowids[i])) return false;
    rowids.forEach((rowid, i) => {
      deleteVector(db, model, rowid);
      insertVector(db, model, rowid, vectors[i]!);
    });
    markEmbedded(db, documentId, model);
    return true;
  }).immediate();
}

/**
 * Documents whose text is indexed but which lack vectors from this model (by row id; -1 or an
 * unknown id means every such document), in the order they are embedded.
 */
// Ready documents with chunks but no vectors from the model: one definition for listing and counting.
const MISSING_VECTORS = `FROM documents d
      WHERE d.status = 'ready' AND d.chunk_count > 0 AND (@collection IS NULL OR d.collection_id = @collection)
        AND NOT EXISTS (SELECT 1 FROM document_embeddings e WHERE e.document_id = d.id AND e.model_id = @model)`;

/** Documents with text lacking vectors from every stored version of a model name; `limit` stops counting early. */
const MISSING_VECTORS_OF_NAME = `FROM documents d
      WHERE d.status = 'ready' AND d.chunk_count > 0 AND (@collection IS NULL OR d.collection_id = @collection)
        AND NOT EXISTS (SELECT 1 FROM document_embeddings e JOIN embedding_models m ON m.id = e.model_id
                         WHERE e.document_id = d.id AND m.name = @name)`;

export function countDocumentsMissingModel(db: Db, name: string, options: { collectionId?: string; limit?: number } = {}): number {
  return stmt(db, `SELECT count(*) FROM (SELECT 1 ${MISSING_VECTORS_OF_NAME} LIMIT @limit)`)
    .pluck()
    .get({ collection: options.collectionId ?? null, name, limit: options.limit ?? -1 }) as number;
}

/** The paths (in the folder's order) of a folder's documents with text but no vectors from any version of a model name: the first `limit`. */
export function pathsMissingModel(db: Db, name: string, collectionId: string, limit: number): string[] {
  return stmt(db, `SELECT d.rel_path ${MISSING_VECTORS_OF_NAME} ORDER BY d.rel_path LIMIT @limit`)
    .pluck()
    .all({ collection: collectionId, name, limit }) as string[];
}

export function documentsMissingVectors(db: Db, modelId: number, collectionId?: string): string[] {
  return stmt(db, `SELECT d.id ${MISSING_VECTORS} ORDER BY d.collection_id, d.rel_path`)
    .pluck()
    .all({ collection: collectionId ?? null, model: modelId }) as string[];
}

export function countDocumentsMissingVectors(db: Db, modelId: number): number {
  return stmt(db, `SELECT count(*) ${MISSING_VECTORS}`).pluck().get({ collection: null, model: modelId }) as number;
}

function markEmbedded(db: Db, documentId: string, model: EmbeddingModelRow): void {
  stmt(db, 
    'INSERT INTO document_embeddings (document_id, model_id, embedded_at) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET embedded_at = excluded.embedded_at',
  ).run(documentId, model.id, new Date().toISOString());
}

/**
 * Records that a file could not be indexed. Content problems remove the stale version; a transient
 * read error keeps it. An event is written only when the failure is new or different, so
 * re-importing an unchanged folder adds nothing to the log.
 */
export function recordFailure(
  db: Db,
  meta: Pick<DocumentRow, 'id' | 'collectionId' | 'relPath' | 'sourceUri' | 'size' | 'mtimeMs'> & { reader: string | null; readerVersion: number | null },
  failure: { status: 'error' | 'skipped'; code: string; message: string; keepOldVersion: boolean },
): void {
  db.transaction(() => {
    const before = getDocument(db, meta.id);
    if (!failure.keepOldVersion) {
      removeDerived(db, meta.id);
      stmt(db, 'UPDATE documents SET chunk_count = 0 WHERE id = ?').run(meta.id);
    }
    stmt(
      db,
      `INSERT INTO documents (id, collection_id, rel_path, source_uri, size, mtime_ms, reader, reader_version, ingested_at, status, status_code, status_message)
       VALUES (@id, @collectionId, @relPath, @sourceUri, @size, @mtimeMs, @reader, @readerVersion, @at, @status, @code, @message)
       ON CONFLICT(id) DO UPDATE SET status = excluded.status, status_code = excluded.status_code, status_message = excluded.status_message,
         size = excluded.size, mtime_ms = excluded.mtime_ms, reader = excluded.reader, reader_version = excluded.reader_version, ingested_at = excluded.ingested_at`,
    ).run({ ...meta, at: new Date().toISOString(), status: failure.status, code: failure.code, message: failure.message });
    if (before?.status === failure.status && before.statusCode === failure.code && before.statusMessage === failure.message) return;
    appendEvent(db, {
      kind: 'document.failed',
      collectionId: meta.collectionId,
      documentId: meta.id,
      path: meta.relPath,
      detail: { code: failure.code, message: failure.message },
    });
  }).immediate();
}

/** Updates size and mtime of a document whose bytes did not change, so the next scan skips the hash. */
export function touchDocument(db: Db, id: string, size: number, mtimeMs: number): void {
  stmt(db, 'UPDATE documents SET size = ?, mtime_ms = ? WHERE id = ?').run(size, mtimeMs, id);
}

/**
 * Deletes a document and everything derived from it, from every table, in one transaction: its
 * chunks, full-text rows, sections and vectors, the answers (runs) that were given any of its
 * passages, and the questions saved for it. Nothing of its text can surface afterwards.
 */
export function deleteDocument(db: Db, id: string, options: { event?: boolean; reason?: string } = {}): boolean {
  return db.transaction(() => {
    const doc = getDocument(db, id);
    if (!doc) return false;
    removeDerived(db, id);
    const runs = purgeRunsQuoting(db, id);
    const saved = stmt(db, 'DELETE FROM saved_questions WHERE file = ? AND root = (SELECT root FROM collections WHERE id = ?)').run(doc.relPath, doc.collectionId).changes;
    stmt(db, 'DELETE FROM documents WHERE id = ?').run(id);
    if (options.event !== false) {
      appendEvent(db, {
        kind: 'document.deleted',
        collectionId: doc.collectionId,
        documentId: id,
        path: doc.relPath,
        detail: { reason: options.reason ?? 'removed', runs, savedQuestions: saved },
      });
    }
    return true;
  }).immediate();
}

/**
 * Re-points a document whose file was renamed or moved (same bytes, same recipe, same chunks) to its
 * new path, in one transaction, without re-embedding: its chunks keep their rowids, so their
 * full-text rows and vectors stay; chunk ids follow the new document id, in the answers that cited
 * them too. A document already at the new path is replaced. A title taken from the file name
 * changes the heading paths: those are rewritten with their sizes and sections, and the note's
 * vectors, which embedded the old name, are dropped for the next embedding pass to compute again
 * (a note with a title of its own, or moved to another folder, keeps them). Only such a note's few
 * chunks are embedded again, and its vectors then equal a fresh import's
 * (test/reimport-equivalence.test.ts).
 */
export function moveDocument(
  db: Db,
  fromId: string,
  to: Pick<DocumentRow, 'id' | 'relPath' | 'sourceUri' | 'title' | 'size' | 'mtimeMs'>,
  chunks: ReadonlyArray<{ ordinal: number; headingPath: string; text: string; tokenCount: number }>,
): void {
  db.transaction(() => {
    const from = getDocument(db, fromId);
    if (!from) throw new Error(`moveDocument: no document ${fromId}.`);
    if (getDocument(db, to.id)) deleteDocument(db, to.id, { reason: `replaced by ${from.relPath}, moved here` });
    stmt(db, 
      `INSERT INTO documents (id, collection_id, rel_path, source_uri, title, size, mtime_ms, sha256, reader, reader_version, chunker, chunk_count, ingested_at, status, status_code, status_message)
       SELECT @id, collection_id, @relPath, @sourceUri, @title, @size, @mtimeMs, sha256, reader, reader_version, chunker, chunk_count, ingested_at, status, status_code, status_message
         FROM documents WHERE id = @fromId`,
    ).run({ ...to, fromId });
    // Chunk ids are `<document-id>#<ordinal>`: the same ordinal under the new id.
    stmt(db, "UPDATE chunks SET document_id = @to, id = @to || substr(id, length(@from) + 1) WHERE document_id = @from").run({ from: fromId, to: to.id });
    // A chunk's size counts its heading path, which a note titled by its file name changes with the name.
    const heading = stmt(db, 'UPDATE chunks SET heading_path = @headingPath, token_count = @tokenCount WHERE document_id = @id AND ordinal = @ordinal AND heading_path != @headingPath');
    let retitled = 0;
    for (const c of chunks) retitled += heading.run({ headingPath: c.headingPath, tokenCount: c.tokenCount, id: to.id, ordinal: c.ordinal }).changes;
    deleteSections(db, fromId);
    writeSections(db, to.id, chunks);
    stmt(db, 'UPDATE document_embeddings SET document_id = ? WHERE document_id = ?').run(to.id, fromId);
    // A vector embeds its chunk's heading path with the text (ingest/embedding-input.ts), and a note
    // with no title of its own is titled by its file name: renamed, its chunks read under a new path,
    // so the old vectors describe a passage that is no longer there. They are dropped and the note is
    // embedded again (the import's embedding pass, or the next embed run), as a fresh import would.
    if (retitled > 0) deleteVectors(db, to.id);
    repointRuns(db, fromId, to.id);
    stmt(db, 'UPDATE saved_questions SET file = ? WHERE file = ? AND root = (SELECT root FROM collections WHERE id = ?)').run(to.relPath, from.relPath, from.collectionId);
    stmt(db, 'DELETE FROM documents WHERE id = ?').run(fromId);
    appendEvent(db, { kind: 'document.moved', collectionId: from.collectionId, documentId: to.id, path: to.relPath, detail: { from: from.relPath, fromId } });
  }).immediate();
}

/** A document's vectors in every model's table, and the marks that it has them. */
function deleteVectors(db: Db, documentId: string): void {
  const rowids = stmt(db, 'SELECT rowid FROM chunks WHERE document_id = ?').pluck().all(documentId) as number[];
  for (const model of rowids.length > 0 ? listEmbeddingModels(db) : []) {
    for (const r of rowids) deleteVector(db, model, r);
  }
  stmt(db, 'DELETE FROM document_embeddings WHERE document_id = ?').run(documentId);
}

/** Removes chunks (FTS follows by trigger) and vectors in every model's table; true if the document existed. */
function removeDerived(db: Db, documentId: string): boolean {
  deleteVectors(db, documentId);
  stmt(db, 'DELETE FROM chunks WHERE document_id = ?').run(documentId);
  deleteSections(db, documentId);
  return stmt(db, 'SELECT 1 FROM documents WHERE id = ?').get(documentId) !== undefined;
}

interface RawDoc {
  id: string;
  collection_id: string;
  rel_path: string;
  source_uri: string;
  title: string | null;
  size: number;
  mtime_ms: number;
  sha256: string | null;
  reader: string | null;
  reader_version: number | null;
  chunker: string | null;
  ingested_at: string;
  status: StoredStatus;
  status_code: string | null;
  status_message: string | null;
}

function fromRaw(r: RawDoc): DocumentRow {
  return {
    id: r.id,
    collectionId: r.collection_id,
    relPath: r.rel_path,
    sourceUri: r.source_uri,
    title: r.title,
    size: r.size,
    mtimeMs: r.mtime_ms,
    sha256: r.sha256,
    reader: r.reader,
    readerVersion: r.reader_version,
    chunker: r.chunker,
    ingestedAt: r.ingested_at,
    status: r.status,
    statusCode: r.status_code,
    statusMessage: r.status_message,
  };
}
