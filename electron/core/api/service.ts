import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ollama } from 'ollama';
import type { ApiEvent, Output } from '../../../shared/contract';
import { QuireError, toErrorShape } from '../../../shared/errors';
import { ask, ASK_DEFAULTS, configuredChatModel } from '../answer/ask';
import { forgetCollection, getCollection, listCollections } from '../db/collections';
import { indexStatus } from '../db/health';
import type { Db } from '../db/open';
import { getSetting, setSetting } from '../db/settings';
import { EmbeddingSession } from '../ingest/embedding-session';
import { importFolder } from '../ingest/pipeline';
import { DEFAULT_EMBED_MODEL } from '../ollama/embedder';
import { OllamaGateway } from '../ollama/gateway';
import { resolveOllamaHost } from '../ollama/host';
import { configuredFusion, FUSION_SETTING, search } from '../retrieve/search';
import { formatFusion } from '../../../shared/fusion';
import type { Handlers } from './dispatch';
import { createBench } from './bench';
import { chunkView, libraryDocuments } from './views';
import { loadQuestionSet } from '../eval/question-sets';

export interface ServiceDeps {
  db: Db;
  /** Where events go: SSE clients in browser mode, the window in Electron. */
  emit(event: ApiEvent): void;
  /** The bundled sample notes, offered on first run; their question set is the folder's own `.quire-questions.json`. */
  sampleNotesDir: string;
  /** Quire's version, recorded in evaluation reports. */
  version: string;
  /** Where evaluation indexes live (one database per embedding model × chunker). */
  evalDir: string;
  /** What only a desktop shell can do; absent in browser mode. */
  shell?: ShellActions;
}

export interface ShellActions {
  chooseFolder(): Promise<string | null>;
  /** Opens an absolute path with the system's default app. */
  openPath(absolutePath: string): Promise<boolean>;
}

type Settings = Output<'getSettings'>;

const SETTING_KEYS: Record<keyof Settings, string> = {
  ollamaHost: 'ollama_host',
  chatModel: 'chat_model',
  embedModel: 'embed_model',
  k: 'k',
  chunkTokens: 'chunk_tokens',
  numCtx: 'num_ctx_cap',
  fusion: FUSION_SETTING,
};

/** The engine behind the contract: every handler is thin and long work runs as a cancellable job. */
export function createService(deps: ServiceDeps): { handlers: Handlers; close(): void } {
  const { db, emit } = deps;
  const jobs = new Map<string, AbortController>();

  const settings = (): Settings => ({
    ollamaHost: getSetting(db, SETTING_KEYS.ollamaHost) ?? resolveOllamaHost(),
    chatModel: configuredChatModel(db),
    embedModel: getSetting(db, SETTING_KEYS.embedModel) ?? DEFAULT_EMBED_MODEL,
    k: Number(getSetting(db, SETTING_KEYS.k) ?? ASK_DEFAULTS.maxK),
    chunkTokens: Number(getSetting(db, SETTING_KEYS.chunkTokens) ?? 256),
    numCtx: Number(getSetting(db, SETTING_KEYS.numCtx) ?? ASK_DEFAULTS.numCtxCap),
    fusion: formatFusion(configuredFusion(db)),
  });
  const gateway = () => new OllamaGateway({ host: settings().ollamaHost });

  /** Starts a job; its runner gets a signal, and its failure becomes an event, never a crash. */
  function job(run: (jobId: string, signal: AbortSignal) => Promise<void>): { jobId: string } {
    const jobId = randomUUID();
    const controller = new AbortController();
    jobs.set(jobId, controller);
    // Let the caller receive the job id before the first event.
    setImmediate(() => {
      run(jobId, controller.signal)
        .catch(() => {})
        .finally(() => jobs.delete(jobId));
    });
    return { jobId };
  }

  const startImport = (folder: string) =>
    job(async (jobId, signal) => {
      try {
        const s = settings();
        const report = await importFolder(db, folder, {
          embedding: { gateway: gateway(), model: s.embedModel },
          chunker: { kind: 'heading', maxTokens: s.chunkTokens },
          signal,
          onProgress: (progress) => emit({ type: 'job.progress', jobId, kind: 'import', progress }),
        });
        emit({ type: 'job.done', jobId, kind: 'import', result: report, error: null });
      } catch (e) {
        emit({ type: 'job.done', jobId, kind: 'import', result: null, error: toErrorShape(e) });
      }
      emit({ type: 'library.changed' });
    });

  const bench = createBench({ db, emit, job, gateway, numCtxCap: () => settings().numCtx, version: deps.version, evalDir: deps.evalDir });

  const handlers: Handlers = {
    async status() {
      const st = indexStatus(db);
      const g = gateway();
      let version: string | null = null;
      let error: string | null = null;
      try {
        version = await g.version(AbortSignal.timeout(2000));
      } catch (e) {
        error = toErrorShape(e).message;
      }
      return {
        ollama: { host: g.host, connected: version !== null, version, error },
        documents: st.documents,
        chunks: st.chunks,
        collections: st.collections.length,
        activeModel: st.activeModel ? { name: st.activeModel.name, dimension: st.activeModel.dimension, vectors: st.activeModel.vectors } : null,
        desktop: deps.shell !== undefined,
        evaluation: bench.running(),
      };
    },

    async importFolder({ path: folder }) {
      const resolved = path.resolve(folder.replace(/^~(?=$|[\\/])/, os.homedir()));
      if (!fs.existsSync(resolved) || !fs.statSync(resolved).isDirectory()) {
        throw new QuireError('NOT_A_FOLDER', `${folder} is not a folder on this computer.`);
      }
      return startImport(resolved);
    },

    async resync({ collectionId }) {
      return startImport(getCollection(db, collectionId).root);
    },

    async cancel({ jobId }) {
      const c = jobs.get(jobId);
      c?.abort();
      return { cancelled: c !== undefined };
    },

    async library() {
      return { collections: listCollections(db).map((c) => ({ ...c, documents: libraryDocuments(db, c.id) })) };
    },

    async removeCollection({ collectionId }) {
      const c = getCollection(db, collectionId);
      const { documents } = forgetCollection(db, c);
      emit({ type: 'library.changed' });
      bench.forgetFolder(c.root);
      return { documents };
    },

    async search({ query, k, mode }) {
      return search(db, query, { gateway: gateway(), ...(k ? { k } : {}), ...(mode ? { mode } : {}) });
    },

    async ask({ question, history, k, numCtx, chatModel }) {
      const s = settings();
      return job(async (jobId, signal) => {
        for await (const event of ask(db, gateway(), question, {
          history: history ?? [],
          k: k ?? s.k,
          chatModel: chatModel ?? s.chatModel,
          numCtxCap: s.numCtx,
          ...(numCtx ? { numCtx } : {}),
          signal,
        })) {
          if (event.type === 'done' || event.type === 'error') emit({ type: 'job.done', jobId, kind: 'ask', result: event.result, error: event.type === 'error' ? event.error : null });
          else emit({ type: 'job.progress', jobId, kind: 'ask', progress: event });
        }
      });
    },

    async getChunk({ chunkId }) {
      return chunkView(db, chunkId);
    },

    async getSettings() {
      return settings();
    },

    async setSettings(patch) {
      const before = settings();
      for (const [key, value] of Object.entries(patch) as Array<[keyof Settings, string | number]>) {
        if (key === 'ollamaHost') resolveOllamaHost(String(value)); // refuses nonsense before storing
        setSetting(db, SETTING_KEYS[key], String(value));
      }
      const after = settings();
      if (after.embedModel !== before.embedModel) emit({ type: 'library.changed' });
      return after;
    },

    async listModels() {
      const client = new Ollama({ host: gateway().host });
      try {
        const { models } = await client.list();
        return {
          models: models.map((m) => ({
            name: m.name,
            size: m.size,
            family: m.details?.family ?? null,
            parameterSize: m.details?.parameter_size ?? null,
            quantization: m.details?.quantization_level ?? null,
            digest: m.digest,
          })),
        };
      } catch (e) {
        throw new QuireError('OLLAMA_UNREACHABLE', `Could not list models at ${gateway().host}: ${(e as Error).message}`);
      }
    },

    async pullModel({ model }) {
      return job(async (jobId, signal) => {
        const client = new Ollama({ host: gateway().host, fetch: (url, init) => fetch(url, { ...init, signal }) });
        try {
          const stream = await client.pull({ model, stream: true });
          for await (const p of stream) {
            emit({ type: 'job.progress', jobId, kind: 'pull', progress: { status: p.status, completed: p.completed ?? null, total: p.total ?? null } });
          }
          emit({ type: 'job.done', jobId, kind: 'pull', result: { model }, error: null });
        } catch (e) {
          emit({ type: 'job.done', jobId, kind: 'pull', result: null, error: signal.aborted ? { code: 'CANCELLED', message: 'Download cancelled.' } : toErrorShape(e) });
        }
      });
    },

    async embedMissing() {
      return job(async (jobId, signal) => {
        const session = new EmbeddingSession(db, { gateway: gateway(), model: settings().embedModel }, signal);
        let documents = 0;
        let chunks = 0;
        try {
          chunks = await session.embedMissing({}, () => {
            documents++;
            emit({ type: 'job.progress', jobId, kind: 'embed', progress: { documents, chunks: 0 } });
          });
          emit({ type: 'job.done', jobId, kind: 'embed', result: { chunks }, error: null });
        } catch (e) {
          emit({ type: 'job.done', jobId, kind: 'embed', result: { chunks }, error: toErrorShape(e) });
        }
        emit({ type: 'library.changed' });
      });
    },

    async chooseFolder() {
      if (!deps.shell) return { supported: false, path: null };
      return { supported: true, path: await deps.shell.chooseFolder() };
    },

    async openSourceFile({ chunkId }) {
      if (!deps.shell) return { supported: false, opened: false };
      const view = chunkView(db, chunkId);
      // Only a file inside an imported folder, resolved and re-checked, is ever handed to the OS.
      const root = fs.realpathSync(view.root);
      const file = fs.realpathSync(path.join(root, view.path));
      if (!file.startsWith(root + path.sep)) throw new QuireError('INVALID_ARGUMENT', 'That file is outside the imported folder.');
      return { supported: true, opened: await deps.shell.openPath(file) };
    },

    async sampleNotes() {
      let questions: string[] = [];
      try {
        questions = loadQuestionSet(db, { kind: 'folder' }, deps.sampleNotesDir).questions.map((q) => q.question);
      } catch {
        // Suggestions are a nicety: the sample notes import fine without them.
      }
      return { path: deps.sampleNotesDir, questions };
    },

    ...bench.handlers,
  };

  return {
    handlers,
    close() {
      for (const c of jobs.values()) c.abort();
      jobs.clear();
    },
  };
}

