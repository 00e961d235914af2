import { randomUUID } from 'node:crypto';
import type { ApiEvent } from '../../../shared/contract';
import { QuireError, toErrorShape, type QuireErrorShape } from '../../../shared/errors';
import type { MachineFacts } from '../../../shared/setup-models';
import { getCollection, listCollections, renameCollection } from '../db/collections';
import { deleteConversation, getConversation, listConversations, renameConversation, requireConversation } from '../db/conversations';
import { indexStatus } from '../db/health';
import { waitingChanges } from '../db/import-queue';
import { pendingSwitch } from '../db/embedding-models';
import type { Db } from '../db/open';
import { importableFolder, type Engine } from '../engine';
import type { Handlers } from './dispatch';
import { createEvaluation, type EvaluationDeps } from './evaluation';
import { openableSourceFile } from './source-file';
import { folderCompletions } from './folder-completions';
import { chunkView, libraryDocuments, vectorStores } from './views';
import { dropEmbeddingModel, listEmbeddingModels } from '../db/embedding-models';
import { MODEL_LOOKUP, withTag } from '../ollama/gateway';
import { ollamaState } from '../ollama/state';
import { loadQuestionSet } from '../eval/question-sets';
import { requireQuestion } from '../answer/ask';
import { setupStatus } from '../setup/status';
import { verifySetup } from '../setup/verify';

export interface ServiceDeps {
  db: Db;
  /** The engine whose operations the handlers start as jobs. */
  engine: Engine;
  /** Runs a question set and stores its report, returning the report's id (the engine's). */
  evaluate: EvaluationDeps['evaluate'];
  /** Where events go: SSE clients in browser mode, the window in Electron. */
  emit(event: ApiEvent): void;
  /** The bundled sample notes, offered on first run; their question set is the folder's own `.quire-questions.json`. */
  sampleNotesDir: string;
  /** Where evaluation indexes live (one database per embedding model × chunker). */
  evalDir: string;
  /** What only a desktop shell can do; absent in browser mode. */
  shell?: ShellActions;
  /** This computer's memory and the free disk where models from `host` would land (first run). */
  machine(host: string): Promise<MachineFacts>;
}

export interface ShellActions {
  chooseFolder(): Promise<string | null>;
  /** Opens an absolute path with the system's default app; given only what openableSourceFile allows. */
  openPath(absolutePath: string): Promise<boolean>;
}

/** The library lists this many of a folder's queued changes; the count says how many there are. */
const PENDING_SHOWN = 200;

/** How long closing waits for cancelled jobs to stop before the database goes. */
const CLOSE_WAIT_MS = 2000;

/** The engine behind the contract: every handler is thin and long work runs as a cancellable job. */
export function createService(deps: ServiceDeps): { handlers: Handlers; close(): Promise<void> } {
  const { db, emit, engine } = deps;
  const jobs = new Map<string, AbortController>();
  const running = new Set<Promise<void>>();
  const gateway = () => engine.gateway();

  /** Starts a job; its runner gets a signal, and its failure becomes an event, never a crash. */
  function job(run: (jobId: string, signal: AbortSignal) => Promise<void>): { jobId: string } {
    const jobId = randomUUID();
    const controller = new AbortController();
    jobs.set(jobId, controller);
    // Let the caller receive the job id before the first event.
    const done = new Promise<void>((resolve) => {
      setImmediate(() => {
        run(jobId, controller.signal)
          .catch(() => {})
          .finally(() => {
            jobs.delete(jobId);
            resolve();
          });
      });
    });
    running.add(done);
    void done.then(() => running.delete(done));
    return { jobId };
  }

  const startImport = (input: Parameters<Engine['importFolder']>[0]) =>
    job(async (jobId, signal) => {
      try {
        const report = await engine.importFolder(input, {
          signal,
          onProgress: (progress) => emit({ type: 'job.progress', jobId, kind: 'import', progress }),
        });
        emit({ type: 'job.done', jobId, kind: 'import', result: report, error: null });
      } catch (e) {
        emit({ type: 'job.done', jobId, kind: 'import', result: null, error: toErrorShape(e) });
      }
      emit({ type: 'library.changed' });
    });

  const evaluation = createEvaluation({ db, emit, job, evaluate: deps.evaluate, evalDir: deps.evalDir });

  const handlers: Handlers = {
    async status() {
      // Ollama first: its check may take seconds (a server away or wedged), and the counts read
      // before it would be as old as that when they arrive, an import finished meanwhile unseen.
      const ollama = await ollamaState(gateway());
      const st = indexStatus(db, undefined, engine.settings.get('denseQuantizeAbove'));
      return {
        ollama,
        chatModel: engine.settings.get('chatModel'),
        documents: st.documents,
        chunks: st.chunks,
        collections: st.collections.length,
        activeModel: st.activeModel ? { name: st.activeModel.name, dimension: st.activeModel.dimension, vectors: st.activeModel.vectors, dense: st.activeModel.dense } : null,
        migration: pendingSwitch(db, engine.settings.get('embedModel')),
        desktop: deps.shell !== undefined,
        evaluation: evaluation.running(),
      };
    },

    async importFolder(input) {
      // Refused at once, not as a failed job: the person is still looking at the folder field.
      return startImport({ ...input, path: importableFolder(input.path) });
    },

    async resync({ collectionId }) {
      return startImport({ path: getCollection(db, collectionId).root });
    },

    async cancel({ jobId }) {
      const c = jobs.get(jobId);
      c?.abort();
      return { cancelled: c !== undefined };
    },

    async library() {
      return {
        collections: listCollections(db).map((c) => ({
          id: c.id,
          root: c.root,
          name: c.name,
          createdAt: c.createdAt,
          documents: libraryDocuments(db, c.id),
          watch: engine.watchStatus(c.id),
          pending: waitingChanges(db, c.id, PENDING_SHOWN).shown,
        })),
        warnings: engine.upkeepWarnings(),
      };
    },

    async renameCollection({ collectionId, name }) {
      const renamed = renameCollection(db, collectionId, name);
      emit({ type: 'library.changed' });
      return { name: renamed.name };
    },

    async setWatch({ collectionId, state }) {
      return engine.setWatch(collectionId, state);
    },

    async removeCollection({ collectionId }) {
      const c = getCollection(db, collectionId);
      // Answered once the folder is gone, not after the keyword statistics' rebuild (engine.ts).
      const { documents } = await engine.forgetCollection(collectionId);
      evaluation.forgetFolder(c.root);
      return { documents };
    },

    async search(input) {
      return engine.search(input);
    },

    async ask(input) {
      // Refused at once, not as a failed job, while the person still sees the question box: a
      // question of blanks, an unknown folder in the scope, a conversation deleted meanwhile.
      requireQuestion(input.question);
      engine.resolveScope(input.collections);
      if (input.conversationId !== undefined) requireConversation(db, input.conversationId);
      return job(async (jobId, signal) => {
        // The stream ends with `done` or `error`; what it throws instead (a cancel, a failure before
        // it could make a result) ends the job too, or the person would watch it run forever.
        let ended = false;
        try {
          for await (const event of engine.ask(input, signal)) {
            if (event.type === 'done' || event.type === 'error') {
              ended = true;
              emit({ type: 'job.done', jobId, kind: 'ask', result: event.result, error: event.type === 'error' ? event.error : null });
            } else emit({ type: 'job.progress', jobId, kind: 'ask', progress: event });
          }
        } catch (e) {
          if (!ended) emit({ type: 'job.done', jobId, kind: 'ask', result: null, error: toErrorShape(e) });
        }
      });
    },

    async conversations({ query }) {
      return { conversations: listConversations(db, query) };
    },

    async conversation({ id }) {
      return getConversation(db, id);
    },

    async renameConversation({ id, title }) {
      return { title: renameConversation(db, id, title) };
    },

    async deleteConversation({ id }) {
      return { runs: deleteConversation(db, id) };
    },

    async getChunk({ chunkId, sent }) {
      return chunkView(db, chunkId, sent);
    },

    async getSettings() {
      return engine.settings.view();
    },

    async setSettings(patch) {
      const watched = ['embedModel', 'chatModel', 'ollamaHost'] as const;
      // Read without failing: a bad OLLAMA_HOST must not stop a good host being saved over it.
      const read = (k: (typeof watched)[number]) => {
        try {
          return engine.settings.get(k);
        } catch {
          return null;
        }
      };
      const before = watched.map(read);
      const after = await engine.saveSettings(patch);
      // What the status bar shows changed (it re-reads status on this event), or the vectors searched.
      if (watched.some((k, i) => after[k] !== before[i]) || patch.ollamaHeaders !== undefined) emit({ type: 'library.changed' });
      return after;
    },

    async listModels() {
      // The gateway asked, kept: a host saved while its retries run must not be named in its failure.
      // Its own patience, not a deadline signal: a server that hangs then reads as OLLAMA_TIMEOUT, not "Cancelled".
      const asked = gateway().withOptions(MODEL_LOOKUP);
      try {
        const models = await asked.listModels(undefined, { fresh: true });
        // What each model does, so a form offers embedding models as such whatever their names (the
        // gateway keeps each digest's /api/show); one that cannot be asked is listed without it.
        const capabilities = await Promise.all(models.map((m) => asked.modelInfo(m.name).then((i) => i.capabilities, () => [])));
        return {
          models: models.map((m, i) => ({
            name: m.name, size: m.size, family: m.family, parameterSize: m.parameterSize, quantization: m.quantization, digest: m.digest,
            ...(capabilities[i]!.length > 0 ? { capabilities: capabilities[i] } : {}),
          })),
        };
      } catch (e) {
        // The gateway's code says what failed (a certificate, a proxy, a timeout); only
        // OLLAMA_UNREACHABLE is worded as "start ollama serve", so it must not stand for all of them.
        const shape = toErrorShape(e);
        const code = shape.code === 'OLLAMA_ERROR' || shape.code === 'OLLAMA_TIMEOUT' ? shape.code : 'OLLAMA_UNREACHABLE';
        throw new QuireError(code, `Could not list models at ${asked.host}: ${shape.message}`);
      }
    },

    async pullModel({ model, saveAs }) {
      return job(async (jobId, signal) => {
        try {
          const { saved } = await engine.pullModel(model, { signal, saveAs, onProgress: (progress) => emit({ type: 'job.progress', jobId, kind: 'pull', progress }) });
          emit({ type: 'job.done', jobId, kind: 'pull', result: { model }, error: null });
          // What the status bar shows changed.
          if (saved) emit({ type: 'library.changed' });
        } catch (e) {
          emit({ type: 'job.done', jobId, kind: 'pull', result: null, error: toErrorShape(e) });
        }
      });
    },

    async setupStatus() {
      let g: ReturnType<typeof gateway> | QuireErrorShape;
      try {
        g = gateway();
      } catch (e) {
        g = toErrorShape(e); // a bad OLLAMA_HOST: said as why Ollama cannot be reached
      }
      return setupStatus({
        gateway: g,
        hostSource: engine.settings.source('ollamaHost'),
        chatModel: engine.settings.get('chatModel'),
        embedModel: engine.settings.get('embedModel'),
        documents: indexStatus(db, undefined, engine.settings.get('denseQuantizeAbove')).documents.total,
        machine: deps.machine,
      });
    },

    async verifySetup() {
      return verifySetup(gateway(), { chatModel: engine.settings.get('chatModel'), embedModel: engine.settings.get('embedModel') });
    },

    async embedMissing(input) {
      return job(async (jobId, signal) => {
        let chunks = 0;
        try {
          chunks = (
            await engine.embedMissing(input, {
              signal,
              onProgress: ({ documents }) => emit({ type: 'job.progress', jobId, kind: 'embed', progress: { documents, chunks: 0 } }),
            })
          ).chunks;
          emit({ type: 'job.done', jobId, kind: 'embed', result: { chunks }, error: null });
        } catch (e) {
          emit({ type: 'job.done', jobId, kind: 'embed', result: { chunks }, error: toErrorShape(e) });
        }
        emit({ type: 'library.changed' });
      });
    },

    async vectorStores() {
      return { stores: vectorStores(db, engine.settings.get('embedModel')) };
    },

    async dropVectorStore({ modelId }) {
      const model = listEmbeddingModels(db).find((m) => m.id === modelId);
      if (!model) throw new QuireError('INVALID_ARGUMENT', 'Those vectors are no longer stored.');
      if (model.name === withTag(engine.settings.get('embedModel'))) {
        throw new QuireError('INVALID_ARGUMENT', `${model.name} is the embedding model chosen in Settings; choose another one first.`);
      }
      const dropped = dropEmbeddingModel(db, model, 'deleted in Settings');
      emit({ type: 'library.changed' });
      return dropped;
    },

    async completeFolder({ prefix }) {
      return { folders: folderCompletions(prefix) };
    },

    async chooseFolder() {
      if (!deps.shell) return { supported: false, path: null };
      return { supported: true, path: await deps.shell.chooseFolder() };
    },

    async openSourceFile({ chunkId }) {
      if (!deps.shell) return { supported: false, opened: false };
      const view = chunkView(db, chunkId);
      return { supported: true, opened: await deps.shell.openPath(openableSourceFile(view.root, view.path)) };
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

    ...evaluation.handlers,
  };

  return {
    handlers,
    /** Cancels every job and waits (a little) for them to stop writing. */
    async close() {
      for (const c of jobs.values()) c.abort();
      const all = Promise.all([...running]);
      await Promise.race([all, new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
      jobs.clear();
    },
  };
}

