import type { AnswerFlag, AnswerResult, AskEvent, Budget, Candidate, Citation, HistoryTurn } from '../../../shared/answer';
import { QuireError, toErrorShape, type QuireErrorShape } from '../../../shared/errors';
import type { Fusion } from '../../../shared/fusion';
import type { SearchMode, SearchResult } from '../../../shared/search';
import { calibrationRatio, recordCalibration } from '../db/calibration';
import type { Db } from '../db/open';
import { lastEventId } from '../db/events';
import { finishRun, startRun } from '../db/runs';
import { SettingsStore } from '../settings';
import { completeChat, streamChat, type ChatOptions } from '../ollama/chat';
import { PERSON_WAITING, type ModelInfo, type OllamaGateway } from '../ollama/gateway';
import { search } from '../retrieve/search';
import { sharedModelTokens, type ExactCounter, type ModelTokens } from '../tokens/model-tokens';
import { countMessages, fitPrompt, lostSources, settleBudget, UNCALIBRATED_RATIO, type FittedPrompt } from './budget';
import { checkCitations, isRefusal, REFUSAL } from './citations';
import { rewriteMessages, type PromptSource } from './prompt';
import { DEFAULT_CHAT_MODEL, SETTINGS } from '../../../shared/settings';

export { DEFAULT_CHAT_MODEL };

export const ASK_DEFAULTS = {
  maxK: SETTINGS.k.fallback,
  /**
   * Tokens the sources may take: about 1,600 sends the fact for more of the question sets'
   * questions than a fixed six chunks did, at the same cost (test/bench/retrieval.ts).
   */
  maxSourceTokens: 1600,
  numCtxCap: SETTINGS.numCtx.fallback,
  numPredict: 512,
  temperature: 0,
  seed: 42,
  /** Dense candidates farther than this (L2 between unit vectors; ≈ cosine 0.45) are not evidence. */
  maxDistance: 1.05,
};

export interface AskOptions {
  history?: readonly HistoryTurn[];
  /** The most sources to send; fewer when the budget says so. */
  k?: number;
  /** The most tokens the sources may take. */
  maxSourceTokens?: number;
  chatModel?: string;
  /** Overrides the model's context length (still capped by numCtxCap unless given explicitly). */
  numCtx?: number;
  numCtxCap?: number;
  numPredict?: number;
  temperature?: number;
  seed?: number;
  maxDistance?: number;
  /** Omitted: the searchMode setting, as search reads it. */
  mode?: SearchMode;
  /** How hybrid joins its rankings; omitted: the saved setting. */
  fusion?: Fusion;
  /** Only these folders (recorded on the run); all when absent or empty. */
  scope?: ReadonlyArray<{ id: string; name: string; path?: string }>;
  /** The models' own tokenizers (the engine's, with its vocabularies on disk); else one kept in memory per gateway. */
  tokens?: ModelTokens;
  signal?: AbortSignal;
}



/**
 * The context window answers ask Ollama for: the model's trained length capped at `cap` (4096 when
 * the model does not say), never more than it was trained for (the runner caps there and cuts).
 */
export function answerWindow(trained: number | null, cap: number, override?: number): number {
  const wanted = override ?? Math.min(cap, trained ?? 4096);
  return trained === null ? wanted : Math.min(wanted, trained);
}

/** How many candidates an answer retrieves for up to maxK sources: spares for the budget to fall back on. */
export function retrievalDepth(maxK: number): number {
  return Math.max(maxK * 3, 20);
}

/** A passage found by keywords, or close enough by vectors, is evidence; a far vector neighbour is not. */
export function isEvidence(r: SearchResult, maxDistance: number): boolean {
  return r.lexicalRank !== null || (r.distance !== null && r.distance <= maxDistance);
}


/**
 * Answers a question from the index: rewrite a follow-up into a standalone query, retrieve,
 * fit the largest k into num_ctx by our calibrated estimate, stream the reply, check each
 * citation, compare our token estimate with Ollama's count, and record the run. Yields events
 * in order: rewrite?, retrieval, budget?, token*, then done or error (both carry the result).
 */
/** A question of blanks asks nothing: refused before anything is retrieved (and by the contract's ask before a job starts). */
export function requireQuestion(question: string): void {
  if (question.trim() === '') throw new QuireError('INVALID_ARGUMENT', 'Ask a question first.');
}

export async function* ask(db: Db, gateway: OllamaGateway, question: string, options: AskOptions = {}): AsyncGenerator<AskEvent> {
  const t0 = performance.now();
  requireQuestion(question);
  const history = options.history ?? [];
  const signal = options.signal;
  const chatModelName = options.chatModel ?? new SettingsStore(db).get('chatModel');
  const result: AnswerResult = {
    runId: startRun(db, question, history.length),
    status: 'error',
    question,
    standaloneQuery: null,
    answer: '',
    refused: false,
    refusedWithoutModel: false,
    citations: [],
    flags: [],
    budget: null,
    retrieval: [],
    sources: [],
    retrievalMode: 'lexical',
    latencyMs: { retrieve: 0, rewrite: 0, generate: 0, total: 0, firstToken: null },
    ollama: { promptEvalCount: null, evalCount: null, doneReason: null, tokensPerSecond: null },
    model: { chat: chatModelName, chatDigest: null, embed: null, embedDigest: null },
    error: null,
    scope: (options.scope ?? []).map((c) => ({ id: c.id, name: c.name, path: c.path ?? '' })),
  };
  let finished = false;
  // The last event before retrieval read any passage: deletions after it are checked when the run is stored.
  let retrievedAfterEvent: number | undefined;
  const finish = (status: AnswerResult['status'], error: QuireErrorShape | null = null): AskEvent => {
    finished = true;
    result.status = status;
    result.error = error;
    result.latencyMs.total = Math.round(performance.now() - t0);
    finishRun(db, result, retrievedAfterEvent);
    return error ? { type: 'error', error, result } : { type: 'done', result };
  };

  // Whatever reason the caller aborted with, the run was cancelled, not broken.
  const failure = (e: unknown): QuireErrorShape => (signal?.aborted ? { code: 'CANCELLED', message: 'Cancelled.' } : toErrorShape(e));

  try {
    // The chat model is looked up first, but its absence does not stop retrieval: the person
    // still gets the passages, with the reason there is no answer.
    let chat: ModelInfo | null = null;
    let chatError: QuireErrorShape | null = null;
    try {
      chat = await resolveChatModel(gateway, chatModelName, signal);
      result.model.chat = chat.name;
      result.model.chatDigest = chat.digest;
    } catch (e) {
      chatError = failure(e);
      if (chatError.code === 'CANCELLED') throw e;
    }
    // Never more than the model was trained for: Ollama's runner caps there and cuts the rest.
    const cap = options.numCtxCap ?? new SettingsStore(db).get('numCtx');
    const chatOptions: ChatOptions = {
      numCtx: answerWindow(chat?.contextLength ?? null, cap, options.numCtx),
      temperature: options.temperature ?? ASK_DEFAULTS.temperature,
      seed: options.seed ?? ASK_DEFAULTS.seed,
      numPredict: options.numPredict ?? ASK_DEFAULTS.numPredict,
    };

    let query = question;
    if (history.length > 0 && chat) {
      const t = performance.now();
      try {
        const rewritten = await completeChat(gateway, chat.name, fitRewrite(question, history, chatOptions.numCtx - REWRITE_REPLY_TOKENS), { ...chatOptions, numPredict: REWRITE_REPLY_TOKENS }, signal);
        const line = rewritten.content.trim().split('\n')[0]?.replace(/^["'\s]+|["'\s]+$/g, '') ?? '';
        // A model that refuses or rambles instead of rewriting: search with the question as asked.
        if (line !== '' && !isRefusal(line) && line.length <= 4 * Math.max(question.length, 100)) query = line;
        result.standaloneQuery = query;
        yield { type: 'rewrite', standaloneQuery: query };
      } catch (e) {
        // The passages for the question as asked are still worth showing, with the reason.
        chatError = failure(e);
        if (chatError.code === 'CANCELLED') throw e;
        chat = null;
      } finally {
        result.latencyMs.rewrite = Math.round(performance.now() - t);
      }
    }

    const tRetrieve = performance.now();
    const maxK = options.k ?? ASK_DEFAULTS.maxK;
    retrievedAfterEvent = lastEventId(db);
    const found = await search(db, query, {
      k: retrievalDepth(maxK),
      gateway,
      ...(options.mode ? { mode: options.mode } : {}),
      ...(options.fusion ? { fusion: options.fusion } : {}),
      ...(options.scope && options.scope.length > 0 ? { folders: options.scope.map((c) => ({ collectionId: c.id, path: c.path ?? '' })) } : {}),
      ...(options.tokens ? { tokens: options.tokens } : {}),
      ...(signal ? { signal } : {}),
    });
    result.latencyMs.retrieve = Math.round(performance.now() - tRetrieve);
    result.retrievalMode = found.mode;
    result.model.embed = found.embedModel;
    result.model.embedDigest = found.embedDigest;
    const maxDistance = options.maxDistance ?? ASK_DEFAULTS.maxDistance;
    result.retrieval = found.results.map((r) => toCandidate(r, isEvidence(r, maxDistance) ? undefined : 'distance'));
    const evidence = found.results.filter((r) => isEvidence(r, maxDistance));
    const note = found.fallback ? found.fallback.reason : null;

    if (evidence.length === 0) {
      // Nothing to answer from: say so without asking the model to improvise.
      result.answer = REFUSAL;
      result.refused = true;
      result.refusedWithoutModel = true;
      yield { type: 'retrieval', mode: found.mode, candidates: result.retrieval, note };
      yield finish('refused');
      return;
    }
    if (!chat) {
      yield { type: 'retrieval', mode: found.mode, candidates: result.retrieval, note };
      yield finish('error', chatError);
      return;
    }

    const calibration = calibrationRatio(db, chat.name, chat.digest);
    const ratio = calibration.samples === 0 ? UNCALIBRATED_RATIO : calibration.ratio;
    // The model's own tokenizer and template when Quire knows both: the count is then exact. A
    // vocabulary without a known template still counts the text better than cl100k does.
    const tokens = options.tokens ?? sharedModelTokens(gateway);
    if (tokens.willFetch(chat)) yield { type: 'waiting', note: `Reading ${chat.name}'s vocabulary from Ollama to count the prompt exactly (once per model version)…` };
    // The vocabulary first: when it cannot be read, the counter is not asked (it would fetch it again).
    const own = await tokens.tokenizer(chat, signal);
    const counted = own.ok ? await tokens.counter(chat, signal) : null;
    const exact: ExactCounter | null = counted?.ok ? counted.counter : null;
    const countText = !exact && own.ok ? (text: string) => own.tokenizer.count(text) : undefined;
    let fitted: FittedPrompt;
    try {
      fitted = fitPrompt({
        exact,
        ...(countText ? { countText } : {}),
        question: query,
        candidates: evidence.map(toPromptSource),
        history,
        maxK,
        maxSourceTokens: options.maxSourceTokens ?? ASK_DEFAULTS.maxSourceTokens,
        numCtx: chatOptions.numCtx,
        reserve: chatOptions.numPredict,
        ratio,
      });
    } catch (e) {
      for (const c of result.retrieval) c.dropped ??= 'budget';
      yield { type: 'retrieval', mode: found.mode, candidates: result.retrieval, note };
      yield finish('error', failure(e));
      return;
    }
    const sent = new Set(fitted.sources.map((s) => s.chunkId));
    let rank = 0;
    for (const c of result.retrieval) {
      if (c.dropped) continue;
      if (sent.has(c.chunkId)) c.sent = true;
      else c.dropped = rank < maxK ? 'budget' : 'k';
      rank++;
    }
    result.sources = fitted.sources.map((s) => ({ chunkId: s.chunkId, chunkIds: [...(s.chunkIds ?? [s.chunkId])], lines: s.lines, pages: s.pages ?? null }));
    result.budget = fitted.budget;
    yield { type: 'retrieval', mode: found.mode, candidates: result.retrieval, note };
    yield { type: 'budget', budget: fitted.budget };

    const tGen = performance.now();
    try {
      for await (const event of streamChat(gateway, chat.name, fitted.messages, chatOptions, signal)) {
        if (event.type === 'delta') {
          result.latencyMs.firstToken ??= Math.round(performance.now() - tGen);
          result.answer += event.text;
          yield { type: 'token', text: event.text };
        } else {
          result.answer = event.content;
          const s = event.stats;
          result.ollama = {
            promptEvalCount: s.promptEvalCount,
            evalCount: s.evalCount,
            doneReason: s.doneReason,
            tokensPerSecond: s.evalCount && s.evalDurationNs ? Math.round((s.evalCount / (s.evalDurationNs / 1e9)) * 10) / 10 : null,
          };
        }
      }
    } finally {
      result.latencyMs.generate = Math.round(performance.now() - tGen);
    }

    const reported = result.ollama.promptEvalCount;
    // Only a count over the window can have been cut; the window is asked for only when it matters.
    const window = exact && reported !== null && reported < fitted.budget.estimated ? await runningWindow(gateway, chat, chatOptions.numCtx, signal) : chatOptions.numCtx;
    result.budget = settleBudget(fitted.budget, reported, window);
    if (exact && !result.budget.exact && reported !== null) {
      // Ollama read another count than the exact one for a prompt it cannot have cut: what Quire
      // renders or tokenizes is not what this model does, so its prompts are estimated from now on.
      tokens.distrust(chat, fitted.budget.estimated, reported);
    }
    if (exact && result.budget.exact && result.budget.truncationSuspected && reported !== null) {
      result.budget = { ...result.budget, lostSources: lostSources(exact, fitted.messages, fitted.sources, result.budget.estimated - reported) };
    }
    // A truncated prompt says nothing about how our tokenizer compares with the model's, and an
    // exact count needs no calibration.
    if (result.ollama.promptEvalCount !== null && !result.budget.truncationSuspected && !exact) {
      recordCalibration(db, chat.name, chat.digest, result.ollama.promptEvalCount / fitted.budget.raw);
    }
    assess(result, fitted);
    yield finish(result.refused ? 'refused' : 'answered');
  } catch (e) {
    const shape = failure(e);
    yield finish(shape.code === 'CANCELLED' ? 'cancelled' : 'error', shape);
  } finally {
    // The caller stopped listening (closed the window, broke out of the loop): the generator is
    // being closed mid-way, and the streamed reply has been aborted by streamChat's cleanup.
    if (!finished) finish('cancelled', { code: 'CANCELLED', message: 'Cancelled: nobody was listening any more.' });
  }
}

/** Tokens the standalone rewrite may use; it is one line. */
const REWRITE_REPLY_TOKENS = 96;

/** The rewrite prompt with as many of the newest turns as fit; Ollama never has to cut it. */
function fitRewrite(question: string, history: readonly HistoryTurn[], limit: number): ReturnType<typeof rewriteMessages> {
  for (let keep = Math.min(history.length, 6); keep > 0; keep--) {
    const messages = rewriteMessages(question, history.slice(-keep));
    if (Math.ceil(countMessages(messages) * UNCALIBRATED_RATIO) <= limit) return messages;
  }
  return rewriteMessages(question, []);
}

/** Refusal, citation checks and flags, all from the text: no extra model call. */
function assess(result: AnswerResult, fitted: FittedPrompt): void {
  result.refused = isRefusal(result.answer);
  const flags = new Set<AnswerFlag>();
  if (!result.refused) {
    const report = checkCitations(
      result.answer,
      fitted.sources.map((s) => ({ chunkId: s.chunkId, text: s.text, headingPath: s.heading })),
    );
    const byId = new Map(fitted.sources.map((s) => [s.chunkId, s]));
    result.citations = report.citations.map(
      (c): Citation => ({
        chunkId: c.chunkId,
        path: byId.get(c.chunkId)?.path ?? null,
        lines: byId.get(c.chunkId)?.lines ?? null,
        pages: byId.get(c.chunkId)?.pages ?? null,
        sentence: c.sentence,
        check: c.check,
        missing: c.missing,
      }),
    );
    for (const f of report.flags) flags.add(f);
  }
  if (result.budget?.truncationSuspected) flags.add('truncation-suspected');
  if (fitted.sources.some((s) => s.flags.length > 0)) flags.add('injection-in-sources');
  if (result.ollama.doneReason === 'length') flags.add('length-limit');
  result.flags = [...flags];
}

/**
 * The window Ollama ran the prompt in: what /api/ps says, else num_ctx capped at the model's trained
 * context (as Ollama caps it). An unreachable /api/ps leaves the second answer.
 */
async function runningWindow(gateway: OllamaGateway, chat: ModelInfo, numCtx: number, signal?: AbortSignal): Promise<number> {
  const capped = chat.contextLength ? Math.min(numCtx, chat.contextLength) : numCtx;
  try {
    return (await gateway.runningContextLength(chat.name, signal)) ?? capped;
  } catch (e) {
    if (e instanceof QuireError && e.code === 'CANCELLED') throw e;
    return capped;
  }
}

async function resolveChatModel(gateway: OllamaGateway, name: string, signal?: AbortSignal): Promise<ModelInfo> {
  const info = await gateway.withOptions(PERSON_WAITING).modelInfo(name, signal);
  if (info.capabilities.length > 0 && !info.capabilities.includes('completion')) {
    throw new QuireError('NOT_A_CHAT_MODEL', `${info.name} cannot chat (it is an embedding model). Choose a chat model such as ${DEFAULT_CHAT_MODEL}.`);
  }
  return info;
}

function toCandidate(r: SearchResult, dropped?: Candidate['dropped']): Candidate {
  return {
    chunkId: r.chunkId,
    chunkIds: r.chunkIds,
    path: r.path,
    root: r.root,
    heading: r.heading,
    lines: r.lines,
    pages: r.pages,
    lexicalRank: r.lexicalRank,
    denseRank: r.denseRank,
    distance: r.distance,
    score: r.score,
    sent: false,
    ...(dropped ? { dropped } : {}),
    flags: r.flags,
  };
}

export function toPromptSource(r: SearchResult): PromptSource {
  return { chunkId: r.chunkId, chunkIds: r.chunkIds, path: r.path, heading: r.heading, lines: r.lines, pages: r.pages, text: r.text, flags: r.flags, hit: r.hit, ...(r.chunkSpans ? { chunkSpans: r.chunkSpans } : {}) };
}

export type { Budget };
