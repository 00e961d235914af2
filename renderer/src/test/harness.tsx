import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { ApiEvent, MethodName } from '../../../shared/contract';
import { createFakeClient, type FakeTransport } from '../api/fake-transport';
import { ClientProvider } from '../app/client';
import type { AnswerResult, AskEvent, Budget, Candidate, ImportReport } from '../common/types';

type Handlers = Partial<Record<MethodName, (input: never) => unknown>>;

/** Renders `ui` under a ClientProvider whose client talks to an in-memory transport. */
export function renderWithFake(ui: ReactElement, handlers: Handlers = {}): RenderResult & { transport: FakeTransport; emit: (e: ApiEvent) => void } {
  const { client, transport } = createFakeClient(handlers);
  const result = render(<ClientProvider client={client}>{ui}</ClientProvider>);
  return { ...result, transport, emit: (e) => transport.emit(e) };
}

/** One event of the engine's answer stream as the `ask` job reports it: its steps as progress, its ending as job.done. */
export function askJobEvent(jobId: string, event: AskEvent): ApiEvent {
  if (event.type === 'done') return { type: 'job.done', jobId, kind: 'ask', result: event.result, error: null };
  if (event.type === 'error') return { type: 'job.done', jobId, kind: 'ask', result: event.result, error: event.error };
  return { type: 'job.progress', jobId, kind: 'ask', progress: event };
}

export function budget(over: Partial<Budget> = {}): Budget {
  return {
    raw: 5000,
    estimated: 5100,
    reported: 5050,
    ratio: 1.02,
    numCtx: 8000,
    k: 6,
    breakdown: { system: 400, history: 800, sources: 3200, question: 100, reserve: 1500 },
    truncationSuspected: false,
    exact: false,
    lostSources: [],
    ...over,
  };
}

export function candidate(chunkId: string, path: string, lines: [number, number], over: Partial<Candidate> = {}): Candidate {
  return { chunkId, chunkIds: [chunkId], path, heading: 'Doc > Section', lines, pages: null, lexicalRank: 1, denseRank: 2, distance: 0.4, score: 0.0325, sent: true, flags: [], ...over };
}

export function answerResult(over: Partial<AnswerResult> = {}): AnswerResult {
  return {
    runId: 1,
    status: 'answered',
    question: 'q',
    standaloneQuery: null,
    answer: '',
    refused: false,
    refusedWithoutModel: false,
    citations: [],
    sources: [],
    flags: [],
    budget: budget(),
    retrieval: [],
    retrievalMode: 'hybrid',
    latencyMs: { retrieve: 5, rewrite: 0, generate: 100, total: 110, firstToken: 20 },
    ollama: { promptEvalCount: 5050, evalCount: 40, doneReason: 'stop', tokensPerSecond: 30 },
    model: { chat: 'qwen3:4b', chatDigest: null, embed: 'embeddinggemma', embedDigest: null },
    error: null,
    scope: [],
    ...over,
  };
}

/** The job.done of an import of `added` Markdown notes, nothing skipped or failed. */
export function importDone(jobId: string, root: string, added: number): ApiEvent {
  const result: ImportReport = {
    collection: { id: 'c1', root },
    documents: { added, updated: 0, unchanged: 0, moved: 0, deleted: 0, skipped: 0, failed: 0 },
    indexedByType: { markdown: added },
    warnings: [],
    notices: [],
    chunks: added * 3,
    embedded: added * 3,
    embedRequests: 1,
    errors: [],
    skipped: [],
    embedding: { model: 'embeddinggemma', status: 'ok' },
    cancelled: false,
    ms: 800,
  };
  return { type: 'job.done', jobId, kind: 'import', error: null, result };
}
