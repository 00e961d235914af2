import { z } from 'zod';
import { EMBED_BATCH } from './embed-batch';
import { DOCUMENT_TYPES, DOCUMENT_TYPE_LABELS, type DocumentType } from './document-types';
import { EvalGridInputSchema, EvalReportSchema, EvalReportSummarySchema, EvalStorageSchema, ReportDiffSchema, QuestionSetRefSchema, QuestionSetSummarySchema, SavedQuestionSchema } from './eval';
import { AnswerResultSchema, AskEventSchema, AskStepSchema, BudgetSchema, CandidateSchema, CitationSchema } from './answer';
import { ErrorShape, Lines, Pages } from './common-schemas';
import { SearchModeSchema, SearchResponseSchema, SearchResultSchema } from './search';
import { BOUNDS, SettingsPatchSchema, SettingsSchema, SettingsViewSchema } from './settings';
import { ConversationSchema, ConversationSummarySchema, TITLE_MAX } from './conversations';
import { SetupStatusSchema, SetupVerifySchema } from './setup';

// The renderer reads these shapes through the contract, whichever file declares them.
export { AnswerResultSchema, AskEventSchema, AskStepSchema, BudgetSchema, CandidateSchema, CitationSchema, ErrorShape, SearchResponseSchema, SearchResultSchema, SettingsSchema };

/**
 * The one API contract between the UI and the engine. Every method is declared here once with
 * zod schemas for its input and output; the server-side dispatcher validates against them, and
 * the clients (browser mode now, Electron's preload later) are generated from the same object.
 * Long work (import, ask, pull, embed, eval) returns a job id at once and reports through job events.
 */

// ---- shared pieces --------------------------------------------------------------------------

const JobRef = z.object({ jobId: z.string() });
/**
 * One part of a question's scope: an imported folder by id, name or path (a path inside one names
 * that subfolder), or a folder inside a collection by its path relative to the root ('' = all of it).
 */
export const ScopeRefSchema = z.union([
  z.string().min(1).max(4096),
  z.object({ collectionId: z.string().min(1).max(64), path: z.string().max(4096) }).strict(),
]);
export type ScopeRef = z.infer<typeof ScopeRefSchema>;
/** A question's scope: its parts, any of which a passage may come from; empty or absent: every folder. */
const Scope = z.array(ScopeRefSchema).max(100);
const Empty = z.object({}).strict();

// The engine's own types are inferred from these schemas (electron/core/ingest/types.ts), and
// from those of shared/answer.ts and shared/search.ts, so the shape is written down once.

export const ImportProgressSchema = z.object({
  /** waiting: another import of this database (another process) runs first; currentFile names its folder. */
  phase: z.enum(['waiting', 'scanning', 'indexing', 'embedding', 'cleaning', 'done']),
  filesDone: z.number(),
  filesTotal: z.number(),
  chunks: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  currentFile: z.string().nullable(),
});

// Declared with their extensions in document-types.ts; the contract's importers read them here too.
export { DOCUMENT_TYPES, DOCUMENT_TYPE_LABELS, type DocumentType };

export const ImportReportSchema = z.object({
  collection: z.object({ id: z.string(), root: z.string() }),
  documents: z.object({
    added: z.number(),
    updated: z.number(),
    unchanged: z.number(),
    /** Renamed or moved within the folder: re-pointed, not re-read into new chunks or re-embedded. */
    moved: z.number().default(0),
    deleted: z.number(),
    skipped: z.number(),
    failed: z.number(),
  }),
  chunks: z.number(),
  embedded: z.number(),
  embedRequests: z.number(),
  errors: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })),
  skipped: z.array(
    z.object({ path: z.string(), reason: z.enum(['unsupported-type', 'too-large', 'symlink-outside-root', 'symlink-loop', 'unreadable', 'not-a-regular-file', 'unsupported-file-name', 'no-text-layer', 'password-protected', 'passed-over-name', 'hidden-name']), message: z.string().optional() }),
  ),
  /** ok: vectors written; off: not asked for; unavailable: Ollama or the model could not be used. */
  embedding: z.object({ model: z.string(), status: z.enum(['ok', 'off', 'unavailable']), error: ErrorShape.optional() }),
  /**
   * When embedding was unavailable (Ollama gone before or during the import): the folder's documents
   * left with text but no vectors from the model, how many and the first few paths. Keyword search
   * finds them; importing the folder again once Ollama is back embeds only those.
   */
  withoutVectors: z.object({ documents: z.number(), paths: z.array(z.string()) }).optional(),
  cancelled: z.boolean(),
  ms: z.number(),
  /**
   * Problems after the import's own writes had committed, which the import did not fail for: the
   * documents are in. Keyword search's statistics not rebuilt (a full disk, an I/O error) is one;
   * the rebuild is tried again at the next import or forget.
   */
  warnings: z.array(ErrorShape).default([]),
  /**
   * Files imported with a caveat the person should know of: one not in UTF-8 was read in the legacy
   * encoding its bytes point to (GUESSED_ENCODING).
   */
  notices: z.array(z.object({ path: z.string(), code: z.enum(['GUESSED_ENCODING']), message: z.string(), encoding: z.string() })).default([]),
  /** The folder's documents indexed (text searchable) after the import, by type. */
  indexedByType: z.partialRecord(z.enum(DOCUMENT_TYPES), z.number()).default({}),
});

/** The active model's dense index as status shows it (db/bit-vectors.ts denseIndexStatus). */
export const DenseIndexSchema = z.object({
  method: z.enum(['exact', 'quantized']),
  /** The denseQuantizeAbove setting in effect. */
  quantizeAbove: z.number(),
  /** The sign bits for the coarse pass: how many are built; null before any. */
  bits: z.object({ built: z.number(), total: z.number(), ready: z.boolean() }).nullable(),
  /** The calibrated factor (candidates per result wanted); null: none reached recall@10 0.97, or not calibrated yet. */
  oversampling: z.number().nullable(),
  /** Recall@10 of two-stage against exact search, sampled on the stored vectors at that factor. */
  recallAt10: z.number().nullable(),
  /** The factor measured for searches 50 deep (the lists hybrid search fuses) and its sampled recall@50; null: the top-10 factor serves. */
  depthOversampling: z.number().nullable().default(null),
  recallAtDepth: z.number().nullable().default(null),
  calibratedVectors: z.number(),
  reason: z.string(),
});

export const StatusSchema = z.object({
  ollama: z.object({
    host: z.string(),
    connected: z.boolean(),
    version: z.string().nullable(),
    error: z.string().nullable(),
    /**
     * The error's code: only OLLAMA_UNREACHABLE means Ollama is not running; a certificate, a
     * proxy's refusal or a timeout has its own sentence in `error`. Absent from older engines.
     */
    errorCode: z.string().nullable().optional(),
    /** The host is another machine: questions and the passages sent with them go there. */
    remote: z.boolean(),
    /** The names (never the values) of the request headers sent to it. */
    headers: z.array(z.string()),
    /** Where the host came from (OLLAMA_HOST over the saved host over the default); absent from older engines. */
    hostSource: z.enum(['saved', 'environment', 'default']).optional(),
  }),
  /** The chat model in Settings: the one answers use. */
  chatModel: z.string(),
  documents: z.object({ ready: z.number(), needsEmbedding: z.number(), skipped: z.number(), error: z.number(), total: z.number() }),
  chunks: z.number(),
  collections: z.number(),
  activeModel: z
    .object({
      name: z.string(),
      dimension: z.number(),
      vectors: z.number(),
      /** How dense search reads the model's table: exact, or two-stage (sign bits, then exact rescoring) with its measured oversampling. */
      dense: DenseIndexSchema.optional(),
    })
    .nullable(),
  /** A change of embedding model under way: searches use activeModel until `to` covers every document. */
  migration: z.object({ to: z.string(), documentsLeft: z.number() }).nullable().default(null),
  /** Running in the desktop shell: a native folder picker and "open file" are available. */
  desktop: z.boolean(),
  /** The evaluation under way, if any, so a reloaded window can show its progress and cancel it. */
  evaluation: z.object({ jobId: z.string(), startedAt: z.string(), done: z.number(), total: z.number(), label: z.string() }).nullable(),
});

/** The formats Quire reads. A document's type is the reader that read it (documents.reader). */

export const DocumentSchema = z.object({
  id: z.string(),
  relPath: z.string(),
  title: z.string().nullable(),
  /** null: read by a reader this version does not know (an index written by a newer Quire). */
  type: z.enum(DOCUMENT_TYPES).nullable(),
  status: z.enum(['ready', 'needs-embedding', 'skipped', 'error']),
  statusCode: z.string().nullable(),
  statusMessage: z.string().nullable(),
  chunks: z.number(),
  ingestedAt: z.string(),
});

export const WatchStatusSchema = z.object({
  /** watching: changes are imported as they happen; paused: watching is on but held; off: imported only on request. */
  state: z.enum(['off', 'watching', 'paused']),
  /** An import of the folder's changes is running. */
  busy: z.boolean(),
  /** Changes waiting to be imported, as the Library lists them: documents changed and files an import will read, not folders (db/import-queue.ts waitingChanges). */
  queued: z.number(),
  /** Why watching is not working, as a sentence; null when it is. */
  error: z.string().nullable(),
});

export const CollectionSchema = z.object({
  id: z.string(),
  root: z.string(),
  /** What a person calls the folder (its own name, or its parent's for a generic one such as src or docs, unless renamed): usable in a question's scope. */
  name: z.string(),
  createdAt: z.string(),
  documents: z.array(DocumentSchema),
  watch: WatchStatusSchema,
  /** The first of the changes waiting to be imported, each a row of the Library: a document changed, or a file an import will read (not a folder). watch.queued counts them all. */
  pending: z.array(z.object({ relPath: z.string(), queuedAt: z.string() })),
});

export const VectorStoreSchema = z.object({
  modelId: z.number(),
  name: z.string(),
  digest: z.string(),
  dimension: z.number(),
  /** Chunks with vectors in it. */
  vectors: z.number(),
  /** Documents with text that still lack its vectors (0: complete, a switch to it is instant). */
  documentsMissing: z.number(),
  /** Searches use it. */
  active: z.boolean(),
  /** Settings name it as the embedding model (a switch to it may be under way). */
  chosen: z.boolean(),
  /** The vectors' size (dimension × 4 bytes each), before SQLite's own overhead. */
  bytes: z.number(),
});

export const ModelSchema = z.object({
  name: z.string(),
  size: z.number(),
  family: z.string().nullable(),
  parameterSize: z.string().nullable(),
  quantization: z.string().nullable(),
  digest: z.string(),
  /** What Ollama says the model does (/api/show: "completion", "embedding"…); absent when it did not say. */
  capabilities: z.array(z.string()).optional(),
});

export const ChunkViewSchema = z.object({
  chunkId: z.string(),
  path: z.string(),
  root: z.string(),
  heading: z.string(),
  lines: Lines,
  /** For PDFs: the pages the chunk's text comes from (null for other formats). */
  pages: Pages,
  text: z.string(),
  flags: z.array(z.string()),
  before: z.object({ chunkId: z.string(), text: z.string(), lines: Lines }).nullable(),
  after: z.object({ chunkId: z.string(), text: z.string(), lines: Lines }).nullable(),
});

// ---- methods --------------------------------------------------------------------------------

function method<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}

export const API = {
  status: method(Empty, StatusSchema),
  importFolder: method(
    z
      .object({
        path: z.string().min(1).max(4096),
        /** A chunker spec (heading:256, recursive:1000/100, fixed:128/25); omitted: heading at the chunk-size setting. */
        chunker: z.string().min(1).max(40).optional(),
        /** Files larger than this are skipped (default 20 MB). */
        maxFileMb: z.number().min(0.001).max(4096).optional(),
        /** false: index text only (keyword search); vectors can be added later with embedMissing. */
        embed: z.boolean().optional(),
        /** Chunks per embedding request. */
        batch: z.number().int().min(EMBED_BATCH.min).max(EMBED_BATCH.max).optional(),
      })
      .strict(),
    JobRef,
  ),
  resync: method(z.object({ collectionId: z.string().min(1).max(64) }).strict(), JobRef),
  cancel: method(JobRef.strict(), z.object({ cancelled: z.boolean() })),
  /**
   * warnings: upkeep the long-lived shell ran in the background after an import or a forget that
   * failed (keyword search's statistics not rebuilt: a full disk), until a later one succeeds.
   */
  library: method(Empty, z.object({ collections: z.array(CollectionSchema), warnings: z.array(ErrorShape).optional() })),
  removeCollection: method(z.object({ collectionId: z.string().min(1).max(64) }).strict(), z.object({ documents: z.number() })),
  renameCollection: method(z.object({ collectionId: z.string().min(1).max(64), name: z.string().min(1).max(100) }).strict(), z.object({ name: z.string() })),
  /** Watch a folder (its changes imported as they happen), pause watching, or stop. */
  setWatch: method(z.object({ collectionId: z.string().min(1).max(64), state: z.enum(['off', 'watching', 'paused']) }).strict(), WatchStatusSchema),
  search: method(
    z.object({ query: z.string().min(1).max(2000), k: z.number().int().min(BOUNDS.searchK.min).max(BOUNDS.searchK.max).optional(), mode: SearchModeSchema.optional(), collections: Scope.optional() }).strict(),
    SearchResponseSchema,
  ),
  ask: method(
    z
      .object({
        question: z.string().min(1).max(4000),
        history: z.array(z.object({ question: z.string().max(4000), answer: z.string().max(20_000) })).max(50).optional(),
        k: z.number().int().min(BOUNDS.k.min).max(BOUNDS.k.max).optional(),
        numCtx: z.number().int().min(BOUNDS.numCtx.min).max(BOUNDS.numCtx.max).optional(),
        chatModel: z.string().min(1).max(200).optional(),
        /**
         * Only these folders (ids, names or paths); empty: every folder; omitted: every folder, or when
         * continuing a conversation, the folders its last question was asked of.
         */
        collections: Scope.optional(),
        /** The stored conversation this question continues (its turns are the history when none is given); omitted: a new one. */
        conversationId: z.number().int().min(1).optional(),
      })
      .strict(),
    JobRef,
  ),
  /** Stored conversations, newest first; `query` keeps those whose title contains it. */
  conversations: method(z.object({ query: z.string().max(200).optional() }).strict(), z.object({ conversations: z.array(ConversationSummarySchema) })),
  /** One conversation with its turns: each stored answer as it was, or null where its run was deleted. */
  conversation: method(z.object({ id: z.number().int().min(1) }).strict(), ConversationSchema),
  renameConversation: method(z.object({ id: z.number().int().min(1), title: z.string().trim().min(1).max(TITLE_MAX) }).strict(), z.object({ title: z.string() })),
  /** Deletes a conversation with its turns and the runs that answered them (nothing else). */
  deleteConversation: method(z.object({ id: z.number().int().min(1) }).strict(), z.object({ runs: z.number() })),
  /**
   * A cited chunk for the source panel. `sent`: the chunks sent to the model with it (an answer's
   * `sources[].chunkIds`, a whole section perhaps); they are then its context, in place of the
   * chunk before and after it.
   */
  getChunk: method(z.object({ chunkId: z.string().min(1).max(100), sent: z.array(z.string().min(1).max(100)).max(256).optional() }).strict(), ChunkViewSchema),
  /** The settings; of the Ollama request headers only their names (values are write-only). */
  getSettings: method(Empty, SettingsViewSchema),
  /**
   * Saves the settings given. A chat or embedding model that differs from the saved one is saved
   * only once Ollama lists it (MODEL_NOT_FOUND names the installed ones; OLLAMA_UNREACHABLE when it
   * cannot be asked), unless `force`: a model still to be pulled. One of the other kind (a chat
   * model as the embedding model, or the reverse, by Ollama's capabilities) is WRONG_MODEL_KIND.
   * Nothing is saved on refusal.
   */
  setSettings: method(SettingsPatchSchema.extend({ force: z.boolean().optional() }).strict(), SettingsViewSchema),
  listModels: method(Empty, z.object({ models: z.array(ModelSchema) })),
  /**
   * Downloads a model as a job. `saveAs`: once it is pulled, save it as that setting too (first
   * run pulling a model other than the one Settings name); a failed save fails the job, saying so.
   */
  pullModel: method(z.object({ model: z.string().min(1).max(200), saveAs: z.enum(['chatModel', 'embedModel']).optional() }).strict(), JobRef),
  /** First run: Ollama's state, the two models Settings name, what this machine fits (shared/setup.ts). */
  setupStatus: method(Empty, SetupStatusSchema),
  /** First run's last step: one embedding and one short answer with the models Settings name. */
  verifySetup: method(Empty, SetupVerifySchema),
  /** Adds vectors for documents that lack them for the embedding model (no file is re-read). */
  embedMissing: method(z.object({ batch: z.number().int().min(EMBED_BATCH.min).max(EMBED_BATCH.max).optional() }).strict(), JobRef),
  /** Every embedding model with vectors stored: the one searches use, the one being built, earlier ones kept for an instant switch back. */
  vectorStores: method(Empty, z.object({ stores: z.array(VectorStoreSchema) })),
  /** Deletes a stored model's vectors (never the active or the chosen one's). */
  dropVectorStore: method(z.object({ modelId: z.number().int().min(1) }).strict(), z.object({ vectors: z.number() })),
  sampleNotes: method(Empty, z.object({ path: z.string(), questions: z.array(z.string()) })),
  /** The desktop shell's native folder picker; browser mode answers supported: false. */
  chooseFolder: method(Empty, z.object({ supported: z.boolean(), path: z.string().nullable() })),
  /** Folders completing a path being typed (inside the home folder only); for the import field. */
  completeFolder: method(z.object({ prefix: z.string().max(4096) }).strict(), z.object({ folders: z.array(z.string()) })),
  /** Opens a cited file in the system's app; only files inside an imported folder. */
  openSourceFile: method(z.object({ chunkId: z.string().min(1).max(100) }).strict(), z.object({ supported: z.boolean(), opened: z.boolean() })),

  // Evaluation: question sets scored over a grid of models and settings.
  /** The question sets available for a folder: saved from answers, and the folder's own file. */
  questionSets: method(z.object({ collectionId: z.string().min(1).max(64) }).strict(), z.object({ sets: z.array(QuestionSetSummarySchema) })),
  /** Validates a picked question-set file; INVALID_QUESTION_SET lists every bad entry. */
  checkQuestionSet: method(z.object({ name: z.string().min(1).max(500), text: z.string().min(1).max(5_000_000) }).strict(), QuestionSetSummarySchema),
  /**
   * "Save as test": an answer becomes an evaluation question. With a cited chunk, the expectation
   * is the passage of that chunk the citing sentence rests on; a refusal becomes an unanswerable
   * question.
   */
  saveAsTest: method(
    z.discriminatedUnion('expect', [
      z.object({ expect: z.literal('fact'), question: z.string().min(1).max(4000), chunkId: z.string().min(1).max(100), sentence: z.string().max(4000) }).strict(),
      z.object({ expect: z.literal('refusal'), question: z.string().min(1).max(4000) }).strict(),
    ]),
    SavedQuestionSchema,
  ),
  savedQuestions: method(Empty, z.object({ questions: z.array(SavedQuestionSchema) })),
  deleteSavedQuestion: method(z.object({ id: z.string().min(1).max(200) }).strict(), z.object({ deleted: z.boolean() })),
  /** Runs a question set over a grid of models and settings; progress and the result arrive as events. */
  startEval: method(z.object({ collectionId: z.string().min(1).max(64), questionSet: QuestionSetRefSchema, grid: EvalGridInputSchema }).strict(), JobRef),
  evalReports: method(Empty, z.object({ reports: z.array(EvalReportSummarySchema) })),
  getEvalReport: method(z.object({ id: z.number().int().min(1) }).strict(), EvalReportSchema),
  deleteEvalReport: method(z.object({ id: z.number().int().min(1) }).strict(), z.object({ deleted: z.boolean() })),
  /** Runs a stored report again: its questions, grid, folder and answer settings; the new report is stored as usual. */
  rerunEval: method(z.object({ reportId: z.number().int().min(1) }).strict(), JobRef),
  /** What changed from one stored report to another (as `quire eval --rerun` prints it). */
  compareEvalReports: method(z.object({ before: z.number().int().min(1), after: z.number().int().min(1) }).strict(), ReportDiffSchema),
  /** The disk the evaluation indexes take (one per folder × embedding model × chunker); they are caches. */
  evalStorage: method(Empty, EvalStorageSchema),
  /** Removes every evaluation index; the next run rebuilds what it needs. Refused while an evaluation runs. */
  clearEvalIndexes: method(Empty, EvalStorageSchema),
} as const;

export type Api = typeof API;
export type MethodName = keyof Api;
export type Input<M extends MethodName> = z.input<Api[M]['input']>;
export type Output<M extends MethodName> = z.output<Api[M]['output']>;
export const METHOD_NAMES = Object.keys(API) as MethodName[];

// ---- events ---------------------------------------------------------------------------------

/**
 * Every long job (import, ask, pull, embed, eval) reports the same way: any number of
 * `job.progress` events, then one `job.done` with its result and/or error (both may be set: a
 * cancelled evaluation still names its report, a failed answer still has its result). `kind` says
 * which job it is and types `progress` and `result`; each kind is declared once, here.
 */
export const JOB_KINDS = {
  /** importFolder, resync. The report is null when the import failed before it could make one. */
  import: { progress: ImportProgressSchema, result: ImportReportSchema },
  /** ask: the answer's steps, then its result (also when it failed or was cancelled). */
  ask: { progress: AskStepSchema, result: AnswerResultSchema },
  /** pullModel: Ollama's download status; bytes when it knows them. */
  pull: {
    progress: z.object({ status: z.string(), completed: z.number().nullable(), total: z.number().nullable() }),
    result: z.object({ model: z.string() }),
  },
  /** embedMissing: documents embedded so far; the passages embedded (also when cut short). */
  embed: { progress: z.object({ documents: z.number(), chunks: z.number() }), result: z.object({ chunks: z.number() }) },
  /** startEval, rerunEval: configurations and questions done; the stored report (also when cancelled part way). */
  eval: { progress: z.object({ done: z.number(), total: z.number(), label: z.string() }), result: z.object({ reportId: z.number() }) },
} as const;

export type JobKind = keyof typeof JOB_KINDS;
export const JOB_KIND_NAMES = Object.keys(JOB_KINDS) as JobKind[];
export type JobProgress<K extends JobKind = JobKind> = z.output<(typeof JOB_KINDS)[K]['progress']>;
export type JobResult<K extends JobKind = JobKind> = z.output<(typeof JOB_KINDS)[K]['result']>;

/** The two events of one kind of job. */
function jobEvents<K extends JobKind, P extends z.ZodType, R extends z.ZodType>(kind: K, { progress, result }: { progress: P; result: R }) {
  return {
    progress: z.object({ type: z.literal('job.progress'), jobId: z.string(), kind: z.literal(kind), progress }),
    done: z.object({ type: z.literal('job.done'), jobId: z.string(), kind: z.literal(kind), result: result.nullable(), error: ErrorShape.nullable() }),
  };
}

const JOB_EVENTS = [
  jobEvents('import', JOB_KINDS.import),
  jobEvents('ask', JOB_KINDS.ask),
  jobEvents('pull', JOB_KINDS.pull),
  jobEvents('embed', JOB_KINDS.embed),
  jobEvents('eval', JOB_KINDS.eval),
] as const;

export const JobProgressEventSchema = z.discriminatedUnion('kind', [
  JOB_EVENTS[0].progress,
  JOB_EVENTS[1].progress,
  JOB_EVENTS[2].progress,
  JOB_EVENTS[3].progress,
  JOB_EVENTS[4].progress,
]);
export const JobDoneEventSchema = z.discriminatedUnion('kind', [JOB_EVENTS[0].done, JOB_EVENTS[1].done, JOB_EVENTS[2].done, JOB_EVENTS[3].done, JOB_EVENTS[4].done]);

export const EventSchema = z.discriminatedUnion('type', [
  JobProgressEventSchema,
  JobDoneEventSchema,
  z.object({ type: z.literal('library.changed') }),
  /** Browser mode: this client missed more events than the server keeps; reload state (status, library). */
  z.object({ type: z.literal('events.gap') }),
]);
export type ApiEvent = z.infer<typeof EventSchema>;
/** An event of one job (of kind K). */
export type JobEvent<K extends JobKind = JobKind> = Extract<ApiEvent, { kind: K }>;
export type JobProgressEvent<K extends JobKind = JobKind> = Extract<JobEvent<K>, { type: 'job.progress' }>;
export type JobDoneEvent<K extends JobKind = JobKind> = Extract<JobEvent<K>, { type: 'job.done' }>;

// ---- clients --------------------------------------------------------------------------------

/** How a client reaches the engine: one call primitive and one event stream. */
export interface Transport {
  invoke(method: MethodName, input: unknown): Promise<unknown>;
  subscribe(listener: (event: ApiEvent) => void): () => void;
}

export type Client = { [M in MethodName]: (input: Input<M>) => Promise<Output<M>> } & {
  onEvent(listener: (event: ApiEvent) => void): () => void;
};

/**
 * A typed client with one function per contract method, generated from the contract; errors
 * arrive as thrown ApiError with the boundary's { code, message }.
 */
export function createClient(transport: Transport): Client {
  const client = { onEvent: (l: (e: ApiEvent) => void) => transport.subscribe(l) } as Record<string, unknown>;
  for (const name of METHOD_NAMES) client[name] = (input: unknown) => transport.invoke(name, input ?? {});
  return client as Client;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
