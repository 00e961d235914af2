import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SETTINGS } from '../../../shared/settings';
import { QuireError, toErrorShape } from '../../../shared/errors';
import { DOCUMENT_TYPES } from '../../../shared/contract';
import { passedOver } from '../../../shared/walk-names';
import { refreshAfterWrites } from '../db/keyword-statistics';
import { logseqGraph, logseqRecipe, type LogseqGraph } from './logseq-names';
import { ensureCollection, findCollectionByRoot, folderRoot } from '../db/collections';
import { countDocumentsMissingModel, deleteDocument, documentIdFor, pathsMissingModel, getDocument, listDocuments, moveDocument, recordFailure, touchDocument, writeDocumentVersion, type DocumentRow, type DocumentVersion } from '../db/documents';
import type { Db } from '../db/open';
import { chunkerRecipe } from './chunkers/index';
import { embeddingInput } from './embedding-input';
import { DEFAULT_CHUNKER, type ChunkerConfig } from './chunkers/types';
import { EmbedQueue, type Completed } from './embed-queue';
import { EmbeddingSession, hasMissingVectors, type EmbeddingRequest } from './embedding-session';
import { readerFor, type Reader } from './readers/index';
import { ReadAhead } from './read-ahead';
import type { ImportProgress, ImportReport, SkipReason } from './types';
import { fsErrorSentence } from './fs-errors';
import { walkFolder, walkPaths, type WalkedFile } from './walk';
import { parseFile, type Parsed, type ParseRequest } from './parse/parse-file';
import { stmt } from '../db/statements';
import { withTag } from '../ollama/gateway';

export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;

export interface ImportOptions {
  /** null: index text only (lexical search), as with --no-embed. */
  embedding: EmbeddingRequest | null;
  chunker?: ChunkerConfig;
  maxFileBytes?: number;
  /** How long one file's open and read may take (READ_TIMEOUT_MS unless given). */
  readTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  /**
   * Only these paths (relative, '/'-separated; a folder stands for everything under it), as a
   * watcher reports changes: the rest of the folder is neither read nor checked for deletions.
   */
  only?: readonly string[];
  /** Where files are parsed: the engine's worker (parse/parse-pool.ts); in-process when absent. */
  parse?: (req: ParseRequest) => Promise<Parsed>;
  /**
   * Whether the import rebuilds keyword search's statistics it made due before it returns (true
   * unless given). A long-lived shell says false and runs the rebuild after, in the background
   * (engine.ts), so the import's job ends, and the next import starts, without waiting for it.
   */
  refreshStatistics?: boolean;
}

type Prepared = Pick<DocumentVersion, 'meta' | 'chunks'>;

/**
 * Imports a folder in the six stages of docs/ARCHITECTURE.md (Import pipeline): walk, read, chunk, embed, swap each document in
 * one transaction, delete what vanished. Re-running it on an unchanged folder reads nothing and
 * embeds nothing. One bad file is reported and never stops the others.
 */
export async function importFolder(db: Db, folder: string, options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const root = await resolveFolder(folder);
  const chunker = options.chunker ?? DEFAULT_CHUNKER;
  // A Logseq graph's pages titled by their file names read by its format: part of how a document
  // is cut (the title heads its chunks), so a graph imported before, or one whose format changes,
  // is cut again once.
  const logseq = await logseqGraph(root);
  const chunkerSpec = chunkerRecipe(chunker) + (logseq ? logseqRecipe(logseq) : '');
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const signal = options.signal;
  const collection = ensureCollection(db, root);
  const report: ImportReport = {
    collection: { id: collection.id, root },
    documents: { added: 0, updated: 0, unchanged: 0, moved: 0, deleted: 0, skipped: 0, failed: 0 },
    chunks: 0,
    embedded: 0,
    embedRequests: 0,
    errors: [],
    skipped: [],
    embedding: { model: options.embedding?.model ?? '', status: options.embedding ? 'ok' : 'off' },
    cancelled: false,
    ms: 0,
    warnings: [],
    notices: [],
    indexedByType: {},
  };
  const progress: ImportProgress = { phase: 'scanning', filesDone: 0, filesTotal: 0, chunks: 0, bytesDone: 0, bytesTotal: 0, currentFile: null };
  const emit = () => options.onProgress?.({ ...progress });
  emit();

  const walk = options.only ? await walkPaths(root, options.only) : await walkFolder(root);
  for (const s of walk.skipped) report.skipped.push({ path: s.relPath, reason: s.reason, ...(s.message ? { message: s.message } : {}) });
  // Totals (and so the time estimate) count only files Quire will read: a folder of photos with a
  // few notes must not promise a long import, nor finish at "12 of 340".
  const willRead = (f: WalkedFile) => readerFor(f.relPath) !== null && f.size <= maxBytes;
  const readable = walk.files.filter(willRead);
  progress.filesTotal = readable.length;
  progress.bytesTotal = readable.reduce((n, f) => n + f.size, 0);
  progress.phase = 'indexing';

  // Forgotten while it is imported (in this process or another): nothing more of it can be written
  // (its rows are gone, and the foreign keys refuse new ones), so the import stops as if cancelled.
  const forgotten = () => findCollectionByRoot(db, root) === null;
  const stopIfForgotten = () => {
    if (forgotten()) throw new QuireError('COLLECTION_NOT_FOUND', `${root} was forgotten while it was imported.`);
  };

  const session = options.embedding ? new EmbeddingSession(db, options.embedding, signal) : null;
  let queue: EmbedQueue<Prepared> | null = null;

  const commit = (doc: Prepared, vectors: Float32Array[] | null) => {
    try {
      const model = vectors ? session!.modelRow() : null;
      const outcome = writeDocumentVersion(db, { ...doc, ...(model && vectors ? { embedding: { model, vectors } } : {}) });
      report.documents[outcome === 'added' ? 'added' : 'updated']++;
      report.chunks += doc.chunks.length;
      if (vectors) report.embedded += vectors.length;
    } catch (e) {
      stopIfForgotten();
      // A document that cannot be written (disk full, database locked) fails alone; its old
      // version, if any, is untouched because the transaction rolled back.
      const shape = toErrorShape(e);
      report.documents.failed++;
      report.errors.push({ path: doc.meta.relPath, code: 'WRITE_FAILED', message: `Could not save it to the index: ${shape.message}` });
    }
  };

  /** Ollama failed mid-run: keep the text of everything read (lexical search works), vectors later. */
  const embeddingFailed = (e: unknown) => {
    if (signal?.aborted || toErrorShape(e).code === 'CANCELLED') throw e;
    report.embedding = { model: options.embedding!.model, status: 'unavailable', error: toErrorShape(e) };
    for (const doc of queue?.abandon() ?? []) commit(doc.payload, doc.vectors);
    queue = null;
    session?.disable();
  };

  /** Runs one embedding step; embedding errors turn embedding off, and what completed is committed. */
  // A batch of embeddings can complete dozens of documents at once, each written in its own
  // transaction: written in one go they held the event loop for tens of milliseconds, and the
  // status request of a window waited behind them. So the import lets others in every few ms.
  let sliceStarted = performance.now();
  const breathe = async () => {
    if (performance.now() - sliceStarted < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    sliceStarted = performance.now();
  };

  const embedThenCommit = async (step: () => Promise<Completed<Prepared>[]>) => {
    let completed: Completed<Prepared>[];
    try {
      completed = await step();
    } catch (e) {
      embeddingFailed(e);
      return;
    }
    for (const done of completed) {
      signal?.throwIfAborted();
      commit(done.payload, done.vectors);
      await breathe();
    }
  };

  try {
    // What the database knows of every file, in one query over (path, size, mtime): an unchanged
    // folder of 89k files is then decided in memory, not by a query per file.
    const documents = listDocuments(db, collection.id);
    const known = new Map(documents.map((d) => [d.relPath, d]));
    const bySha256 = new Map<string, DocumentRow[]>();
    for (const d of documents) {
      if (!d.sha256) continue;
      const same = bySha256.get(d.sha256);
      if (same) same.push(d);
      else bySha256.set(d.sha256, [d]);
    }
    const ctx: FileContext = { db, root, parse: options.parse ?? parseFile, collectionId: collection.id, chunkerSpec, chunker, logseq, maxBytes, signal, known, bySha256 };
    let checkedForgotten = performance.now();
    const readAhead = new ReadAhead(walk.files.map((f) => f.absPath), (i) => needsRead(ctx, walk.files[i]!), {
      maxBytes,
      ...(options.readTimeoutMs !== undefined ? { timeoutMs: options.readTimeoutMs } : {}),
      ...(signal ? { signal } : {}),
    });
    // The next few files are read and parsed (in the worker, in turn) while this one is embedded
    // and written, so the disk, the worker and the main thread work at the same time rather than
    // taking turns; each file's outcome is still taken, and written, in the folder's order.
    // Reads are still asked for in the folder's order, each once the one before is done: ReadAhead
    // alone decides how many run at once (below the threadpool's size, stuck ones counted).
    const ahead = new Map<number, Promise<Prepared | null>>();
    let previousRead: Promise<void> = Promise.resolve();
    const prepare = (index: number) => {
      for (let j = index; j < Math.min(walk.files.length, index + PREPARE_AHEAD); j++) {
        if (ahead.has(j)) continue;
        const after = previousRead;
        let done!: () => void;
        previousRead = new Promise<void>((resolve) => (done = resolve));
        const p = prepareFile(ctx, walk.files[j]!, () => after.then(() => readAhead.read(j)).finally(done), report);
        p.catch(() => {}).finally(done); // a file not read (unchanged, skipped) lets the next one read; its failure is met when its turn comes
        ahead.set(j, p);
      }
      const p = ahead.get(index)!;
      ahead.delete(index);
      return p;
    };
    for (const [index, file] of walk.files.entries()) {
      signal?.throwIfAborted();
      // A query, so not for every one of thousands of unchanged files: a few times a second is as prompt.
      if (performance.now() - checkedForgotten > FORGOTTEN_CHECK_MS) {
        stopIfForgotten();
        checkedForgotten = performance.now();
      }
      progress.currentFile = file.relPath;
      emit();
      const prepared = await prepare(index);
      if (prepared) {
        const embedder = session && prepared.chunks.length > 0 ? await session.embedder().catch((e) => (embeddingFailed(e), null)) : null;
        if (embedder) {
          const q = (queue ??= new EmbedQueue<Prepared>(embedder, signal, session!.inFlight));
          const inputs = prepared.chunks.map(embeddingInput);
          await embedThenCommit(() => q.add(prepared, inputs));
        } else {
          commit(prepared, null);
        }
        progress.chunks += prepared.chunks.length;
      }
      if (willRead(file)) {
        progress.filesDone++;
        progress.bytesDone += file.size;
      }
      emit();
    }
    if (queue) {
      progress.phase = 'embedding';
      emit();
      const q: EmbedQueue<Prepared> = queue;
      await embedThenCommit(() => q.drain());
    }
    // Documents unchanged on disk but lacking vectors for this model (Ollama was down last time,
    // or the model was switched): embed their stored chunks, without re-reading the files. Ollama
    // is not even asked when nothing can be missing.
    if (session?.enabled && (session.resolved || hasMissingVectors(db, options.embedding!.model, collection.id))) {
      progress.phase = 'embedding';
      emit();
      try {
        report.embedded += await session.embedMissing({ collectionId: collection.id });
      } catch (e) {
        embeddingFailed(e);
      }
    }

    progress.phase = 'cleaning';
    progress.currentFile = null;
    emit();
    const seen = new Set(walk.files.map((f) => f.relPath));
    const protectedFiles = new Set(walk.unreadableFiles);
    const underUnreadable = (rel: string) => protectedFiles.has(rel) || walk.unreadableDirs.some((d) => d === '' || rel.startsWith(`${d}/`));
    // A partial import answers only for the paths it was given (and what is under them).
    const asked = options.only ? new Set(options.only) : null;
    const covered = (rel: string) => asked === null || asked.has(rel) || [...asked].some((p) => rel.startsWith(`${p}/`));
    // From the snapshot: a document this import added has its file in the walk, and one it moved
    // away from a path is gone under that path's id (deleting it again does nothing).
    for (const doc of documents) {
      if (seen.has(doc.relPath) || underUnreadable(doc.relPath) || !covered(doc.relPath)) continue;
      signal?.throwIfAborted();
      // Imported by an older Quire under a name the walk now passes over (shared/walk-names.ts): its
      // file is still there, so it is no deletion; taken out all the same, and listed as skipped so
      // that a hidden note leaving the index is said.
      if (passedOver(doc.relPath) && existsSync(path.join(root, ...doc.relPath.split('/')))) {
        if (deleteDocument(db, doc.id, { reason: 'a name the walk passes over (hidden, or a Logseq copy of a page)' })) {
          report.documents.skipped++;
          // Said once, in these words rather than the walk's (hidden-name): it also left the index.
          const walkSaid = report.skipped.findIndex((s) => s.path === doc.relPath && s.reason === 'hidden-name');
          if (walkSaid >= 0) report.skipped.splice(walkSaid, 1);
          report.skipped.push({ path: doc.relPath, reason: 'passed-over-name' });
        }
        continue;
      }
      if (deleteDocument(db, doc.id, { reason: 'file no longer in the folder' })) report.documents.deleted++;
    }
  } catch (e) {
    if (!signal?.aborted && !forgotten()) throw e;
    // Cancelled, or the folder forgotten: every document committed so far is whole (or went with
    // the folder); those still waiting are simply not written.
    report.cancelled = true;
  }

  // Replaced and deleted documents' old rows are still in bm25's totals until their index is
  // rebuilt. The documents are committed whatever becomes of that: its failure is a warning.
  if (options.refreshStatistics !== false) {
    const warning = await refreshAfterWrites(db, 'import', signal ? { signal } : {});
    if (warning) report.warnings.push(warning);
  }
  // The model answers searches only once it covers everything (or nothing else does yet).
  session?.activateIfComplete();
  report.embedRequests = session?.requestCount ?? 0;
  if (report.embedding.status === 'ok' && session?.unavailableError) {
    report.embedding = { model: options.embedding!.model, status: 'unavailable', error: session.unavailableError };
  }
  if (report.embedding.status === 'unavailable') {
    const model = withTag(report.embedding.model);
    report.withoutVectors = { documents: countDocumentsMissingModel(db, model, { collectionId: collection.id }), paths: pathsMissingModel(db, model, collection.id, WITHOUT_VECTORS_LISTED) };
  }
  report.indexedByType = indexedByType(db, collection.id);
  report.ms = Math.round(performance.now() - started);
  progress.phase = 'done';
  progress.currentFile = null;
  emit();
  return report;
}

async function resolveFolder(folder: string): Promise<string> {
  const root = folderRoot(folder);
  try {
    if (!(await fs.stat(root)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new QuireError('NOT_A_FOLDER', `${folder} is not a folder Quire can read.`);
  }
  return root;
}

/**
 * Stages 1–3 for one file: decide whether it changed, read and normalise it, cut it into chunks.
 * Returns null when there is nothing new to write (unchanged, skipped or failed; all counted in the report).
 */
interface FileContext {
  db: Db;
  root: string;
  parse: (req: ParseRequest) => Promise<Parsed>;
  collectionId: string;
  chunkerSpec: string;
  logseq: LogseqGraph | null;
  chunker: ChunkerConfig;
  maxBytes: number;
  signal: AbortSignal | undefined;
  /** The collection's documents by path as the import began. */
  known: ReadonlyMap<string, DocumentRow>;
  /** The same documents by the hash of their bytes (a renamed file's origin is among them). */
  bySha256: ReadonlyMap<string, readonly DocumentRow[]>;
}

/** How long an import works on the event loop before letting other work in. */
const SLICE_MS = 8;

/** How many of the paths left without vectors a report names (the count says the rest). */
const WITHOUT_VECTORS_LISTED = 10;

/** Files being read and parsed ahead of the one being written (the parse worker takes them one at a time). */
const PREPARE_AHEAD = 4;

/** How often an import checks that its folder has not been forgotten, besides on every write. */
const FORGOTTEN_CHECK_MS = 200;

/** Whether size and time alone show the file unchanged since it was indexed with today's recipe. */
function unchangedByStat(ctx: FileContext, file: WalkedFile, reader: Reader, existing: DocumentRow | null): boolean {
  return existing !== null && sameRecipe(existing, reader, ctx.chunkerSpec) && existing.size === file.size && existing.mtimeMs === file.mtimeMs;
}

function sameRecipe(d: DocumentRow, reader: Reader, chunkerSpec: string): boolean {
  return d.status === 'ready' && d.reader === reader.name && d.readerVersion === reader.version && d.chunker === chunkerSpec;
}

/**
 * What a reader refuses in a file's content, for good: the same bytes read by the same reader
 * version fail the same way, so they are not read again. Some are skipped (nothing wrong with the
 * file, Quire just cannot read it) rather than failed. A parse over its time or memory would cost
 * that again on every import, so it too waits for the file to change.
 */
const CONTENT_FAILURES: ReadonlySet<string> = new Set(['BINARY_FILE', 'UNDECODABLE_TEXT', 'CORRUPT_FILE', 'NO_TEXT_LAYER', 'PASSWORD_PROTECTED', 'PARSE_TIMEOUT', 'PARSE_MEMORY']);
const SKIPPED_FOR: Partial<Record<string, SkipReason>> = { NO_TEXT_LAYER: 'no-text-layer', PASSWORD_PROTECTED: 'password-protected' };

/** Content that a reader refused last time, unchanged since, read by the same reader version. */
function knownFailure(file: WalkedFile, reader: Reader, d: DocumentRow): boolean {
  return (
    (d.status === 'error' || d.status === 'skipped') &&
    d.statusCode !== null &&
    CONTENT_FAILURES.has(d.statusCode) &&
    d.reader === reader.name &&
    d.readerVersion === reader.version &&
    d.size === file.size &&
    d.mtimeMs === file.mtimeMs
  );
}

/** True when the file's bytes will be needed (for read-ahead): supported, not too large, not unchanged. */
function needsRead(ctx: FileContext, file: WalkedFile): boolean {
  const reader = readerFor(file.relPath);
  if (!reader || file.size > ctx.maxBytes) return false;
  const existing = ctx.known.get(file.relPath) ?? null;
  return !unchangedByStat(ctx, file, reader, existing) && !(existing && knownFailure(file, reader, existing));
}

async function prepareFile(ctx: FileContext, file: WalkedFile, readBytes: () => Promise<Buffer>, report: ImportReport): Promise<Prepared | null> {
  const { db, collectionId } = ctx;
  const reader = readerFor(file.relPath);
  if (!reader) {
    // Dotfiles such as .DS_Store never get here: the walk passes over hidden names (shared/walk-names.ts).
    report.documents.skipped++;
    report.skipped.push({ path: file.relPath, reason: 'unsupported-type' });
    return null;
  }
  const id = documentIdFor(collectionId, file.relPath);
  const snapshot = ctx.known.get(file.relPath) ?? null;
  // Read afresh only for a file about to be looked at: this import may have changed its row since.
  const existing = snapshot === null || unchangedByStat(ctx, file, reader, snapshot) ? snapshot : getDocument(db, id);
  const base = { id, collectionId, relPath: file.relPath, sourceUri: pathToUri(file.absPath), size: file.size, mtimeMs: file.mtimeMs, reader: reader.name, readerVersion: reader.version };
  if (unchangedByStat(ctx, file, reader, existing)) {
    report.documents.unchanged++;
    return null;
  }
  if (existing && knownFailure(file, reader, existing)) {
    // Same bytes that failed last time: report it again, without reading it again.
    reportRefusal(report, file.relPath, { code: existing.statusCode!, message: existing.statusMessage ?? '' });
    return null;
  }
  if (file.size > ctx.maxBytes) {
    const message = `${formatBytes(file.size)} is over the ${formatBytes(ctx.maxBytes)} limit for one file (Settings › ${SETTINGS.maxFileMb.label}, or --max-file-mb).`;
    recordFailure(db, base, { status: 'skipped', code: 'TOO_LARGE', message, keepOldVersion: false });
    report.documents.skipped++;
    report.skipped.push({ path: file.relPath, reason: 'too-large', message });
    return null;
  }
  let bytes: Buffer;
  try {
    bytes = await readBytes();
  } catch (e) {
    // Cancelled mid-read: the import stops; the file has not failed, and its old version stays.
    if (ctx.signal?.aborted) throw e;
    // Replaced since the scan by something that is not a file, or grown past the limit: skipped, with the reason.
    if (e instanceof QuireError && (e.code === 'NOT_A_REGULAR_FILE' || e.code === 'TOO_LARGE')) {
      recordFailure(db, base, { status: 'skipped', code: e.code, message: e.message, keepOldVersion: false });
      report.documents.skipped++;
      report.skipped.push({ path: file.relPath, reason: e.code === 'TOO_LARGE' ? 'too-large' : 'not-a-regular-file', message: e.message });
      return null;
    }
    const code = e instanceof QuireError && e.code === 'READ_TIMEOUT' ? 'READ_TIMEOUT' : 'READ_FAILED';
    const message = code === 'READ_TIMEOUT' ? (e as Error).message : fsErrorSentence(e, 'file');
    recordFailure(db, base, { status: 'error', code, message, keepOldVersion: true });
    report.documents.failed++;
    report.errors.push({ path: file.relPath, code, message });
    return null;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (existing && sameRecipe(existing, reader, ctx.chunkerSpec) && existing.sha256 === sha256) {
    touchDocument(db, id, file.size, file.mtimeMs);
    report.documents.unchanged++;
    return null;
  }
  try {
    const { title, chunks, guessedEncoding } = await ctx.parse({ relPath: file.relPath, bytes, chunker: ctx.chunker, ...(ctx.logseq ? { logseq: ctx.logseq } : {}) });
    if (guessedEncoding) report.notices.push({ path: file.relPath, code: 'GUESSED_ENCODING', message: guessedEncodingNotice(guessedEncoding), encoding: guessedEncoding });
    const movedFrom = existing?.sha256 === sha256 ? null : renamedFrom(ctx, sha256, reader, id, chunks);
    if (movedFrom) {
      moveDocument(db, movedFrom, { id, relPath: file.relPath, sourceUri: base.sourceUri, title, size: file.size, mtimeMs: file.mtimeMs }, chunks);
      report.documents.moved++;
      return null;
    }
    return {
      meta: { ...base, title, sha256, reader: reader.name, readerVersion: reader.version, chunker: ctx.chunkerSpec },
      chunks,
    };
  } catch (e) {
    const shape = toErrorShape(e);
    recordFailure(db, base, { status: SKIPPED_FOR[shape.code] ? 'skipped' : 'error', code: shape.code, message: shape.message, keepOldVersion: false });
    reportRefusal(report, file.relPath, shape);
    return null;
  }
}

/** Read, but not as written: the person should know which encoding was assumed, and how to settle it. */
function guessedEncodingNotice(encoding: string): string {
  return `Not UTF-8: read as ${encoding}, the encoding its bytes point to. If its text looks wrong in a source (letters replaced by other signs), re-save it as UTF-8.`;
}

/** A file the reader refused: skipped with its reason (a PDF without text, or locked), else failed. */
function reportRefusal(report: ImportReport, relPath: string, shape: { code: string; message: string }): void {
  const reason = SKIPPED_FOR[shape.code];
  if (reason) {
    report.documents.skipped++;
    report.skipped.push({ path: relPath, reason, message: shape.message });
  } else {
    report.documents.failed++;
    report.errors.push({ path: relPath, code: shape.code, message: shape.message });
  }
}

/**
 * The document this file was before a rename or move: same bytes, read and chunked the same way into
 * the same passages, in this collection, whose own file is gone. Then it can be re-pointed rather
 * than chunked and embedded again. A copy (the original still there) is a new document.
 */
function renamedFrom(ctx: FileContext, sha256: string, reader: Reader, id: string, chunks: ReadonlyArray<{ ordinal: number; text: string; startLine: number; endLine: number }>): string | null {
  // Candidates from the documents as the import began, by their bytes' hash (documents has no index
  // on it, and a query scanning it for every new file made importing 7k files quadratic: 2.8 s of
  // a 16 s import), each checked as it is now by its key. A document added by this same import
  // has its file present, so it cannot be a rename's origin.
  const current = stmt(
    ctx.db,
    `SELECT id, rel_path FROM documents WHERE id = ? AND collection_id = ? AND sha256 = ? AND status = 'ready' AND reader = ? AND reader_version = ? AND chunker = ? AND id != ? AND chunk_count = ?`,
  );
  const candidates = (ctx.bySha256.get(sha256) ?? []).flatMap((d) => {
    const row = current.get(d.id, ctx.collectionId, sha256, reader.name, reader.version, ctx.chunkerSpec, id, chunks.length) as { id: string; rel_path: string } | undefined;
    return row ? [row] : [];
  });
  for (const c of candidates) {
    if (existsSync(path.join(ctx.root, ...c.rel_path.split('/')))) continue;
    const stored = stmt(ctx.db, 'SELECT ordinal, text, start_line, end_line FROM chunks WHERE document_id = ? ORDER BY ordinal').all(c.id) as Array<{ ordinal: number; text: string; start_line: number; end_line: number }>;
    const same = stored.length === chunks.length && stored.every((s, i) => s.ordinal === chunks[i]!.ordinal && s.text === chunks[i]!.text && s.start_line === chunks[i]!.startLine && s.end_line === chunks[i]!.endLine);
    if (same) return c.id;
  }
  return null;
}

/** The folder's searchable documents by type (a reader's name is its document type). */
function indexedByType(db: Db, collectionId: string): ImportReport['indexedByType'] {
  const rows = stmt(db, "SELECT reader, count(*) AS n FROM documents WHERE collection_id = ? AND status = 'ready' GROUP BY reader").all(collectionId) as Array<{ reader: string | null; n: number }>;
  const byType: ImportReport['indexedByType'] = {};
  // In DOCUMENT_TYPES' order, so every summary lists them alike.
  for (const type of DOCUMENT_TYPES) {
    const n = rows.find((r) => r.reader === type)?.n;
    if (n) byType[type] = n;
  }
  return byType;
}

function pathToUri(abs: string): string {
  return pathToFileURL(abs).href;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}
