import type { AnswerResult } from '../../../shared/answer';
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

export function finishRun(db: Db, r: AnswerResult): void {
  stmt(
    db,
    `UPDATE runs SET finished_at = @finishedAt, status = @status, standalone_query = @standaloneQuery, retrieval_mode = @retrievalMode,
       retrieval = @retrieval, sent_chunk_ids = @sent, k = @k, num_ctx = @numCtx, budget = @budget, estimated_tokens = @estimated,
       prompt_eval_count = @promptEvalCount, eval_count = @evalCount, done_reason = @doneReason, truncation_suspected = @truncation,
       latency = @latency, chat_model = @chatModel, chat_digest = @chatDigest, embed_model = @embedModel, embed_digest = @embedDigest,
       answer = @answer, citations = @citations, flags = @flags, error_code = @errorCode, error_message = @errorMessage
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
}

export function getRun(db: Db, id: number): RunRow | null {
  return (stmt(db, 'SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined) ?? null;
}
