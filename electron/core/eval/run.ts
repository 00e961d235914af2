import fs from 'node:fs';
import { unreachableAdvice } from '../../../shared/ollama-state';
import path from 'node:path';
import { configCount, evalModelName, fusionsFor, METRICS_VERSION, modesIn, searchesPerPoint, type EvalConfigResult, type EvalGrid, type EvalQuestionRun, type EvalReport, type EvalRunInfo, type Question } from '../../../shared/eval';
import { QuireError, toErrorShape } from '../../../shared/errors';
import type { SearchMode, SearchResult } from '../../../shared/search';
import { DEFAULT_FUSION, formatFusion, parseFusion, type Fusion } from '../../../shared/fusion';
import { ASK_DEFAULTS, answerWindow, ask, isEvidence, retrievalDepth, toPromptSource } from '../answer/ask';
import { fitPrompt, UNCALIBRATED_RATIO } from '../answer/budget';
import { openDatabase, type Db } from '../db/open';
import { folderRoot } from '../db/collections';
import { stmt } from '../db/statements';
import { formatChunkerSpec, parseChunkerSpec } from '../ingest/chunkers/index';
import { importFolder, type ImportOptions } from '../ingest/pipeline';
import type { ImportReport } from '../ingest/types';
import { getActiveEmbeddingModel } from '../db/embedding-models';
import { PERSON_WAITING, type ModelInfo, type OllamaGateway } from '../ollama/gateway';
import { ollamaGone, ollamaNotAnswering } from '../ollama/state';
import { search } from '../retrieve/search';
import { configLabel } from './diff';
import { failureWarnings } from './failure-warnings';
import { corpusFingerprint } from './fingerprint';
import { indexFileName, removeIndex } from './index-files';
import { acquireRunLock } from './run-lock';
import { collapseWhitespace } from '../text/normalise';
import { aggregate, containsFact, scoreOutcomes, type QuestionOutcome, type SentSources } from './metrics';
import { questionSetDigest } from './questions';

export interface EvalOptions {
  docs: string;
  /** Where files are parsed (the engine's worker); in-process when absent. */
  parse?: ImportOptions['parse'];
  questions: Question[];
  /** How the report names the question set (a file name, "Saved from answers"…). */
  questionSetName: string;
  grid: EvalGrid;
  gateway: OllamaGateway;
  /** Quire's version, recorded in the report. */
  version: string;
  /** The context-window cap the app's settings give answers (default 8192), so an evaluation measures what the app would do. */
  numCtxCap?: number;
  /** One database per embedding model × chunker lives here, reused while documents and settings are unchanged. */
  workDir: string;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, label: string) => void;
  /** On cancellation, return the configurations already finished (with a warning) instead of throwing. */
  keepPartial?: boolean;
  /** Build each index anew instead of reusing the one an earlier run built (`quire eval --fresh-index`). */
  freshIndexes?: boolean;
}

/** How much of a retrieved chunk the report keeps for the side-by-side view. */
const PREVIEW_CHARS = 280;

/** How long an Ollama that failed as unreachable is given to come back before the run stops (ollamaGone). */
const OLLAMA_GONE_PAUSE_MS = 1000;

/**
 * Questions that time out one after another, while Ollama still answers its version, before the run
 * stops: a runner stuck (or a model far too slow for the timeout) fails every question left after
 * minutes each. One or two are a slow answer or a request stuck alone, and the run goes on.
 */
export const STUCK_AFTER_TIMEOUTS = 3;

/** Why Ollama's absence stopped a run: not reachable, or reached but no longer answering. */
type OllamaStop = Exclude<NonNullable<EvalReport['stopped']>['reason'], 'cancelled'>;

/**
 * What failed when Ollama was found away: a question, the embedding of an index, or a chat model's
 * warm-up (its details, or its load), so the sentence says which.
 */
type StoppedAt = { kind: 'question' } | { kind: 'index'; embedModel: string; chunker: string } | ({ kind: 'warm-up'; model: string } & WarmUpFailure);

/**
 * Ollama is gone: thrown inside the run, caught by runEval, which keeps what was measured and says
 * what was not. `cutShort`: the configuration it left in the middle of, kept with the runs it had done.
 */
class OllamaGone extends Error {
  constructor(
    readonly reason: OllamaStop,
    readonly at: StoppedAt = { kind: 'question' },
    readonly cutShort: { label: string; ran: number; planned: number } | null = null,
  ) {
    super('Ollama is gone.');
  }
}

/** The failures that may mean Ollama itself is gone (past the gateway's own retry), rather than one model or question failing. */
const OLLAMA_AWAY = new Set(['OLLAMA_UNREACHABLE', 'OLLAMA_TIMEOUT']);
const ollamaAwayCode = (error: { code: string } | null | undefined): string | null => (error && OLLAMA_AWAY.has(error.code) ? error.code : null);

/**
 * Runs every question through the same search and ask paths as the app, for every point of the
 * grid, and scores the outcomes. Imports are incremental, so a rerun on unchanged documents only
 * asks the questions again. One failing question is recorded and the run goes on; cancellation
 * stops it, and so does Ollama going away (every question left would fail the same way): the
 * configurations measured are kept, and the report says how many question runs were not done.
 */
export async function runEval(opts: EvalOptions): Promise<EvalReport> {
  const { questions } = opts;
  const grid = canonicalGrid(opts.grid);
  const started = performance.now();
  // As imports resolve it, so its reports and indexes are found by the folder's own path.
  const docs = folderRoot(opts.docs);
  if (!fs.existsSync(docs) || !fs.statSync(docs).isDirectory()) throw new QuireError('NOT_A_FOLDER', `${opts.docs} is not a folder.`);
  const chunkers = grid.chunkers.map((spec) => ({ spec, config: parseChunkerSpec(spec) }));
  const answerSettings = {
    numCtxCap: opts.numCtxCap ?? ASK_DEFAULTS.numCtxCap,
    numPredict: ASK_DEFAULTS.numPredict,
    temperature: ASK_DEFAULTS.temperature,
    seed: ASK_DEFAULTS.seed,
    maxDistance: ASK_DEFAULTS.maxDistance,
  };
  const chatModels: Array<string | null> = grid.chatModels.length > 0 ? grid.chatModels : [null];
  // Keyword search runs in the first embedding model's index only (modesIn): it uses no vectors.
  const perSearch = chatModels.length * grid.ks.length * grid.repeats * questions.length;
  const total = grid.embedModels.reduce((n, e) => n + searchesPerPoint(modesIn(e, grid), grid.fusions), 0) * chunkers.length * perSearch;
  let done = 0;
  const configs: EvalConfigResult[] = [];
  const perQuestion: EvalQuestionRun[] = [];
  let corpus = { documents: 0, fingerprint: '' };
  const warnings: string[] = [];
  const indexes: NonNullable<EvalRunInfo['indexes']> = [];
  // Indexes with no vectors, by embedding model and chunker: their warning already says why their dense and hybrid questions failed.
  const withoutVectors = new Set<string>();
  // What Ollama said of each model this run (name, digest, window), so it is asked once.
  const known = new Map<string, ModelInfo>();
  // Each embedding model's digest as its index recorded it (the vectors searched were made by it).
  const indexDigests = new Map<string, string>();
  // Asked now: the Ollama the run talks to, which may be gone by its end. Briefly, by the gateway's
  // own timeout (withOptions never waits longer than the gateway would), not a deadline signal.
  const ollamaVersion = opts.gateway.withOptions({ timeoutMs: 3000, retries: 0 }).version().catch(() => null);
  fs.mkdirSync(opts.workDir, { recursive: true });
  const lock = acquireRunLock(opts.workDir, docs);
  /**
   * After a failure that may mean Ollama is gone: why the run must stop, or null when Ollama is
   * still there. Unreachable: still so a moment later. Timed out: its quick version check times
   * out too (a slow model, or one stuck request, leaves the check answered and the run going).
   */
  let timeoutsInARow = 0;
  const ollamaStopped = async (code: string | null, stuckAfter = STUCK_AFTER_TIMEOUTS): Promise<OllamaStop | null> => {
    timeoutsInARow = code === 'OLLAMA_TIMEOUT' ? timeoutsInARow + 1 : 0;
    const gone = async () => ((await ollamaGone(opts.gateway, OLLAMA_GONE_PAUSE_MS, opts.signal)) ? 'ollama-unreachable' : null);
    if (code === 'OLLAMA_UNREACHABLE') return gone();
    if (code !== 'OLLAMA_TIMEOUT') return null;
    const check = await ollamaNotAnswering(opts.gateway, undefined, opts.signal);
    // A refused check is an Ollama gone or being restarted: given its moment to come back, as above.
    if (check === 'timeout') return 'ollama-timeout';
    if (check === 'unreachable') return gone();
    return timeoutsInARow >= stuckAfter ? 'ollama-stuck' : null;
  };

  const runGrid = async () => {
    for (const embedModel of grid.embedModels) {
      const modes = modesIn(embedModel, grid);
      // Only keyword search was asked for, and it runs in the first model's index: no index to build.
      if (modes.length === 0) continue;
      for (const chunker of chunkers) {
        const file = path.join(opts.workDir, indexFileName(docs, embedModel, chunker.spec));
        if (opts.freshIndexes) removeIndex(file);
        const db = openDatabase(file);
        try {
          const builtEarlier = (db.prepare('SELECT COUNT(*) FROM documents').pluck().get() as number) > 0;
          opts.onProgress?.(done, total, `indexing with ${embedModel}, ${chunker.spec}${builtEarlier ? ' (the index an earlier run built: changed documents only)' : ''}`);
          // Keyword search alone reads no vectors: its index is built without Ollama (a later run asking for vectors embeds what is missing).
          const embedding = modes.some((m) => m !== 'lexical') ? { gateway: opts.gateway, model: embedModel } : null;
          const imported = await importFolder(db, docs, { embedding, chunker: chunker.config, ...(opts.parse ? { parse: opts.parse } : {}), ...(opts.signal ? { signal: opts.signal } : {}) });
          opts.signal?.throwIfAborted();
          indexes.push({ embedModel, chunker: chunker.spec, reused: builtEarlier, documentsRead: imported.documents.added + imported.documents.updated });
          // Ollama went while the import embedded: every configuration of this index would wait on it for nothing.
          if (imported.embedding.status === 'unavailable') {
            const stop = await ollamaStopped(ollamaAwayCode(imported.embedding.error));
            if (stop) throw new OllamaGone(stop, { kind: 'index', embedModel, chunker: chunker.spec });
          }
          // The import awaited the keyword statistics' rebuild; when it failed (a full disk) keyword
          // and hybrid rows score on the older statistics, which changes their numbers: said, not hidden.
          for (const w of imported.warnings) warnings.push(`The index for ${embedModel}, ${chunker.spec} ranks keyword matches with statistics not rebuilt after its import: ${w.message}`);
          const active = getActiveEmbeddingModel(db);
          if (active) indexDigests.set(embedModel, active.digest);
          const noVectors = missingVectors(db, embedModel, imported.embedding);
          // Said once per index, with Ollama's reason, rather than only as an error on every dense or hybrid question.
          if (noVectors && modes.some((m) => m !== 'lexical')) {
            withoutVectors.add(`${embedModel}\0${chunker.spec}`);
            warnings.push(`The index for ${embedModel}, ${chunker.spec} has no vectors, so its dense and hybrid configurations could not run: ${noVectors}`);
          }
          const hashes = db.prepare("SELECT sha256 FROM documents WHERE status = 'ready'").pluck().all() as string[];
          const seen = { documents: hashes.length, fingerprint: corpusFingerprint(hashes) };
          // Every index should hold the same documents; if not, configurations do not compare like for like.
          if (corpus.fingerprint !== '' && seen.fingerprint !== corpus.fingerprint) {
            warnings.push(
              `The documents changed during the run: the index for ${embedModel}, ${chunker.spec} holds ${seen.documents} documents (${seen.fingerprint.slice(0, 12)}), an earlier one ${corpus.documents} (${corpus.fingerprint.slice(0, 12)}).`,
            );
          }
          if (corpus.fingerprint === '') corpus = seen;
          const clearCalibration = db.prepare('DELETE FROM calibration');
          for (const chatModel of chatModels) {
            if (chatModel !== null) {
              const failed = await warmUp(opts.gateway, chatModel, answerSettings.numCtxCap, known, opts.signal);
              if (failed) {
                // Checked as a question's failure is, except that one timeout is enough while Ollama
                // still answers its version: the load has had the gateway's retries, and every
                // question would wait as long again for a model that does not load, then fail.
                const stop = await ollamaStopped(failed.code, 1);
                if (stop) throw new OllamaGone(stop, { kind: 'warm-up', model: chatModel, ...failed });
              }
            }
            for (const k of grid.ks) {
              for (const mode of modes) {
               for (const fusionSpec of fusionsFor(mode, grid.fusions)) {
                const fusion = parseFusion(fusionSpec) ?? DEFAULT_FUSION;
                const setting = { chatModel, embedModel, chunker: chunker.spec, k, mode, fusion: fusionSpec };
                const outcomes: QuestionOutcome[] = [];
                const runs: Array<Omit<EvalQuestionRun, 'score' | 'config'>> = [];
                const keep = () => {
                  const scores = scoreOutcomes(questions, outcomes);
                  const config = configs.length;
                  configs.push({ ...setting, metrics: aggregate(scores), errors: runs.filter((r) => r.error).length });
                  scores.forEach((score, i) => perQuestion.push({ config, score, ...runs[i]! }));
                };
                for (let repeat = 0; repeat < grid.repeats; repeat++) {
                  for (const q of questions) {
                    opts.signal?.throwIfAborted();
                    // Every question starts from the same, uncalibrated token estimate: otherwise what an
                    // earlier answer taught the estimate would change how many sources later ones get,
                    // and repeats and reruns would not send the same prompts.
                    clearCalibration.run();
                    const { outcome, run, ollamaFailure } = await runQuestion(db, opts.gateway, q, {
                      chatModel,
                      k,
                      mode,
                      repeat,
                      fusion,
                      numCtxCap: answerSettings.numCtxCap,
                      noVectors,
                      ...(opts.signal ? { signal: opts.signal } : {}),
                    });
                    outcomes.push(outcome);
                    runs.push(run);
                    opts.onProgress?.(++done, total, configLabel(setting));
                    const stop = await ollamaStopped(ollamaFailure);
                    if (stop) {
                      // What ran before Ollama went was measured: kept, with this run as the error it is
                      // (so the row is never a best value beside whole ones). A first run alone measured nothing.
                      if (outcomes.length === 1) throw new OllamaGone(stop);
                      keep();
                      throw new OllamaGone(stop, { kind: 'question' }, { label: configLabel(setting), ran: outcomes.length, planned: grid.repeats * questions.length });
                    }
                  }
                }
                keep();
               }
              }
            }
          }
        } finally {
          db.close();
        }
      }
    }
  };
  let stopped: EvalReport['stopped'];
  try {
    await runGrid();
  } catch (e) {
    if (e instanceof OllamaGone) {
      const notDone = total - perQuestion.length;
      const host = opts.gateway.host;
      const hung = e.reason !== 'ollama-unreachable';
      const sentence = `The evaluation stopped because ${stopCause(e, opts.gateway)}`;
      if (configs.length === 0) {
        const help =
          e.reason === 'ollama-stuck' && e.at.kind === 'warm-up'
            ? `Run it again once ${e.at.model} loads there, or with a chat model that does.`
            : hung
              ? `Once the server at ${host} answers again, run it again.`
              : `${unreachableAdvice(opts.gateway.hostSource)} Then run it again.`;
        throw new QuireError(hung ? 'OLLAMA_TIMEOUT' : 'OLLAMA_UNREACHABLE', `${sentence} before any configuration was measured, so no report was written. ${help}`);
      }
      const under = e.cutShort;
      const message = `${sentence}: ${notDone} of ${total} question runs were not done${under ? ` (“${under.label}” ran ${under.ran} of its ${under.planned})` : ''}.`;
      stopped = { reason: e.reason, notDone, message };
      warnings.push(message);
    } else {
      // Cancelled with whole configurations done: keep them (the one under way is dropped), and say so.
      if (!(opts.keepPartial && opts.signal?.aborted && configs.length > 0)) throw e;
      const message = `Cancelled after ${configs.length} of ${configCount(grid)} configurations; the others did not run.`;
      stopped = { reason: 'cancelled', notDone: total - perQuestion.length, message };
      warnings.push(message);
    }
  } finally {
    lock.release();
  }
  warnings.push(...failureWarnings(configs, perQuestion, (i, error) => error.code === 'NO_EMBEDDINGS' && withoutVectors.has(`${configs[i]!.embedModel}\0${configs[i]!.chunker}`)));

  // Ollama gone or not answering: not asked again (each ask would wait out its retries).
  const gone = stopped !== undefined && stopped.reason !== 'cancelled';
  const models: Record<string, string | null> = {};
  for (const model of [...grid.chatModels, ...grid.embedModels]) {
    models[model] = known.get(model)?.digest ?? indexDigests.get(model) ?? (gone ? null : await opts.gateway.withOptions({ timeoutMs: 5000, retries: 0 }).modelInfo(model).then((m) => m.digest, () => null));
  }
  return {
    metricsVersion: METRICS_VERSION,
    corpus,
    questions: { answerable: questions.filter((q) => q.expect.answerable).length, unanswerable: questions.filter((q) => !q.expect.answerable).length },
    configs,
    perQuestion,
    run: {
      quire: opts.version,
      ollama: await ollamaVersion,
      models,
      at: new Date().toISOString(),
      ms: Math.round(performance.now() - started),
      grid,
      answerSettings,
      docs,
      questionSet: { name: opts.questionSetName, sha256: questionSetDigest(questions), questions },
      indexes,
    },
    warnings,
    ...(stopped ? { stopped } : {}),
  };
}

async function runQuestion(
  db: Db,
  gateway: OllamaGateway,
  q: Question,
  o: { chatModel: string | null; k: number; mode: SearchMode; fusion: Fusion; repeat: number; numCtxCap: number; noVectors: string | null; signal?: AbortSignal },
): Promise<{ outcome: QuestionOutcome; run: Omit<EvalQuestionRun, 'score' | 'config'>; ollamaFailure: string | null }> {
  const chunkText = stmt(db, 'SELECT text FROM chunks WHERE id = ?').pluck();
  const textOf = (id: string) => (chunkText.get(id) as string | undefined) ?? '';
  // A result is a passage (its chunk and neighbours): it is scored and shown as the passage. An
  // answer's candidates carry chunk ids only, so their text is read once here.
  const passageText = (p: { chunkId: string; chunkIds: readonly string[] }) =>
    (p.chunkIds.length > 0 ? p.chunkIds : [p.chunkId]).map(textOf).join('\n');
  const fact = q.expect.chunkFact;
  type Shown = { chunkId: string; path: string; heading: string; lines: [number, number]; text: string };
  const describe = (passages: readonly Shown[]): EvalQuestionRun['retrieved'] =>
    passages.slice(0, o.k).map((p) => ({
      chunkId: p.chunkId,
      path: p.path,
      heading: p.heading,
      lines: p.lines,
      preview: preview(p.text),
      hasFact: fact === undefined ? null : containsFact(p.text, fact),
    }));
  const base = { questionId: q.id, repeat: o.repeat, k: o.k };

  if (o.chatModel === null) {
    try {
      // The same search an answer makes, so hit@n, fact sent and tokens describe what ask would send.
      const res = await search(db, q.question, { gateway, k: retrievalDepth(o.k), mode: o.mode, fusion: o.fusion, ...(o.signal ? { signal: o.signal } : {}) });
      if (res.mode !== o.mode) {
        return { outcome: { ...base, retrieveMs: null, retrieved: [], searchFailed: true }, run: { answer: null, retrieved: [], citations: [], error: modeNotHonoured(o.mode, res.mode, o.noVectors, res.fallback) }, ollamaFailure: ollamaAwayCode(res.fallback) };
      }
      return {
        outcome: { ...base, retrieveMs: res.ms, retrieved: res.results.map((r) => ({ chunkId: r.chunkId, text: r.text })), ...withSent(wouldSend(q.question, res.results, o)) },
        run: { answer: null, retrieved: describe(res.results), citations: [], error: null },
        ollamaFailure: null,
      };
    } catch (e) {
      if (o.signal?.aborted) throw e;
      const error = toErrorShape(e);
      return { outcome: { ...base, retrieveMs: null, retrieved: [], searchFailed: true }, run: { answer: null, retrieved: [], citations: [], error }, ollamaFailure: ollamaAwayCode(error) };
    }
  }

  let result = null;
  let fallback: { requested: SearchMode; reason: string; code: string } | undefined;
  for await (const event of ask(db, gateway, q.question, { chatModel: o.chatModel, k: o.k, mode: o.mode, fusion: o.fusion, numCtxCap: o.numCtxCap, ...(o.signal ? { signal: o.signal } : {}) })) {
    if (event.type === 'done' || event.type === 'error') result = event.result;
    if (event.type === 'retrieval' && event.note) fallback = { requested: o.mode, reason: event.note, code: 'NO_EMBEDDINGS' };
  }
  if (!result) throw new Error(`ask ended without a result for question ${q.id}`);
  if (result.status === 'cancelled') throw new QuireError('CANCELLED', 'Evaluation cancelled.');
  // The chat model's lookup or answer found Ollama unreachable or not answering (the search's fallback reason, if any, has no code here).
  const ollamaFailure = ollamaAwayCode(result.error);
  // A dense or hybrid row must never be lexical results under another name.
  if (result.retrievalMode !== o.mode) {
    return { outcome: { ...base, retrieveMs: null, retrieved: [], searchFailed: true }, run: { answer: null, retrieved: [], citations: [], error: modeNotHonoured(o.mode, result.retrievalMode, o.noVectors, fallback) }, ollamaFailure };
  }
  const modelCalled = !result.refusedWithoutModel;
  const answered = result.status === 'answered' || result.status === 'refused';
  const candidates = result.retrieval.map((c) => ({ ...c, text: passageText(c) }));
  const outcome: QuestionOutcome = {
    ...base,
    retrieveMs: result.latencyMs.retrieve,
    retrieved: candidates.map((c) => ({ chunkId: c.chunkId, text: c.text })),
    ...(result.budget
      ? { sent: { texts: result.sources.map(passageText), tokens: result.budget.breakdown.sources } }
      : result.refusedWithoutModel
        ? { sent: { texts: [], tokens: 0 } }
        : {}),
    ...(answered
      ? {
          answer: {
            text: result.answer,
            refused: result.refused,
            citations: result.citations.map((c) => ({ chunkId: c.chunkId, check: c.check })),
            citedTexts: Object.fromEntries(result.citations.map((c) => [c.chunkId, textOf(c.chunkId)])),
            estimatedTokens: modelCalled ? (result.budget?.estimated ?? null) : null,
            reportedTokens: modelCalled ? (result.budget?.reported ?? null) : null,
            exactTokens: modelCalled && (result.budget?.exact ?? false),
            truncated: result.budget?.truncationSuspected ?? false,
            generateMs: modelCalled ? result.latencyMs.generate : null,
            tokensPerSecond: modelCalled ? result.ollama.tokensPerSecond : null,
          },
        }
      : {}),
  };
  return {
    outcome,
    run: {
      answer: answered ? result.answer : null,
      retrieved: describe(candidates),
      citations: result.citations.map((c) => ({ chunkId: c.chunkId, check: c.check })),
      error: answered ? null : (result.error ?? { code: 'INTERNAL', message: 'The question ended without an answer.' }),
    },
    ollamaFailure,
  };
}

/**
 * The sources an answer would put in its prompt, fitted exactly as ask fits them (the app's default
 * window and answer reserve, no history, an uncalibrated estimate): a retrieval-only run can then
 * say whether the fact would reach the model, and at what cost in tokens.
 */
function wouldSend(question: string, results: SearchResult[], o: { k: number; numCtxCap: number }): SentSources | undefined {
  const evidence = results.filter((r) => isEvidence(r, ASK_DEFAULTS.maxDistance)).map(toPromptSource);
  if (evidence.length === 0) return { texts: [], tokens: 0 };
  try {
    const fitted = fitPrompt({ question, candidates: evidence, history: [], maxK: o.k, maxSourceTokens: ASK_DEFAULTS.maxSourceTokens, numCtx: o.numCtxCap, reserve: ASK_DEFAULTS.numPredict, ratio: UNCALIBRATED_RATIO });
    return { texts: fitted.sources.map((s) => s.text), tokens: fitted.budget.breakdown.sources };
  } catch {
    // A window too small for even one source: nothing would be sent, which says nothing of retrieval.
    return undefined;
  }
}

const withSent = (sent: SentSources | undefined): { sent?: SentSources } => (sent ? { sent } : {});

/**
 * What stopped the run, after "The evaluation stopped because": what failed, at which host, and
 * (for a hang) what was still answering. Said in the report, on stderr and as the job's error.
 */
function stopCause(e: OllamaGone, gateway: OllamaGateway): string {
  const host = gateway.host;
  const at = e.at;
  if (e.reason === 'ollama-unreachable') return `Ollama could not be reached at ${host}`;
  if (e.reason === 'ollama-timeout') {
    const what = at.kind === 'warm-up' ? `loading ${at.model}` : at.kind === 'index' ? `embedding the index for ${at.embedModel}, ${at.chunker}` : 'a question';
    return `Ollama at ${host} stopped answering (${what} timed out, and so did a quick check that Ollama still answers)`;
  }
  if (at.kind === 'warm-up') {
    const within = at.tries > 1 ? `in ${at.tries} tries of ${seconds(at.timeoutMs)} s each` : `within ${seconds(at.timeoutMs)} s`;
    const failed = at.step === 'load' ? `${at.model} did not load at ${host} ${within}` : `Ollama at ${host} did not describe ${at.model} ${within}`;
    return `${failed}, while Ollama still answered (a model too large or too slow to load there, or a runner stuck; "ollama ps" there shows what is loaded)`;
  }
  return `${STUCK_AFTER_TIMEOUTS} questions in a row timed out at ${host} while Ollama still answered (a model stuck, or too slow for the timeout; "ollama ps" there shows what is loaded)`;
}

const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * Loads the chat model before its questions are timed, so the first answer's generate time is an
 * answer, not a model load. A failure that may mean Ollama is away (unreachable, timed out) is
 * returned, with the step it failed at, for the run to check as it checks a question's; any other
 * (a model Ollama does not have) is left for the questions to record, one by one.
 */
async function warmUp(gateway: OllamaGateway, model: string, numCtxCap: number, known: Map<string, ModelInfo>, signal?: AbortSignal): Promise<WarmUpFailure | null> {
  // The model's details are a quick request, asked as an answer asks them (PERSON_WAITING): a server
  // that hangs is found in two tries, not in the four of a load, which may take minutes.
  const quick = gateway.withOptions(PERSON_WAITING);
  let step: { step: WarmUpFailure['step']; asked: OllamaGateway } = { step: 'details', asked: quick };
  try {
    // Asked once per run: the same model is warmed again for every index, and its digest goes in the report.
    const info = known.get(model) ?? (await quick.modelInfo(model, signal));
    known.set(model, info);
    step = { step: 'load', asked: gateway };
    await gateway.load(model, answerWindow(info.contextLength, numCtxCap), signal);
    return null;
  } catch (e) {
    if (signal?.aborted) throw e;
    const code = ollamaAwayCode(toErrorShape(e));
    // How long it was given, for the sentence: as many tries as the gateway retries, each for its timeout.
    return code ? { code, step: step.step, timeoutMs: step.asked.timeoutMs, tries: step.asked.retries + 1 } : null;
  }
}

/** A warm-up that failed as Ollama being away would: the code, the step, and how long that step was given. */
interface WarmUpFailure {
  code: string;
  step: 'details' | 'load';
  timeoutMs: number;
  tries: number;
}

function modeNotHonoured(asked: SearchMode, used: SearchMode, noVectors: string | null, fallback?: { reason: string; code: string }): { code: string; message: string } {
  // The index's own reason when it has none: search's fallback note speaks of the library ("run quire embed"), not of an evaluation's index.
  const why = noVectors ?? (fallback ? withStop(fallback.reason) : 'Check the embedding model is installed and the index was embedded.');
  return { code: fallback?.code ?? 'NO_EMBEDDINGS', message: `Asked for ${asked} search but only ${used} could run: ${why}` };
}

const withStop = (s: string) => (/[.!?]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

/**
 * Why an evaluation index holds no vectors for its model, or null when it has them (or has no
 * text to embed): Ollama's error from this import, else (an earlier import failed the same way
 * and nothing needed reading since) a plain sentence.
 */
function missingVectors(db: Db, embedModel: string, embedding: ImportReport['embedding']): string | null {
  const chunks = db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number;
  if (chunks === 0 || getActiveEmbeddingModel(db) !== null) return null;
  if (embedding.status === 'unavailable' && embedding.error) return withStop(embedding.error.message);
  return `none were made for ${embedModel}. Check that Ollama has it (ollama pull ${embedModel}).`;
}

/** Each axis once, in first-given order, with chunker specs in canonical form: equal settings are one configuration. */
export function canonicalGrid(grid: EvalGrid): EvalGrid {
  const unique = <T>(xs: readonly T[]) => [...new Set(xs)];
  return {
    chatModels: unique(grid.chatModels.map(evalModelName)),
    embedModels: unique(grid.embedModels.map(evalModelName)),
    chunkers: unique(grid.chunkers.map((s) => formatChunkerSpec(parseChunkerSpec(s)))),
    ks: unique(grid.ks),
    modes: unique(grid.modes),
    fusions: unique(grid.fusions.map((s) => formatFusion(parseFusion(s) ?? DEFAULT_FUSION))),
    repeats: grid.repeats,
  };
}

function preview(text: string): string {
  const flat = collapseWhitespace(text);
  return flat.length <= PREVIEW_CHARS ? flat : `${flat.slice(0, PREVIEW_CHARS - 1)}…`;
}
