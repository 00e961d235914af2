import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SearchMode } from '../../../shared/search';
import { ask } from '../answer/ask';
import { openDatabase, type Db } from '../db/open';
import { formatChunkerSpec } from '../ingest/chunkers/index';
import type { ChunkerConfig } from '../ingest/chunkers/types';
import { importFolder } from '../ingest/pipeline';
import type { OllamaGateway } from '../ollama/gateway';
import { search } from '../retrieve/search';
import { corpusFingerprint } from './fingerprint';
import { aggregate, scoreOutcomes, type BenchMetrics, type QuestionOutcome, type QuestionScore } from './metrics';
import type { Question } from './questions';

export interface EvalGrid {
  /** Empty: retrieval only; answer metrics are reported as not run (null). */
  chatModels: string[];
  embedModels: string[];
  chunkers: ChunkerConfig[];
  ks: number[];
  modes: SearchMode[];
  repeats: number;
}

export interface EvalOptions {
  docs: string;
  questions: Question[];
  grid: EvalGrid;
  gateway: OllamaGateway;
  /** One database per embedding model × chunker lives here, reused while documents and settings are unchanged. */
  workDir: string;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface EvalConfigResult {
  chatModel: string | null;
  embedModel: string;
  chunker: string;
  k: number;
  mode: SearchMode;
  metrics: BenchMetrics;
}

export interface EvalReport {
  corpus: { documents: number; fingerprint: string };
  questions: { answerable: number; unanswerable: number };
  configs: EvalConfigResult[];
  perQuestion: Array<{ config: number; score: QuestionScore; answer: string | null; retrieved: string[] }>;
}

/**
 * Runs every question through the same search and ask paths as the app, for every point of the
 * grid, and scores the outcomes. Imports are incremental, so a rerun on unchanged documents only
 * asks the questions again.
 */
export async function runEval(opts: EvalOptions): Promise<EvalReport> {
  const { grid, questions } = opts;
  const chatModels: Array<string | null> = grid.chatModels.length > 0 ? grid.chatModels : [null];
  const perIndex = chatModels.length * grid.ks.length * grid.modes.length * grid.repeats * questions.length;
  const total = grid.embedModels.length * grid.chunkers.length * perIndex;
  let done = 0;
  const report: EvalReport = {
    corpus: { documents: 0, fingerprint: '' },
    questions: { answerable: questions.filter((q) => q.expect.answerable).length, unanswerable: questions.filter((q) => !q.expect.answerable).length },
    configs: [],
    perQuestion: [],
  };
  fs.mkdirSync(opts.workDir, { recursive: true });

  for (const embedModel of grid.embedModels) {
    for (const chunker of grid.chunkers) {
      const db = openDatabase(path.join(opts.workDir, indexFileName(opts.docs, embedModel, chunker)));
      try {
        opts.onProgress?.(done, total, `indexing with ${embedModel}, ${formatChunkerSpec(chunker)}`);
        await importFolder(db, opts.docs, { embedding: { gateway: opts.gateway, model: embedModel }, chunker, ...(opts.signal ? { signal: opts.signal } : {}) });
        const hashes = db.prepare("SELECT sha256 FROM documents WHERE status = 'ready'").pluck().all() as string[];
        report.corpus = { documents: hashes.length, fingerprint: corpusFingerprint(hashes) };
        for (const chatModel of chatModels) {
          for (const k of grid.ks) {
            for (const mode of grid.modes) {
              const outcomes: QuestionOutcome[] = [];
              const answers = new Map<string, string | null>();
              for (let repeat = 0; repeat < grid.repeats; repeat++) {
                for (const q of questions) {
                  opts.signal?.throwIfAborted();
                  const outcome = await runQuestion(db, opts.gateway, q, { chatModel, k, mode, repeat, ...(opts.signal ? { signal: opts.signal } : {}) });
                  outcomes.push(outcome);
                  answers.set(`${q.id}#${repeat}`, outcome.answer?.text ?? null);
                  opts.onProgress?.(++done, total, `${chatModel ?? 'retrieval only'} · ${embedModel} · ${formatChunkerSpec(chunker)} · k=${k} · ${mode}`);
                }
              }
              const scores = scoreOutcomes(questions, outcomes);
              const index = report.configs.length;
              report.configs.push({ chatModel, embedModel, chunker: formatChunkerSpec(chunker), k, mode, metrics: aggregate(scores) });
              scores.forEach((score, i) =>
                report.perQuestion.push({
                  config: index,
                  score,
                  answer: answers.get(`${score.questionId}#${score.repeat}`) ?? null,
                  retrieved: outcomes[i]!.retrieved.slice(0, k).map((r) => r.chunkId),
                }),
              );
            }
          }
        }
      } finally {
        db.close();
      }
    }
  }
  return report;
}

async function runQuestion(
  db: Db,
  gateway: OllamaGateway,
  q: Question,
  o: { chatModel: string | null; k: number; mode: SearchMode; repeat: number; signal?: AbortSignal },
): Promise<QuestionOutcome> {
  const textOf = db.prepare('SELECT text FROM chunks WHERE id = ?').pluck();
  if (o.chatModel === null) {
    const res = await search(db, q.question, { gateway, k: o.k, mode: o.mode, ...(o.signal ? { signal: o.signal } : {}) });
    return { questionId: q.id, repeat: o.repeat, k: o.k, retrieveMs: res.ms, retrieved: res.results.map((r) => ({ chunkId: r.chunkId, text: r.text })) };
  }
  let outcome: QuestionOutcome | null = null;
  for await (const event of ask(db, gateway, q.question, { chatModel: o.chatModel, k: o.k, mode: o.mode, ...(o.signal ? { signal: o.signal } : {}) })) {
    if (event.type !== 'done' && event.type !== 'error') continue;
    const r = event.result;
    const retrieved = r.retrieval.map((c) => ({ chunkId: c.chunkId, text: (textOf.get(c.chunkId) as string | undefined) ?? '' }));
    const answered = r.status === 'answered' || r.status === 'refused';
    outcome = {
      questionId: q.id,
      repeat: o.repeat,
      k: o.k,
      retrieveMs: r.latencyMs.retrieve,
      retrieved,
      ...(answered
        ? {
            answer: {
              text: r.answer,
              refused: r.refused,
              citations: r.citations.map((c) => ({ chunkId: c.chunkId, check: c.check })),
              citedTexts: Object.fromEntries(r.citations.map((c) => [c.chunkId, (textOf.get(c.chunkId) as string | undefined) ?? ''])),
              estimatedTokens: r.budget?.estimated ?? 0,
              reportedTokens: r.budget?.reported ?? null,
              truncated: r.budget?.truncationSuspected ?? false,
              generateMs: r.latencyMs.generate,
              tokensPerSecond: r.ollama.tokensPerSecond,
            },
          }
        : {}),
    };
  }
  if (!outcome) throw new Error(`ask ended without a result for question ${q.id}`);
  return outcome;
}

/** The documents folder and the index settings name the database, so a changed setting gets its own index. */
export function indexFileName(docs: string, embedModel: string, chunker: ChunkerConfig): string {
  const key = createHash('sha256').update(`${path.resolve(docs)}\0${embedModel}\0${formatChunkerSpec(chunker)}`).digest('hex').slice(0, 16);
  return `index-${key}.db`;
}
