import { AnswerResultSchema, type AnswerResult } from '../../../shared/answer';
import type { Db } from './open';
import { stmt } from './statements';

/** A run row exists from the moment a question is asked, so even a crash leaves a trace. */
export function startRun(db: Db, question: string, historyTurns: number): number {
  const { lastInsertRowid } = stmt(db, "INSERT INTO runs (started_at, status, question, history_turns) VALUES (?, 'running', ?, ?)").run(
    new Date().toISOString(),
    question,
    historyTurns,
  );
  return Number(lastInsertRowid);
}

/**
 * Stores a finished answer. Its sources may have been deleted while it streamed (a file removed,
 * perhaps imported again since; a folder forgotten): deletion could not remove a run it could not
 * see yet, so the run is checked against the deletions recorded since its retrieval began (event
 * `retrievedAfterEvent`) in the same transaction, and loses what deletion would have taken: the
 * whole run if it sent or cited a deleted document's passages, else those candidates.
 * Returns false when nothing of the run was kept.
 */
export function finishRun(db: Db, r: AnswerResult, retrievedAfterEvent?: number): boolean {
  return db.transaction(() => {
    writeRun(db, r);
    if (retrievedAfterEvent === undefined) return true;
    for (const documentId of documentsOf(r)) {
      // Renamed or moved meanwhile: the same passages under a new id, which the run follows.
      const movedTo = movedSince(db, documentId, retrievedAfterEvent);
      if (movedTo !== null) repointRuns(db, documentId, movedTo, r.runId);
      else if (deletedSince(db, documentId, retrievedAfterEvent)) purgeRunsQuoting(db, documentId, r.runId);
    }
    return stmt(db, 'SELECT 1 FROM runs WHERE id = ?').get(r.runId) !== undefined;
  }).immediate();
}

/**
 * Answers given from a document: runs whose sources or citations include one of its chunks (ids
 * are `<document-id>#<ordinal>`, stored as JSON strings) are deleted, since the model saw its text
 * and the answer may quote it. Runs that only listed one of its chunks among the candidates not
 * sent keep their answer, with those candidates removed from the trace. Every run, or only `runId`.
 * Returns the runs deleted.
 */
export function purgeRunsQuoting(db: Db, documentId: string, runId?: number): number {
  const needle = `"${documentId}#`;
  const only = runId ?? null;
  const deleted = stmt(db, 'DELETE FROM runs WHERE (instr(sent_chunk_ids, @n) > 0 OR instr(citations, @n) > 0) AND (@run IS NULL OR id = @run)').run({ n: needle, run: only }).changes;
  const listed = stmt(db, 'SELECT id, retrieval FROM runs WHERE instr(retrieval, @n) > 0 AND (@run IS NULL OR id = @run)').all({ n: needle, run: only }) as Array<{ id: number; retrieval: string }>;
  const update = stmt(db, 'UPDATE runs SET retrieval = ? WHERE id = ?');
  for (const run of listed) {
    const candidates = JSON.parse(run.retrieval) as Array<{ chunkId: string; chunkIds?: string[] }>;
    const ofDocument = (id: string) => id.startsWith(`${documentId}#`);
    update.run(JSON.stringify(candidates.filter((c) => !ofDocument(c.chunkId) && !(c.chunkIds ?? []).some(ofDocument))), run.id);
  }
  return deleted;
}

/**
 * A document re-pointed to a new path keeps its passages under a new id (`<new-id>#<ordinal>`):
 * the runs that listed, sent or cited them follow it (every run, or only `runId`).
 */
export function repointRuns(db: Db, fromId: string, toId: string, runId?: number): void {
  stmt(
    db,
    `UPDATE runs SET sent_chunk_ids = replace(sent_chunk_ids, @was, @now), citations = replace(citations, @was, @now),
            retrieval = replace(retrieval, @was, @now), answer = replace(answer, @was, @now)
      WHERE (instr(sent_chunk_ids, @was) > 0 OR instr(citations, @was) > 0 OR instr(retrieval, @was) > 0 OR instr(answer, @was) > 0)
        AND (@run IS NULL OR id = @run)`,
  ).run({ was: `${fromId}#`, now: `${toId}#`, run: runId ?? null });
}

/** Where a document now is if it was moved (perhaps more than once) after event `after`; null if not. */
function movedSince(db: Db, documentId: string, after: number): string | null {
  const next = stmt(db, "SELECT id, document_id FROM events WHERE id > ? AND kind = 'document.moved' AND json_extract(detail, '$.fromId') = ? ORDER BY id LIMIT 1");
  let id = documentId;
  let since = after;
  for (let hops = 0; hops < 100; hops++) {
    const moved = next.get(since, id) as { id: number; document_id: string } | undefined;
    if (!moved) break;
    id = moved.document_id;
    since = moved.id;
  }
  if (id === documentId) return null;
  return stmt(db, 'SELECT 1 FROM documents WHERE id = ?').get(id) !== undefined ? id : null;
}

/** The documents whose chunks a run lists, sends or cites (a chunk id is `<document-id>#<ordinal>`). */
function documentsOf(r: AnswerResult): Set<string> {
  const chunkIds = [...r.retrieval.flatMap((c) => [c.chunkId, ...c.chunkIds]), ...r.sources.flatMap((s) => s.chunkIds), ...r.citations.map((c) => c.chunkId)];
  return new Set(chunkIds.map((id) => id.slice(0, id.lastIndexOf('#'))));
}

/**
 * Whether a document was deleted after event `after`: gone now, or deleted (alone, or with its
 * forgotten folder) and imported again since, so that chunks of the same ids hold new text.
 */
function deletedSince(db: Db, documentId: string, after: number): boolean {
  return (
    stmt(
      db,
      `SELECT NOT EXISTS (SELECT 1 FROM documents WHERE id = @doc)
           OR EXISTS (SELECT 1 FROM events WHERE id > @after AND kind = 'document.deleted' AND document_id = @doc)
           OR EXISTS (SELECT 1 FROM events WHERE id > @after AND kind = 'collection.forgotten'
                        AND collection_id = (SELECT collection_id FROM documents WHERE id = @doc))`,
    )
      .pluck()
      .get({ doc: documentId, after }) === 1
  );
}

function writeRun(db: Db, r: AnswerResult): void {
  stmt(
    db,
    `UPDATE runs SET finished_at = @finishedAt, status = @status, standalone_query = @standaloneQuery, retrieval_mode = @retrievalMode,
       retrieval = @retrieval, sent_chunk_ids = @sent, k = @k, num_ctx = @numCtx, budget = @budget, estimated_tokens = @estimated,
       prompt_eval_count = @promptEvalCount, eval_count = @evalCount, done_reason = @doneReason, truncation_suspected = @truncation,
       latency = @latency, chat_model = @chatModel, chat_digest = @chatDigest, embed_model = @embedModel, embed_digest = @embedDigest,
       answer = @answer, citations = @citations, flags = @flags, error_code = @errorCode, error_message = @errorMessage, scope = @scope
     WHERE id = @id`,
  ).run({
    id: r.runId,
    finishedAt: new Date().toISOString(),
    status: r.status,
    standaloneQuery: r.standaloneQuery,
    retrievalMode: r.retrievalMode,
    retrieval: JSON.stringify(r.retrieval),
    // Every chunk the model saw: a source is a passage of the matched chunk and its neighbours.
    sent: JSON.stringify(r.sources.length > 0 ? r.sources.flatMap((s) => s.chunkIds) : r.retrieval.filter((c) => c.sent).map((c) => c.chunkId)),
    k: r.budget?.k ?? null,
    numCtx: r.budget?.numCtx ?? null,
    budget: r.budget ? JSON.stringify(r.budget) : null,
    estimated: r.budget?.estimated ?? null,
    promptEvalCount: r.ollama.promptEvalCount,
    evalCount: r.ollama.evalCount,
    doneReason: r.ollama.doneReason,
    truncation: r.budget?.truncationSuspected ? 1 : 0,
    latency: JSON.stringify(r.latencyMs),
    chatModel: r.model.chat,
    chatDigest: r.model.chatDigest,
    embedModel: r.model.embed,
    embedDigest: r.model.embedDigest,
    answer: r.answer,
    citations: JSON.stringify(r.citations),
    flags: JSON.stringify(r.flags),
    errorCode: r.error?.code ?? null,
    errorMessage: r.error?.message ?? null,
    scope: JSON.stringify(r.scope),
  });
}

export interface RunRow {
  id: number;
  status: string;
  question: string;
  standalone_query: string | null;
  retrieval: string;
  sent_chunk_ids: string;
  k: number | null;
  num_ctx: number | null;
  budget: string | null;
  estimated_tokens: number | null;
  prompt_eval_count: number | null;
  eval_count: number | null;
  truncation_suspected: number;
  latency: string | null;
  chat_model: string | null;
  chat_digest: string | null;
  embed_model: string | null;
  embed_digest: string | null;
  answer: string | null;
  citations: string;
  flags: string;
  error_code: string | null;
  /** JSON [{ id, name }]: the folders the question was limited to; '[]' for all. */
  scope: string;
  retrieval_mode: string | null;
  done_reason: string | null;
  error_message: string | null;
}

export function getRun(db: Db, id: number): RunRow | null {
  return (stmt(db, 'SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined) ?? null;
}

/**
 * A stored run as the answer it was (what reopening a conversation shows): its answer, citations
 * with their checks, budget, retrieval trace and flags. The passages sent are the candidates marked
 * sent; Ollama's speed is not stored. null when the run is gone.
 */
export function storedResult(db: Db, id: number): AnswerResult | null {
  const row = getRun(db, id);
  if (!row) return null;
  const retrieval = AnswerResultSchema.shape.retrieval.parse(JSON.parse(row.retrieval));
  // A run still marked running was cut off (the process ended) before it finished.
  const interrupted = row.status === 'running';
  return AnswerResultSchema.parse({
    runId: row.id,
    status: interrupted ? 'error' : row.status,
    question: row.question,
    standaloneQuery: row.standalone_query,
    answer: row.answer ?? '',
    refused: row.status === 'refused',
    // Quire refuses by itself before calling the model, so Ollama counted nothing.
    refusedWithoutModel: row.status === 'refused' && row.prompt_eval_count === null,
    citations: JSON.parse(row.citations),
    flags: JSON.parse(row.flags),
    budget: row.budget ? JSON.parse(row.budget) : null,
    retrieval,
    sources: retrieval.filter((c) => c.sent).map((c) => ({ chunkId: c.chunkId, chunkIds: c.chunkIds, lines: c.lines, pages: c.pages })),
    retrievalMode: row.retrieval_mode ?? 'lexical',
    latencyMs: row.latency ? JSON.parse(row.latency) : { retrieve: 0, rewrite: 0, generate: 0, total: 0, firstToken: null },
    ollama: { promptEvalCount: row.prompt_eval_count, evalCount: row.eval_count, doneReason: row.done_reason, tokensPerSecond: null },
    model: { chat: row.chat_model ?? '', chatDigest: row.chat_digest, embed: row.embed_model, embedDigest: row.embed_digest },
    error: interrupted ? { code: 'CANCELLED', message: 'This answer was cut off before it finished.' } : row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    // Runs from before subfolder scopes hold parts without a path: whole folders (the schema's default).
    scope: JSON.parse(row.scope),
  });
}
