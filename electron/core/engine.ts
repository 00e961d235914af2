/**
 * The engine: Quire's one front door. It owns the database connection, the settings, the Ollama
 * gateway, the jobs and their events. Every shell — the CLI, browser mode, the Electron main
 * process — creates one with `createEngine` and goes through it: the contract's methods through
 * `call`/`dispatch` (what the UI uses), and the same operations awaited in-process (what the CLI
 * uses, printing progress as it goes). Nothing outside electron/core imports another core module
 * (test/architecture.test.ts enforces it). See docs/ARCHITECTURE.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AskEvent } from '../../shared/answer';
import type { ApiEvent, Input, MethodName, Output, ScopeRef } from '../../shared/contract';
import type { EvalGrid, EvalReport, Question } from '../../shared/eval';
import { keepsTurn } from '../../shared/conversations';
import { OLLAMA_ERROR_CODES, QuireError, type QuireErrorShape } from '../../shared/errors';
import type { SearchResponse } from '../../shared/search';
import { ask } from './answer/ask';
import { dispatch, type DispatchResult, type Handlers } from './api/dispatch';
import { createService, type ShellActions } from './api/service';
import { resolveScopeRefs } from './db/scope-refs';
import { collectionNamed, ensureCollection, findCollectionByRoot, folderRoot, forgetCollection, getCollection, listCollections, setWatchState, type WatchState } from './db/collections';
import { dequeueCovered, enqueuePaths, queueMark, waitingChanges, WHOLE_FOLDER } from './db/import-queue';
import { WatchManager, type WatchStatus } from './watch/watch-manager';
import { sharedParsePool } from './ingest/parse/parse-pool';
import type { ParseRequest } from './ingest/parse/parse-file';
import { insertEvalReport } from './db/eval-reports';
import { hasBuildUnderWay, releaseClaims } from './db/keyword-index-build';
import { dueForRebuild, refreshAfterWrites } from './db/keyword-statistics';
import { indexStatus, runDoctor, type IndexStatus } from './db/health';
import { conversationHistory, conversationScope, recordTurn, requireConversation } from './db/conversations';
import { openDatabase, type Db } from './db/open';
import { removeIndexes } from './eval/index-files';
import { lockHolder } from './eval/run-lock';
import { waitForLock } from './db/process-lock';
import { runEval } from './eval/run';
import { parseChunkerSpec } from './ingest/chunkers/index';
import { EmbeddingSession, hasMissingVectors } from './ingest/embedding-session';
import { importFolder } from './ingest/pipeline';
import type { ImportProgress, ImportReport } from './ingest/types';
import { MODEL_LOOKUP, OllamaGateway, type PullProgress } from './ollama/gateway';
import { ollamaState, type OllamaState } from './ollama/state';
import { machineFacts } from './setup/machine';
import { ModelTokens } from './tokens/model-tokens';
import { VocabularyStore } from './tokens/vocabulary-store';
import { evalIndexDir, vocabularyDir } from './paths';
import { search } from './retrieve/search';
import { SettingsStore } from './settings';
import type { SecretBox } from './secrets/secret-box';
import { salvage, type Salvage } from './db/salvage';
import { activateCompleteModel, getActiveEmbeddingModel, pendingSwitch } from './db/embedding-models';
import { dropIdleBits, maintainQuantization, type QuantizationProgress } from './retrieve/quantization';
import type { QuantizationState } from './db/bit-vectors';
import { mergeHeaders, NUMERIC_SETTINGS, OLLAMA_HEADERS, SETTING_KEYS, SETTINGS, type Settings, type SettingsView } from '../../shared/settings';
import { packageVersion } from './version';
import type { MachineFacts } from '../../shared/setup-models';

export type { ShellActions } from './api/service';
export type { SecretBox } from './secrets/secret-box';
export type { DispatchResult, Handlers } from './api/dispatch';
export type { IndexStatus } from './db/health';
export type { Salvage } from './db/salvage';
export type { ImportReport } from './ingest/types';
export type { PullProgress } from './ollama/gateway';
export { parseQuestionSet } from './eval/questions';
export { parseChunkerSpec } from './ingest/chunkers/index';
export { diffReports, type ReportDiff } from './eval/diff';
export { defaultDatabasePath, evalIndexDir } from './paths';
export { openDatabase, type Db, type OpenOptions } from './db/open';
export { collapseWhitespace } from './text/normalise';

export interface EngineOptions {
  dbPath: string;
  /** Opens the database (the Electron shell passes its native-aware opener); openDatabase otherwise. */
  open?: (dbPath: string) => Db;
  /** The bundled sample notes offered on first run. */
  sampleNotesDir?: string;
  /** Quire's version, recorded in evaluation reports; package.json's unless given. */
  version?: string;
  /** Where evaluation indexes live; beside the database unless given. */
  evalDir?: string;
  /** What only a desktop shell can do. */
  shell?: ShellActions;
  /** OLLAMA_HOST, QUIRE_OLLAMA_HEADERS, OLLAMA_MODELS (where first run measures the free disk); process.env unless given. */
  env?: { OLLAMA_HOST?: string | undefined; QUIRE_OLLAMA_HEADERS?: string | undefined; OLLAMA_MODELS?: string | undefined };
  /** This computer's memory and free disk as first run sees them, in place of the measured ones (tests). */
  machine?: Partial<MachineFacts>;
  /** Request headers for this engine's life only, over the saved and environment ones (the CLI's --ollama-header). */
  ollamaHeaders?: Readonly<Record<string, string>>;
  /**
   * Seals saved request header values at rest: the desktop app's, made from Electron's safeStorage.
   * When it really protects, values still stored as they are get sealed as the engine opens the
   * database. Without one (CLI, browser mode) values are stored as they are, and Settings says so.
   */
  secretBox?: SecretBox;
  /**
   * A long-lived shell (the app, browser mode): carry on a change of embedding model that a
   * restart interrupted, as a job whose events reach the window. Not for the CLI.
   */
  resumeMigration?: boolean;
  /**
   * A long-lived shell: watch the folders set to be watched, and finish whole-folder imports that a
   * restart interrupted (core/watch/). Not for the CLI, which never starts work by itself.
   */
  watch?: boolean;
  /**
   * The parse worker's script (core/ingest/parse/): the bundled parse-worker.cjs in the desktop app,
   * worker-bootstrap.mjs when run from source (the default); null parses in-process.
   */
  parseWorker?: string | URL | null;
  /** A file's parse limits (time, memory); defaults in parse-pool.ts. */
  parseLimits?: { timeoutMs?: number; maxMemoryMb?: number };
  /** Watch timings, for tests. */
  watchTimings?: { debounceMs?: number; maxWaitMs?: number; returnPollMs?: number };
  /**
   * Whether imports and embedding runs start the two-stage search's upkeep in the background (true
   * unless given). The CLI says false: it runs the upkeep itself, awaited, with progress and Ctrl-C.
   * The same goes for the keyword statistics' rebuild an import or a forget makes due: in the
   * background (the import's job, a forget's answer, do not wait for it), or, for the CLI, awaited
   * before they return, its failure a warning in their result.
   */
  backgroundUpkeep?: boolean;
  /** The gateway's first retry backoff (doubling each retry; 500 ms unless given), for tests of an Ollama that is down. */
  ollamaBackoffMs?: number;
  /**
   * The gateway's timeout per request (120 s unless given), for tests of a server that hangs:
   * every call made through the engine gives up by then, quick ones too (withOptions never waits longer).
   */
  ollamaTimeoutMs?: number;
}

export interface RunOptions<P> {
  signal?: AbortSignal;
  onProgress?: (progress: P) => void;
}

export interface ImportRun extends RunOptions<ImportProgress> {
  /** Only these paths of the folder (what a watcher saw change); the whole folder otherwise. */
  only?: readonly string[];
}

export interface EmbedOutcome {
  model: string;
  documents: number;
  chunks: number;
  requests: number;
}

export interface ForgetOutcome {
  root: string;
  /** Documents removed; null when the folder was never imported (only evaluation indexes went). */
  documents: number | null;
  evalIndexes: number;
  /** Problems after the folder was removed, which the forget did not fail for (its keyword statistics not rebuilt). */
  warnings: QuireErrorShape[];
}

export interface EvaluateOptions {
  docs: string;
  questions: Question[];
  questionSetName: string;
  grid: EvalGrid;
  /** The context-window cap; the saved setting unless given (a rerun uses its report's). */
  numCtxCap?: number;
  /** Build each index anew rather than reuse the one an earlier run built (`quire eval --fresh-index`). */
  freshIndexes?: boolean;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface Engine {
  readonly dbPath: string;
  readonly settings: SettingsStore;
  /**
   * Saves settings as a person's choice (Settings, a CLI flag): a changed chat or embedding model
   * only once Ollama at the (new) host lists it, unless `force`. Nothing is saved on refusal.
   */
  saveSettings(patch: Input<'setSettings'>, signal?: AbortSignal): Promise<SettingsView>;
  /** The Ollama gateway at the saved host with the headers in effect (one per both, so its model cache is kept). */
  gateway(): OllamaGateway;
  /** The contract's methods, validated in and out: what a transport calls. */
  dispatch(method: string, input: unknown): Promise<DispatchResult>;
  /** One contract method, validated; a failure is thrown as a QuireError. */
  call<M extends MethodName>(method: M, input: Input<M>): Promise<Output<M>>;
  /** Job progress, results and library changes. */
  onEvent(listener: (event: ApiEvent) => void): () => void;

  // The same operations awaited in-process, for shells that wait for the work (the CLI).
  importFolder(input: Input<'importFolder'>, run?: ImportRun): Promise<ImportReport>;
  search(input: Input<'search'>, signal?: AbortSignal): Promise<SearchResponse>;
  ask(input: Input<'ask'>, signal?: AbortSignal): AsyncGenerator<AskEvent>;
  embedMissing(input: Input<'embedMissing'>, run?: RunOptions<{ documents: number }>): Promise<EmbedOutcome>;
  /** Runs a question set over a folder (imported or not) and stores the report. */
  evaluate(options: EvaluateOptions): Promise<EvalReport>;
  /**
   * Brings the active model's bits for two-stage dense search up to date (built on first need, a
   * database from before them included; recalibrated as the collection grows). Imports and
   * embedding runs start it in the background; the CLI awaits it after them. Searches stay exact
   * until it is done.
   */
  maintainVectors(run?: { signal?: AbortSignal; onProgress?: (p: QuantizationProgress) => void }): Promise<QuantizationState | null>;
  /** What is indexed, in more detail than the contract's status (the CLI's status). */
  indexStatus(): IndexStatus;
  /** Whether Ollama answers at the saved host (the status bar's and `quire status`'s one check). */
  ollamaState(): Promise<OllamaState>;
  /**
   * Downloads a model through Ollama with its progress (the whole download's bytes). With `saveAs`,
   * the model is then saved as that setting (checked as Settings checks it); a pull that fails or
   * is cancelled saves nothing.
   */
  pullModel(model: string, run?: RunOptions<PullProgress> & { saveAs?: 'chatModel' | 'embedModel' | undefined }): Promise<{ model: string; saved: boolean }>;
  /** The folders a question's scope names (ids, names or paths, subfolders among them); COLLECTION_NOT_FOUND for an unknown one. */
  resolveScope(refs: readonly ScopeRef[] | undefined): ResolvedScope;
  /** Checks the index is whole. */
  doctor(): ReturnType<typeof runDoctor>;
  /** Turns a folder's watching on, holds it or turns it off (takes effect where the engine watches). */
  setWatch(collectionId: string, state: WatchState): Promise<WatchStatus>;
  watchStatus(collectionId: string): WatchStatus;
  /** What background upkeep after an import or a forget could not do (the keyword statistics' rebuild failed), until it next succeeds. */
  upkeepWarnings(): QuireErrorShape[];
  /** Removes a folder by its path, with everything derived from it and the evaluation indexes built for it. */
  forgetFolder(folder: string): Promise<ForgetOutcome>;
  /**
   * Turns a folder's watching off and removes it, with everything derived from it. The folder is
   * gone when this returns; the keyword statistics' rebuild it makes due is awaited only with
   * `backgroundUpkeep: false` (the CLI), whose failure is then a warning here.
   */
  forgetCollection(collectionId: string): Promise<{ documents: number; warnings: QuireErrorShape[] }>;
  /** Cancels running jobs, waits briefly for them to stop writing, and closes the database. */
  close(): Promise<void>;
}


export function createEngine(options: EngineOptions): Engine {
  const dbPath = options.dbPath;
  const db = (options.open ?? openDatabase)(dbPath);
  // Choosing an embedding model whose vectors are already complete switches searches to it at once.
  const settings = new SettingsStore(
    db,
    options.env ?? process.env,
    (before, after) => {
      if (after.embedModel !== before.embedModel) activateCompleteModel(db, after.embedModel);
    },
    undefined,
    options.secretBox ?? null,
  );
  try {
    settings.sealSavedHeaders();
  } catch {
    // Neither the value nor the keychain's own words (they might quote it): the old values stay and are still sent.
    process.emitWarning('Saved Ollama request header values could not be sealed with the system keychain this time; they stay stored as they were and are tried again at the next start.', { code: 'QUIRE_HEADERS_NOT_SEALED' });
  }
  const evalDir = options.evalDir ?? evalIndexDir(dbPath);
  const version = options.version ?? packageVersion();
  const listeners = new Set<(event: ApiEvent) => void>();
  const emit = (event: ApiEvent) => {
    for (const l of [...listeners]) l(event);
  };

  // One import at a time per database: in this process by a queue, across processes by a lock file
  // beside the database, so two imports never redo (or fail) each other's files.
  let importQueue: Promise<unknown> = Promise.resolve();
  let importsQueued = 0;
  const importLockFile = dbPath === ':memory:' ? null : `${path.resolve(dbPath)}.import-lock`;

  // One parse worker per process, started on the first file and replaced when a file kills it.
  const workerScript = options.parseWorker === undefined ? new URL('./ingest/parse/worker-bootstrap.mjs', import.meta.url) : options.parseWorker;
  const parser = workerScript === null ? null : sharedParsePool(workerScript, options.parseLimits);
  const parse = parser ? { parse: (req: ParseRequest) => parser.parse(req) } : {};

  let gateway: { key: string; gateway: OllamaGateway } | null = null;
  const gatewayFor = (host: string, saved: Record<string, string>) => {
    const headers = mergeHeaders(saved, options.ollamaHeaders ?? {});
    const key = JSON.stringify([host, Object.entries(headers).sort()]);
    const patience = {
      ...(options.ollamaBackoffMs !== undefined ? { backoffMs: options.ollamaBackoffMs } : {}),
      ...(options.ollamaTimeoutMs !== undefined ? { timeoutMs: options.ollamaTimeoutMs } : {}),
    };
    return { key, make: () => new OllamaGateway({ host, headers, ...patience }) };
  };
  const currentGateway = () => {
    const wanted = gatewayFor(settings.get('ollamaHost'), settings.headers());
    if (gateway?.key !== wanted.key) gateway = { key: wanted.key, gateway: wanted.make() };
    return gateway.gateway;
  };
  // The models' own tokenizers, their vocabularies kept beside the database by model digest.
  const vocabularies = dbPath === ':memory:' ? null : new VocabularyStore(vocabularyDir(dbPath));
  let tokens: { gateway: OllamaGateway; tokens: ModelTokens } | null = null;
  const currentTokens = () => {
    const g = currentGateway();
    if (tokens?.gateway !== g) tokens = { gateway: g, tokens: new ModelTokens(g, vocabularies) };
    return tokens.tokens;
  };

  /** Each model the patch changes must be listed by the Ollama the patch leaves in effect. */
  const confirmModels = async (patch: Input<'setSettings'>, signal?: AbortSignal) => {
    const { values, headers } = settings.check(patch);
    const changed = (['chatModel', 'embedModel'] as const).filter((k) => values[k] !== undefined && values[k] !== settings.get(k));
    if (changed.length === 0) return;
    const target = gatewayFor(values.ollamaHost ?? settings.get('ollamaHost'), headers ? mergeHeaders(settings.headers(), headers) : settings.headers());
    // The gateway's own patience, and only the caller's signal: a server that hangs is OLLAMA_TIMEOUT, not a cancellation.
    const g = (target.key === gateway?.key ? gateway.gateway : target.make()).withOptions(MODEL_LOOKUP);
    for (const key of changed) {
      let capabilities: string[];
      try {
        await g.requireListed(values[key]!, signal);
        capabilities = (await g.modelInfo(values[key]!, signal)).capabilities;
      } catch (e) {
        if (e instanceof QuireError && (e.code === 'MODEL_NOT_FOUND' || e.code === 'CANCELLED')) throw new QuireError(e.code, `${SETTINGS[key].label} "${values[key]}" was not saved: ${e.message}`);
        const reason = e instanceof QuireError ? e.message : String(e);
        throw new QuireError(e instanceof QuireError ? e.code : 'OLLAMA_ERROR', `${SETTINGS[key].label} "${values[key]}" was not saved: Ollama could not confirm it has it. ${reason} Save it anyway only if you will pull it later (--force; "Save anyway" in Settings).`);
      }
      // A chat model saved as the embedding model (or the reverse) would fail every later import or
      // answer; Ollama says what each model does (an older Ollama lists no capabilities: allowed).
      const needs = key === 'embedModel' ? 'embedding' : 'completion';
      if (capabilities.length > 0 && !capabilities.includes(needs)) {
        const is = capabilities.includes('embedding') ? 'an embedding model' : capabilities.includes('completion') ? 'a chat model' : `a model for ${capabilities.join(', ')}`;
        throw new QuireError('WRONG_MODEL_KIND', `${SETTINGS[key].label} "${values[key]}" was not saved: it is ${is}, not ${key === 'embedModel' ? 'an embedding model' : 'a chat model'} (Ollama lists its capabilities as ${capabilities.join(', ')}).`);
      }
    }
  };

  /** Runs a question set and stores the report where the Evaluate view lists it (CLI runs too). */
  const evaluateAndStore = async (o: EvaluateOptions): Promise<{ report: EvalReport; reportId: number }> => {
    const report = await runEval({
      docs: o.docs,
      questions: o.questions,
      questionSetName: o.questionSetName,
      grid: o.grid,
      gateway: currentGateway(),
      version,
      numCtxCap: o.numCtxCap ?? settings.get('numCtx'),
      workDir: evalDir,
      keepPartial: true,
      ...(o.freshIndexes ? { freshIndexes: true } : {}),
      ...parse,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    });
    return { report, reportId: insertEvalReport(db, report) };
  };

  // The import queue (db/import-queue.ts) outlives the process: a whole-folder import is queued
  // while it runs, so one a restart cut short is finished by the next long-lived shell; and an
  // import removes the watched changes it covered, those queued before it began.
  let closing = false;
  // Upkeep of the bits for two-stage dense search: one run at a time, after imports and embedding,
  // stopped by close (it resumes next time: a batch is never half written).
  let vectorUpkeep: Promise<QuantizationState | null> = Promise.resolve(null);
  const upkeepStop = new AbortController();
  const maintainVectors = (run: { signal?: AbortSignal; onProgress?: (p: QuantizationProgress) => void } = {}) => {
    const next = vectorUpkeep.catch(() => null).then(() => {
      const model = getActiveEmbeddingModel(db);
      if (closing) return null;
      dropIdleBits(db, model?.id ?? null);
      if (!model) return null;
      const signal = run.signal ? AbortSignal.any([run.signal, upkeepStop.signal]) : upkeepStop.signal;
      return maintainQuantization(db, model, { quantizeAbove: settings.get('denseQuantizeAbove'), signal, ...(run.onProgress ? { onProgress: run.onProgress } : {}) });
    });
    vectorUpkeep = next;
    return next;
  };
  const upkeepInBackground = () =>
    void maintainVectors().catch((e: unknown) => process.emitWarning(`Building the bits for two-stage vector search failed: ${e instanceof Error ? e.message : String(e)}`));
  // Keyword search's statistics after an import's or a forget's writes (db/keyword-statistics.ts).
  // In the background the writes' answer comes at once: the folder is gone (the documents are in)
  // when their transactions commit, and searches read the old index, whole, until the swap. Stopped
  // by close; a long-lived shell carries it on at its next start. A failure is logged
  // (refreshAfterWrites) and the doctor shows the index still due.
  const statisticsInForeground = options.backgroundUpkeep === false;
  let statisticsUpkeep: Promise<unknown> = Promise.resolve();
  // The last background rebuild's failure, shown by the Library until a later rebuild succeeds.
  let statisticsWarning: QuireErrorShape | null = null;
  const statisticsInBackground = (after: 'import' | 'forget' | null) => {
    statisticsUpkeep = refreshAfterWrites(db, after, { signal: upkeepStop.signal })
      .then((failed) => {
        if (closing) return;
        // A refresh that failed nothing need not have rebuilt anything (another process holds the
        // build, or had the lock): the warning goes once nothing is due or under way any more.
        const warning = failed ?? (statisticsWarning && (hasBuildUnderWay(db) || dueForRebuild(db).length > 0) ? statisticsWarning : null);
        if (warning?.message === statisticsWarning?.message) return;
        statisticsWarning = warning;
        emit({ type: 'library.changed' });
      })
      // A listener's failure must not become an unhandled rejection, nor keep close from closing.
      .catch((e: unknown) => process.emitWarning(`After the keyword statistics' rebuild: ${e instanceof Error ? e.message : String(e)}`));
  };
  const startQueued = (folder: string, only: readonly string[] | undefined) => {
    const collectionId = ensureCollection(db, folderRoot(folder)).id;
    if (!only) enqueuePaths(db, collectionId, [WHOLE_FOLDER]);
    return { collectionId, mark: queueMark(db), only };
  };
  const finishQueued = (q: ReturnType<typeof startQueued>, report: ImportReport) => {
    if (!report.cancelled) dequeueCovered(db, q.collectionId, q.mark, q.only ?? 'all');
    // Cancelled by a person: not to be resumed. Cut short by quitting: resumed at the next start.
    else if (!q.only && !closing) dequeueCovered(db, q.collectionId, q.mark, [WHOLE_FOLDER]);
  };

  const engine: Engine = {
    dbPath,
    settings,
    async saveSettings({ force, ...patch }, signal) {
      if (!force) await confirmModels(patch, signal);
      const threshold = settings.get('denseQuantizeAbove');
      settings.set(patch);
      // Lowered: the bits are built now, not at the next import; raised: their storage is freed.
      if (settings.get('denseQuantizeAbove') !== threshold) upkeepInBackground();
      return settings.view();
    },
    gateway: currentGateway,
    dispatch: (method, input) => dispatch(service.handlers, method, input),
    async call(method, input) {
      const r = await dispatch(service.handlers, method, input);
      if (!r.ok) throw new QuireError(r.error.code as never, r.error.message);
      return r.value as never;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async importFolder(input, run = {}) {
      const folder = importableFolder(input.path);
      const chunker = input.chunker !== undefined ? parseChunkerSpec(input.chunker) : null; // a bad spec is refused before waiting
      const previous = importQueue;
      let finished!: () => void;
      importQueue = new Promise<void>((resolve) => (finished = resolve));
      const ahead = importsQueued++ > 0;
      const waiting = (currentFile: string | null) => run.onProgress?.({ phase: 'waiting', filesDone: 0, filesTotal: 0, chunks: 0, bytesDone: 0, bytesTotal: 0, currentFile });
      try {
        if (ahead) waiting(null);
        // Cancelling while queued behind another import of this engine ends the wait at once.
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => reject(new QuireError('CANCELLED', ahead ? 'Import cancelled while it waited for another import.' : 'Import cancelled before it began.'));
          if (run.signal?.aborted) return onAbort();
          run.signal?.addEventListener('abort', onAbort, { once: true });
          void previous.then(() => {
            run.signal?.removeEventListener('abort', onAbort);
            resolve();
          });
        });
        const lock = importLockFile
          ? await waitForLock(importLockFile, folder, { ...(run.signal ? { signal: run.signal } : {}), onWait: (holder) => waiting(holder.what) }).catch((e: unknown) => {
              if (run.signal?.aborted) throw new QuireError('CANCELLED', 'Import cancelled while it waited for another import.', { cause: e });
              throw e;
            })
          : null;
        try {
          const s = settings.all();
          const queued = startQueued(folder, run.only);
          const report = await importFolder(db, folder, {
            embedding: input.embed === false ? null : { gateway: currentGateway(), tokens: currentTokens(), model: s.embedModel, chosen: () => settings.get('embedModel'), inFlight: s.embedBatchesInFlight, ...(input.batch ? { batchSize: input.batch } : {}) },
            chunker: chunker ?? { kind: 'heading', maxTokens: s.chunkTokens },
            maxFileBytes: Math.round((input.maxFileMb ?? s.maxFileMb) * 1024 * 1024),
            ...(run.signal ? { signal: run.signal } : {}),
            ...(run.onProgress ? { onProgress: run.onProgress } : {}),
            ...(run.only ? { only: run.only } : {}),
            ...parse,
            refreshStatistics: statisticsInForeground,
          });
          finishQueued(queued, report);
          if (!statisticsInForeground) statisticsInBackground('import');
          if (!report.cancelled && options.backgroundUpkeep !== false) upkeepInBackground();
          return report;
        } finally {
          lock?.release();
        }
      } finally {
        importsQueued--;
        finished();
      }
    },

    async search(input, signal) {
      // The search mode (when the call names none) and fusion settings are read by search itself (retrieve/search.ts).
      const scope = resolveScope(db, input.collections);
      const found = await search(db, input.query, {
        gateway: currentGateway(),
        tokens: currentTokens(),
        ...(scope.length > 0 ? { folders: scope.map((c) => ({ collectionId: c.id, path: c.path })) } : {}),
        ...(input.k !== undefined ? { k: input.k } : {}),
        ...(input.mode ? { mode: input.mode } : {}),
        ...(signal ? { signal } : {}),
      });
      return { ...found, scope };
    },

    ask(input, signal) {
      const s: Settings = settings.all();
      const conversationId = input.conversationId ?? null;
      if (conversationId !== null) requireConversation(db, conversationId);
      const scope = input.collections === undefined && conversationId !== null ? stillThere(db, conversationScope(db, conversationId)) : resolveScope(db, input.collections);
      const answer = ask(db, currentGateway(), input.question, {
        // A follow-up continues its stored conversation: its turns are the history unless the caller sends its own.
        history: input.history ?? (conversationId !== null ? conversationHistory(db, conversationId) : []),
        scope,
        k: input.k ?? s.k,
        chatModel: input.chatModel ?? s.chatModel,
        numCtxCap: s.numCtx,
        tokens: currentTokens(),
        ...(input.numCtx ? { numCtx: input.numCtx } : {}),
        ...(signal ? { signal } : {}),
      });
      return inConversation(db, conversationId, input.question, answer);
    },

    async embedMissing(input, run = {}) {
      const model = settings.get('embedModel');
      const session = new EmbeddingSession(db, { gateway: currentGateway(), tokens: currentTokens(), model, chosen: () => settings.get('embedModel'), inFlight: settings.get('embedBatchesInFlight'), ...(input.batch ? { batchSize: input.batch } : {}) }, run.signal);
      let documents = 0;
      try {
        const chunks = await session.embedMissing({}, () => {
          documents++;
          run.onProgress?.({ documents });
        });
        // Nothing left to embed (e.g. the documents still lacking vectors were forgotten): the chosen
        // model is complete. The session has switched to the version Ollama serves if it asked Ollama.
        if (chunks === 0 && !session.resolved) activateCompleteModel(db, settings.get('embedModel'));
        if (options.backgroundUpkeep !== false) upkeepInBackground();
        return { model, documents, chunks, requests: session.requestCount };
      } catch (e) {
        // Ollama is needed only if something lacks vectors: with nothing to embed, there is nothing to
        // fail, whether Ollama is down, slow, behind a certificate this computer does not trust, or
        // without the model (removed since its vectors were made).
        if (e instanceof QuireError && OLLAMA_ERROR_CODES.has(e.code) && !hasMissingVectors(db, model)) return { model, documents, chunks: 0, requests: 0 };
        throw e;
      }
    },

    evaluate: async (o) => (await evaluateAndStore(o)).report,

    resolveScope: (refs) => resolveScope(db, refs),
    maintainVectors,
    indexStatus: () => indexStatus(db, dbPath, settings.get('denseQuantizeAbove')),
    ollamaState: () => ollamaState(currentGateway()),

    async pullModel(model, run = {}) {
      for await (const progress of currentGateway().pull(model, run.signal)) run.onProgress?.(progress);
      if (!run.saveAs || settings.get(run.saveAs) === model.trim()) return { model, saved: false };
      await engine.saveSettings({ [run.saveAs]: model.trim() }, run.signal);
      return { model, saved: true };
    },
    doctor: () => runDoctor(db),

    async setWatch(collectionId, state) {
      if (watches) return watches.set(collectionId, state);
      setWatchState(db, collectionId, state);
      emit({ type: 'library.changed' });
      return engine.watchStatus(collectionId);
    },
    upkeepWarnings: () => (statisticsWarning ? [statisticsWarning] : []),

    watchStatus(collectionId) {
      if (watches) return watches.status(collectionId);
      return { state: getCollection(db, collectionId).watch, busy: false, queued: waitingChanges(db, collectionId, 0).count, error: null };
    },

    async forgetFolder(folder) {
      const resolved = path.resolve(folder);
      // As imports resolve it (symlinks followed); a folder gone already: the path as given.
      const root = folderRoot(folder);
      // Or by the name status and --collection use ("notes"), when nothing at that path could be meant instead.
      const byName = () => (fs.existsSync(resolved) ? null : (collectionNamed(listCollections(db), folder) ?? null));
      const collection = findCollectionByRoot(db, root) ?? findCollectionByRoot(db, resolved) ?? byName();
      // Not while an evaluation (here or in another process) is using this folder's indexes.
      const removeFor = (f: string) => (lockHolder(evalDir)?.docs === f ? 0 : removeIndexes(evalDir, f).indexes);
      const evalIndexes = removeFor(root) + (root !== resolved ? removeFor(resolved) : 0) + (collection && collection.root !== root && collection.root !== resolved ? removeFor(collection.root) : 0);
      if (!collection) {
        if (evalIndexes > 0) return { root, documents: null, evalIndexes, warnings: [] };
        const known = listCollections(db).map((c) => `${c.name} (${c.root})`);
        throw new QuireError('COLLECTION_NOT_FOUND', `${folder} is not an imported folder (never imported, or already forgotten).${known.length ? ` Imported folders: ${known.join(', ')}.` : ''}`);
      }
      const { documents, warnings } = await engine.forgetCollection(collection.id);
      return { root: collection.root, documents, evalIndexes, warnings };
    },

    async forgetCollection(collectionId) {
      const collection = getCollection(db, collectionId);
      await engine.setWatch(collectionId, 'off');
      const { documents } = forgetCollection(db, collection);
      emit({ type: 'library.changed' });
      // The collection may have shrunk under the threshold (or far from the bits' mean).
      upkeepInBackground();
      if (!statisticsInForeground) {
        statisticsInBackground('forget');
        return { documents, warnings: [] };
      }
      const warning = await refreshAfterWrites(db, 'forget', { signal: upkeepStop.signal });
      return { documents, warnings: warning ? [warning] : [] };
    },

    async close() {
      closing = true;
      upkeepStop.abort();
      await watches?.close();
      await service.close();
      await vectorUpkeep.catch(() => null);
      await statisticsUpkeep;
      listeners.clear();
      try {
        releaseClaims(db);
      } catch {
        // A busy lock or a damaged file: the claim goes stale on its own (STALE_CLAIM_MS).
      }
      db.close();
    },
  };

  const service = createService({
    db,
    engine,
    evaluate: evaluateAndStore,
    emit,
    sampleNotesDir: options.sampleNotesDir ?? '',
    evalDir,
    machine: async (host) => ({ ...(await machineFacts({ host, env: options.env ?? process.env, dataDir: path.dirname(path.resolve(dbPath)) })), ...options.machine }),
    ...(options.shell ? { shell: options.shell } : {}),
  });
  const watches = options.watch
    ? new WatchManager({
        db,
        importFolder: (root, only, signal) => engine.importFolder({ path: root }, { signal, ...(only ? { only } : {}) }),
        changed: () => emit({ type: 'library.changed' }),
        ...options.watchTimings,
      })
    : null;
  watches?.start();
  if (options.resumeMigration && (hasBuildUnderWay(db) || dueForRebuild(db).length > 0)) {
    // A keyword index rebuild a quit cut short (its shadow's triggers cost every write until it is
    // swapped in), or one a quit or a failure (a full disk) kept from starting: bm25 keeps the
    // deleted rows meanwhile. Stopped by close, resumed next time.
    setImmediate(() => statisticsInBackground(null));
  }
  if (options.resumeMigration && pendingSwitch(db, settings.get('embedModel'))) {
    setImmediate(() => void engine.dispatch('embedMissing', {}));
  } else if (options.resumeMigration) {
    // A long-lived shell: a database from before two-stage search gets its bits here, in the background.
    setImmediate(upkeepInBackground);
  }
  return engine;
}

/** A scope's folders by id, name and subfolder path ('' for a whole folder); empty (every folder) when none are named. */
type ResolvedScope = Array<{ id: string; name: string; path: string }>;
function resolveScope(db: Db, refs: readonly ScopeRef[] | undefined): ResolvedScope {
  return refs && refs.length > 0 ? resolveScopeRefs(db, refs).map((p) => ({ id: p.collection.id, name: p.collection.name, path: p.path })) : [];
}

/**
 * A stored scope as it resolves now: a folder forgotten since, or a subfolder left with no
 * document, is dropped rather than failing a follow-up the person did not scope. When none is left
 * the follow-up is refused: an empty scope would ask it of every folder, far wider than its
 * conversation was asked, without a word.
 */
function stillThere(db: Db, refs: ReadonlyArray<{ collectionId: string; path: string }> | null): ResolvedScope {
  if (refs === null) {
    throw new QuireError(
      'COLLECTION_NOT_FOUND',
      "The folders this conversation's last question was asked of are not known (its answer was removed with a document it quoted, before Quire kept them with the question). Name the folders to ask of, or ask of every folder (the CLI's --all-folders).",
    );
  }
  const left = refs.flatMap((ref) => {
    try {
      return resolveScope(db, [ref]);
    } catch (e) {
      if (e instanceof QuireError && e.code === 'COLLECTION_NOT_FOUND') return [];
      throw e;
    }
  });
  if (refs.length > 0 && left.length === 0) {
    throw new QuireError(
      'COLLECTION_NOT_FOUND',
      "The folders this conversation's last question was asked of hold no imported document any more (forgotten, or emptied). Name the folders to ask of, or ask of every folder (the CLI's --all-folders).",
    );
  }
  return left;
}

/** The absolute folder a path names (`~` is the home folder), or NOT_A_FOLDER. */
export function importableFolder(given: string): string {
  const folder = path.resolve(given.replace(/^~(?=$|[\\/])/, os.homedir()));
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(folder, { throwIfNoEntry: false });
  } catch {
    stat = undefined; // unreadable on the way there: refused below, as before
  }
  // A note's own path is the likeliest slip; "not on this computer" would be wrong about it.
  if (stat?.isFile()) {
    throw new QuireError('NOT_A_FOLDER', `${given} is a file. Quire imports folders: give the folder it is in (${path.dirname(folder)}).`);
  }
  if (!stat?.isDirectory()) {
    throw new QuireError('NOT_A_FOLDER', `${given} is not a folder on this computer.`);
  }
  return folder;
}

export interface RebuildOutcome {
  into: string;
  /** Where the folder list came from: the damaged file, or the folders named. */
  foldersFrom: 'database' | 'arguments';
  folders: Array<{ root: string; report: ImportReport | null; error: string | null }>;
  settingsKept: number;
}

/**
 * Rebuilds an index into a new file from the source folders: those named, else those the damaged
 * file still lists (read from a copy; the damaged file is never changed). The settings it still
 * holds are carried over. Each folder is imported as usual; one that is gone is reported, and the
 * others go on.
 */
export async function rebuildIndex(o: {
  damaged: string;
  into: string;
  folders?: string[];
  /** false: text only (vectors later with embed). */
  embed?: boolean;
  env?: EngineOptions['env'];
  /** As createEngine's: the built CLI's bundled worker (from source the engine finds its own). */
  parseWorker?: EngineOptions['parseWorker'];
  signal?: AbortSignal;
  onProgress?: (root: string, progress: ImportProgress) => void;
}): Promise<RebuildOutcome> {
  if (fs.existsSync(o.into)) throw new QuireError('INVALID_ARGUMENT', `${o.into} already exists; rebuild into a new file (--into PATH).`);
  const found = fs.existsSync(o.damaged) ? salvage(o.damaged) : { roots: [], settings: [] };
  const named = (o.folders ?? []).map((f) => path.resolve(f));
  const roots = named.length > 0 ? named : found.roots;
  if (roots.length === 0) {
    throw new QuireError('INVALID_ARGUMENT', `The list of folders could not be read from ${o.damaged}. Name the folders to rebuild from: quire rebuild <folder>… --db ${o.damaged}`);
  }
  const engine = createEngine({ dbPath: o.into, ...(o.env ? { env: o.env } : {}), ...(o.parseWorker !== undefined ? { parseWorker: o.parseWorker } : {}) });
  try {
    const settingsKept = applySalvagedSettings(engine, found);
    const folders: RebuildOutcome['folders'] = [];
    for (const root of roots) {
      try {
        const report = await engine.importFolder({ path: root, ...(o.embed === false ? { embed: false } : {}) }, { ...(o.signal ? { signal: o.signal } : {}), onProgress: (p) => o.onProgress?.(root, p) });
        folders.push({ root, report, error: null });
      } catch (e) {
        if (o.signal?.aborted) throw e;
        folders.push({ root, report: null, error: (e as Error).message });
      }
    }
    return { into: o.into, foldersFrom: named.length > 0 ? 'arguments' : 'database', folders, settingsKept };
  } finally {
    await engine.close();
  }
}

/**
 * For a shell that found its database damaged at startup: moves the damaged file (and its -wal
 * and -shm) aside as `<name>.damaged-<date>`, untouched, and returns what could still be read from
 * it, so the shell can start on a fresh database, restore the settings and re-import the folders
 * (see restoreFrom).
 */
export function setAsideDamaged(dbPath: string, options: { nativeBinding?: string | undefined } = {}): { movedTo: string; salvage: Salvage } {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const movedTo = `${dbPath}.damaged-${stamp}`;
  fs.renameSync(dbPath, movedTo);
  for (const suffix of ['-wal', '-shm']) if (fs.existsSync(dbPath + suffix)) fs.renameSync(dbPath + suffix, movedTo + suffix);
  return { movedTo, salvage: salvage(movedTo, options) };
}

/** Restores salvaged settings into an engine and starts an import job per salvaged folder that still exists; returns the job ids. */
export async function restoreFrom(engine: Engine, found: Salvage): Promise<string[]> {
  applySalvagedSettings(engine, found);
  const jobs: string[] = [];
  for (const root of found.roots) {
    if (!fs.existsSync(root)) continue;
    const r = await engine.dispatch('importFolder', { path: root });
    if (r.ok) jobs.push((r.value as { jobId: string }).jobId);
  }
  return jobs;
}

function applySalvagedSettings(engine: Engine, found: Salvage): number {
  let kept = 0;
  for (const { key, value } of found.settings) {
    // Headers are write-only (no setting returns them): their stored entries are taken as they are.
    if (key === OLLAMA_HEADERS.storageKey) {
      kept += engine.settings.restoreStoredHeaders(value) > 0 ? 1 : 0;
      continue;
    }
    const setting = SETTING_KEYS.find((k) => SETTINGS[k].storageKey === key);
    if (!setting) continue;
    try {
      engine.settings.set({ [setting]: NUMERIC_SETTINGS.includes(setting) ? Number(value) : value });
      kept++;
    } catch {
      // A value this version refuses: its default does.
    }
  }
  return kept;
}

/** The contract's handlers of an engine, for tests that drive it as a transport would. */
export type EngineHandlers = Handlers;

/**
 * An answer stream stored as a turn of a conversation (a new one when `conversationId` is null)
 * once the run is finished, if it was answered (`keepsTurn`: a failed or stopped ask is not a
 * turn, whichever shell asked); the ending event's result then names the conversation.
 */
async function* inConversation(db: Db, conversationId: number | null, question: string, answer: AsyncGenerator<AskEvent>): AsyncGenerator<AskEvent> {
  for await (const event of answer) {
    if (event.type === 'done' || event.type === 'error') {
      const stored = keepsTurn(event.result) ? recordTurn(db, conversationId, question, event.result.runId, event.result.scope) : null;
      yield { ...event, result: stored === null ? event.result : { ...event.result, conversationId: stored } };
    } else yield event;
  }
}
