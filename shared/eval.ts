import { z } from 'zod';
import { BOUNDS } from './settings';
import { DEFAULT_FUSION, formatFusion, FUSION_USAGE, parseFusion } from './fusion';
import { Lines } from './common-schemas';
import { SEARCH_MODES, type SearchMode } from './search';

/**
 * Evaluation's shapes, declared once as schemas: the engine infers its types from them, the
 * contract carries them, and a saved report is checked against them before a rerun.
 */

const Rate = z.number().min(0).max(1).nullable();

export const QuestionSchema = z.object({
  id: z.string(),
  question: z.string(),
  /** chunkFact: text the right chunk contains; answerRegex: applied to the answer with flag i. */
  expect: z.object({ chunkFact: z.string().optional(), answerRegex: z.string().optional(), answerable: z.boolean() }),
  /** Informational: the file the fact comes from. */
  file: z.string().optional(),
});

export const StageLatencySchema = z.object({ p50: z.number().nullable(), p95: z.number().nullable() });

/** Rates are fractions in [0, 1]; null means nothing was eligible (e.g. no chat model ran), distinct from 0. */
export const EvalMetricsSchema = z.object({
  hit1: Rate,
  /** Reports written before hit@3 and hit@5 were recorded read them as null. */
  hit3: Rate.default(null),
  hit5: Rate.default(null),
  hitK: Rate,
  mrr: Rate,
  /**
   * Share of answerable questions whose fact is inside the sources Quire puts in the prompt (the
   * sources a retrieval-only run would send, fitted the same way): what the model can actually see.
   */
  factSent: Rate.default(null),
  /** Median tokens of the sources block sent per answerable question; compare methods at equal tokens. */
  sourceTokensP50: z.number().nullable().default(null),
  answerHasFact: Rate,
  /** Mean over answers with citations of each answer's share of citations whose id is among the sources sent. */
  citationValid: Rate,
  /** Mean over answers with citations of each answer's share of citations checked 'supported'. */
  supportedCitationRate: Rate,
  citesFact: Rate,
  refusalAccuracy: Rate,
  falseRefusals: Rate,
  /**
   * Mean prompt size, as estimated and as Ollama reported it: with each chat model's own tokenizer,
   * so models compare by what they spend of their window on the same sources. `exact`: the share
   * of answers counted exactly (the model's own tokenizer and template); null without answers.
   */
  promptTokens: z.object({ estimated: z.number().nullable(), reported: z.number().nullable(), exact: z.number().nullable().default(null) }),
  /** Count of answers with truncation suspected; null when no answer was generated. */
  truncations: z.number().int().nullable(),
  latencyMs: z.object({ retrieve: StageLatencySchema, generate: StageLatencySchema }),
  tokensPerSecond: z.number().nullable(),
  /** Questions whose normalised answer differed between repeats; null when no question had two answered repeats. */
  changedAcrossRepeats: z.number().int().nullable(),
});

export const RetrievalScoreSchema = z.object({
  hit1: z.boolean(),
  hit3: z.boolean().default(false),
  hit5: z.boolean().default(false),
  hitK: z.boolean(),
  /** 1/rank of the first chunk (within the top k) containing chunkFact, else 0. */
  reciprocalRank: z.number(),
  /** Whether the fact was in the sources sent to the prompt; null when no prompt was fitted. */
  factSent: z.boolean().nullable().default(null),
  /** Tokens of the sources block sent; null when no prompt was fitted. */
  sourceTokens: z.number().nullable().default(null),
});

export const AnswerScoreSchema = z.object({
  /** answerRegex against the whitespace-collapsed answer; null when unanswerable or without answerRegex. */
  answerHasFact: z.boolean().nullable(),
  /** Share of citations whose check is not 'unknown-source'; null without citations. */
  citationValid: z.number().nullable(),
  /** Share of citations checked 'supported'; null without citations. */
  supportedCitationRate: z.number().nullable(),
  /** null when the question is unanswerable or has no chunkFact. */
  citesFact: z.boolean().nullable(),
  refused: z.boolean(),
  /** null when Quire refused without calling the model (no usable passage): no prompt was sent. */
  estimatedTokens: z.number().nullable(),
  reportedTokens: z.number().nullable(),
  /** The estimate was exact: the chat model's own tokenizer and template. */
  exactTokens: z.boolean().default(false),
  truncated: z.boolean(),
  /** null when the model was not called. */
  generateMs: z.number().nullable(),
  tokensPerSecond: z.number().nullable(),
  /** Answer text lower-cased with whitespace collapsed, for comparing repeats. */
  normalisedText: z.string(),
});

export const QuestionScoreSchema = z.object({
  questionId: z.string(),
  repeat: z.number().int(),
  answerable: z.boolean(),
  /** null unless the question is answerable and has a chunkFact. */
  retrieval: RetrievalScoreSchema.nullable(),
  /** null when the run failed or its search fell back to another mode: that time measures something else. */
  retrieveMs: z.number().nullable(),
  /** null when no answer was generated. */
  answer: AnswerScoreSchema.nullable(),
});

/** What an evaluation varies. Chunkers are written as specs: heading:256, recursive:1000/100, fixed:128/25. */
export const EvalGridSchema = z.object({
  /** Empty: retrieval only; answer metrics are reported as not run (null). */
  chatModels: z.array(z.string().min(1).max(200)).max(8),
  embedModels: z.array(z.string().min(1).max(200)).min(1).max(6),
  chunkers: z.array(z.string().min(1).max(40)).min(1).max(6),
  ks: z.array(z.number().int().min(BOUNDS.k.min).max(BOUNDS.k.max)).min(1).max(6),
  modes: z.array(z.enum(SEARCH_MODES)).min(1).max(3),
  /** How hybrid search joins its two rankings (shared/fusion.ts); grids saved before this axis ran rrf:60. */
  fusions: z.array(z.string().refine((s) => parseFusion(s) !== null, { error: FUSION_USAGE })).min(1).max(4).default(['rrf:60']),
  repeats: z.number().int().min(1).max(20),
});

/** A grid to run (startEval): one sent without fusions runs today's default, not what old grids ran. */
export const EvalGridInputSchema = EvalGridSchema.extend({
  fusions: EvalGridSchema.shape.fusions.unwrap().default([formatFusion(DEFAULT_FUSION)]),
});

export const EvalConfigSchema = z.object({
  chatModel: z.string().nullable(),
  /**
   * For a keyword (lexical) configuration, the embedding model whose index it ran in (the grid's
   * first): keyword search uses no vectors, so it runs once per chunker, not once per embedding
   * model (reports written before ran it, and listed it, once per model, with the same numbers).
   */
  embedModel: z.string(),
  chunker: z.string(),
  k: z.number().int(),
  mode: z.enum(SEARCH_MODES),
  fusion: z.string().default('rrf:60'),
  metrics: EvalMetricsSchema,
  /** Question runs that failed (each error is in perQuestion): what they retrieved still scores, and an unanswered one is left out of the answer metrics, so this count says how many. */
  errors: z.number().int(),
});

/** One question under one configuration: what was retrieved and answered, and how it scored. */
export const EvalQuestionRunSchema = z.object({
  /** Index into configs. */
  config: z.number().int(),
  score: QuestionScoreSchema,
  answer: z.string().nullable(),
  /** The top k retrieved chunks, best first; hasFact is null when the question has no chunkFact. */
  retrieved: z.array(
    z.object({ chunkId: z.string(), path: z.string(), heading: z.string(), lines: Lines, preview: z.string(), hasFact: z.boolean().nullable() }),
  ),
  citations: z.array(z.object({ chunkId: z.string(), check: z.enum(['supported', 'weak', 'unsupported', 'unknown-source']) })),
  /** Set when this question's ask failed (e.g. Ollama went away mid-run); the rest of the run goes on. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

export const EvalRunInfoSchema = z.object({
  quire: z.string(),
  ollama: z.string().nullable(),
  /** Digest of each model at run time: a re-pulled model changes its digest. */
  models: z.record(z.string(), z.string().nullable()),
  at: z.string(),
  ms: z.number(),
  grid: EvalGridSchema,
  /** How every answer was asked for, beyond the grid: the same settings the app would use. */
  answerSettings: z.object({ numCtxCap: z.number(), numPredict: z.number(), temperature: z.number(), seed: z.number(), maxDistance: z.number() }),
  /** Absolute path of the documents folder. */
  docs: z.string(),
  /** The questions themselves travel with the report, so a rerun asks exactly these. */
  questionSet: z.object({ name: z.string(), sha256: z.string(), questions: z.array(QuestionSchema) }),
  /**
   * Each index the run searched (one per embedding model × chunker it needed): `reused` when an
   * earlier run had built it (only documents changed since were read again, `documentsRead` of them).
   * Reports written before this was recorded have none.
   */
  indexes: z.array(z.object({ embedModel: z.string(), chunker: z.string(), reused: z.boolean(), documentsRead: z.number().int() })).optional(),
});

/**
 * What the report's hit@n and MRR count, raised whenever a metric's definition changes (Quire's own
 * version, recorded in run.quire, stayed 0.1.0 across such a change, so it cannot tell them apart):
 * 1: the fact in the chunk found at rank n; 2: in the passage found there (the chunk with its
 * neighbours, as an answer is sent it), from when results became passages.
 */
export const METRICS_VERSION = 2;

const MEASURED: Record<number, string> = {
  1: 'in the chunk found at each rank',
  2: 'in the passage found at each rank (the chunk with its neighbours, as an answer is sent it)',
};

/**
 * Reports written before metricsVersion was recorded. hit@3 came with passages (both in one
 * change), so a report that measured hit@k but has no hit@3 counted chunks; any other measured
 * hit@n without a version counted passages. (A report that measured no hit@n has nothing to compare.)
 */
function inferredMetricsVersion(configs: ReadonlyArray<{ metrics: { hitK: number | null; hit3: number | null } }>): number {
  return configs.some((c) => c.metrics.hitK !== null && c.metrics.hit3 === null) ? 1 : METRICS_VERSION;
}

/**
 * The sentence shown when two compared reports counted hit@n differently, or null when they did not.
 * `names` says how the two are called where it is shown ("the earlier report", "this one").
 */
export function metricsChangeSentence(before: number, after: number, names: { before: string; after: string }): string | null {
  if (before === after) return null;
  const how = (v: number) => MEASURED[v] ?? `by a measure this version of Quire does not know (metrics version ${v})`;
  return `${names.before[0]!.toUpperCase()}${names.before.slice(1)} and ${names.after} measured hit@n and MRR differently, so those numbers do not compare: ${names.before} looked for the fact ${how(before)}, ${names.after} ${how(after)}.`;
}

const EvalReportShape = z.object({
  /** METRICS_VERSION when it was written; a report from before it was recorded is given the version it measured by (inferredMetricsVersion). */
  metricsVersion: z.number().int().min(1).optional(),
  corpus: z.object({ documents: z.number().int(), fingerprint: z.string() }),
  questions: z.object({ answerable: z.number().int(), unanswerable: z.number().int() }),
  configs: z.array(EvalConfigSchema),
  perQuestion: z.array(EvalQuestionRunSchema),
  run: EvalRunInfoSchema,
  /** What makes the numbers less comparable than they look, e.g. documents that changed while the run went on. */
  warnings: z.array(z.string()).optional(),
  /**
   * Set when the run ended before its grid was done: cancelled, or Ollama could not be reached any
   * more (`ollama-unreachable`) or stopped answering (`ollama-timeout`: a question, an index's
   * embedding or a chat model's warm-up, and a quick check, all timed out; `ollama-stuck`: questions
   * timed out one after another, or a chat model did not load in time, while Ollama still answered
   * the check); the run stops then rather than fail every question left. `notDone`: question
   * runs planned but not done; `message`: that in a sentence, also among the warnings.
   */
  stopped: z.object({ reason: z.enum(['cancelled', 'ollama-unreachable', 'ollama-timeout', 'ollama-stuck']), notDone: z.number().int(), message: z.string() }).optional(),
});

/** A report as read anywhere (the database, a --rerun file, the contract): always with its metricsVersion. */
export const EvalReportSchema = EvalReportShape.transform((r) => ({ ...r, metricsVersion: r.metricsVersion ?? inferredMetricsVersion(r.configs) }));

/** Where the questions of an Evaluate run come from. */
export const QuestionSetRefSchema = z.discriminatedUnion('kind', [
  /** Questions saved from answers ("save as test") for this folder. */
  z.object({ kind: z.literal('saved') }),
  /** The folder's own `.quire-questions.json`. */
  z.object({ kind: z.literal('folder') }),
  /** A file the person picked; the renderer reads it and sends its text. */
  z.object({ kind: z.literal('file'), name: z.string().min(1).max(500), text: z.string().min(1).max(5_000_000) }),
]);

export const QuestionSetSummarySchema = z.object({
  ref: QuestionSetRefSchema,
  name: z.string(),
  answerable: z.number().int(),
  unanswerable: z.number().int(),
  /** Why the set cannot be used as it is (e.g. a broken entry in the folder's file). */
  error: z.string().nullable(),
});

export const SavedQuestionSchema = QuestionSchema.extend({
  /** The folder it was saved for; null applies to every folder. */
  root: z.string().nullable(),
  createdAt: z.string(),
});

const MetricChangeSchema = z.object({ config: z.string(), metric: z.string(), before: z.number().nullable(), after: z.number().nullable() });

/** What changed between two reports of the same question set and grid ("run again", `quire eval --rerun`). */
export const ReportDiffSchema = z.object({
  /** Nothing that should reproduce changed (timings aside, which never repeat exactly). */
  same: z.boolean(),
  corpus: z.object({ before: z.object({ documents: z.number(), fingerprint: z.string() }), after: z.object({ documents: z.number(), fingerprint: z.string() }) }).nullable(),
  /** sha256 of the two question sets, when they differ. */
  questionSet: z.object({ before: z.string(), after: z.string() }).nullable(),
  /** Quire, Ollama and model digests that differ: the likeliest reasons for any change below. */
  versions: z.array(z.object({ what: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
  /** The two reports' metricsVersion when they differ: their hit@n and MRR were counted differently (metricsChangeSentence). */
  metricsVersions: z.object({ before: z.number(), after: z.number() }).nullable(),
  configsOnlyBefore: z.array(z.string()),
  configsOnlyAfter: z.array(z.string()),
  metrics: z.array(MetricChangeSchema),
  questions: z.array(
    z.object({
      config: z.string(),
      questionId: z.string(),
      repeat: z.number().int(),
      what: z.enum(['retrieved', 'answer', 'refused', 'citations', 'error']),
      before: z.string(),
      after: z.string(),
    }),
  ),
  /** Latency and throughput: reported, never counted as a failure to reproduce. */
  timing: z.array(MetricChangeSchema),
});

export const EvalStorageSchema = z.object({ indexes: z.number().int(), bytes: z.number() });

export const EvalReportSummarySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  docs: z.string(),
  questionSet: z.string(),
  configs: z.number().int(),
  questions: z.number().int(),
  ms: z.number(),
  /** The models the run compared (chat: none for retrieval only), so reports of one question set are told apart before one is opened. */
  models: z.object({ chat: z.array(z.string()), embed: z.array(z.string()) }).optional(),
});

export type Question = z.infer<typeof QuestionSchema>;
export type EvalMetrics = z.infer<typeof EvalMetricsSchema>;
export type StageLatency = z.infer<typeof StageLatencySchema>;
export type RetrievalScore = z.infer<typeof RetrievalScoreSchema>;
export type AnswerScore = z.infer<typeof AnswerScoreSchema>;
export type QuestionScore = z.infer<typeof QuestionScoreSchema>;
export type EvalGrid = z.infer<typeof EvalGridSchema>;
export type EvalConfigResult = z.infer<typeof EvalConfigSchema>;
export type EvalQuestionRun = z.infer<typeof EvalQuestionRunSchema>;
export type EvalRunInfo = z.infer<typeof EvalRunInfoSchema>;
export type EvalReport = z.infer<typeof EvalReportSchema>;

/** How many question runs each configuration has in the report (fewer than planned when it was stopped). */
export function runsPerConfig(report: Pick<EvalReport, 'configs' | 'perQuestion'>): number[] {
  const counts = report.configs.map(() => 0);
  for (const run of report.perQuestion) if (run.config >= 0 && run.config < counts.length) counts[run.config]! += 1;
  return counts;
}

/**
 * One sentence on the indexes an earlier run built, or null when this run built them all: a second
 * run over unchanged notes takes seconds where the first took minutes, and should say why. Said
 * alike by `quire eval` and the Evaluate view; `anew` ends it with how that shell builds the
 * indexes anew, given "it" or "them" (`--fresh-index builds them anew.`). A run of keyword search
 * alone builds its indexes without vectors (one per chunker: modesIn), so what it redid for a changed
 * document is indexing, not embedding; any other mode runs in every index, so either all of a run's
 * indexes hold vectors or none does.
 */
export function indexReuseSentence(run: Pick<EvalRunInfo, 'indexes' | 'grid'>, anew: (them: 'it' | 'them') => string): string | null {
  const all = run.indexes ?? [];
  const reused = all.filter((i) => i.reused);
  if (reused.length === 0) return null;
  const keywordOnly = run.grid.modes.every((m) => m === 'lexical');
  const kind = (n: number) => (keywordOnly ? (n === 1 ? 'keyword index' : 'keyword indexes') : n === 1 ? 'index' : 'indexes');
  // A keyword index is named by its chunker alone: the embedding model whose name its file carries is never used.
  const named = (i: (typeof reused)[number]) => (keywordOnly ? i.chunker : `${i.embedModel}, ${i.chunker}`);
  const which =
    reused.length === all.length
      ? reused.length === 1
        ? `the ${kind(1)}`
        : `all ${reused.length} ${kind(2)}`
      : `${reused.length} of ${all.length} ${kind(all.length)} (${reused.map(named).join('; ')})`;
  const redone = keywordOnly ? 'indexed' : 'embedded';
  // Every index holds the same documents, so each read the same changed ones again.
  const read = Math.max(...reused.map((i) => i.documentsRead));
  const since = read === 0 ? `no document had changed, so none was read or ${redone} again` : `only the ${read === 1 ? 'document' : `${read} documents`} changed since ${read === 1 ? 'was' : 'were'} read and ${redone} again`;
  return `Reused ${which} an earlier run built: ${since}. ${anew(reused.length === 1 ? 'it' : 'them')}`;
}

/** Configurations where every question run failed (errors equal their runs): nothing they report is a measurement. */
export function failedConfigs(report: Pick<EvalReport, 'configs' | 'perQuestion'>, counts: readonly number[] = runsPerConfig(report)): Set<number> {
  const out = new Set<number>();
  report.configs.forEach((c, i) => {
    const runs = counts[i] ?? 0;
    if (c.errors > 0 && runs > 0 && c.errors >= runs) out.add(i);
  });
  return out;
}
export type QuestionSetRef = z.infer<typeof QuestionSetRefSchema>;
export type QuestionSetSummary = z.infer<typeof QuestionSetSummarySchema>;
export type SavedQuestion = z.infer<typeof SavedQuestionSchema>;
export type EvalReportSummary = z.infer<typeof EvalReportSummarySchema>;
export type ReportDiff = z.infer<typeof ReportDiffSchema>;
export type MetricChange = ReportDiff['metrics'][number];
export type QuestionChange = ReportDiff['questions'][number];

/**
 * A model as an evaluation names it: Ollama reads "embeddinggemma" as "embeddinggemma:latest", so
 * the two spellings (the command line's and the Evaluate form's, which picks installed names) are
 * one configuration, one index and one row to compare across reports.
 */
export function evalModelName(name: string): string {
  const n = name.trim();
  return n.endsWith(':latest') ? n.slice(0, -':latest'.length) : n;
}

/** The fusions a search mode runs with: only hybrid fuses, so keyword and vector searches run once (with the first). */
export function fusionsFor(mode: SearchMode, fusions: readonly string[]): readonly string[] {
  return mode === 'hybrid' ? fusions : fusions.slice(0, 1);
}

/** Searches one question gets per chat model, k, embedding model and chunker: each mode once, hybrid once per fusion. */
export function searchesPerPoint(modes: readonly SearchMode[], fusions: readonly string[]): number {
  return modes.reduce((n, m) => n + fusionsFor(m, fusions).length, 0);
}

/**
 * The embedding models a search mode runs under: keyword search uses no vectors, so it runs once,
 * in the first model's index; a row per model would repeat the same numbers as if the model mattered.
 */
export function embedModelsFor(mode: SearchMode, embedModels: readonly string[]): readonly string[] {
  return mode === 'lexical' ? embedModels.slice(0, 1) : embedModels;
}

/** The modes a grid runs in the index of one of its embedding models. */
export function modesIn(embedModel: string, grid: Pick<EvalGrid, 'embedModels' | 'modes'>): SearchMode[] {
  return grid.modes.filter((m) => embedModelsFor(m, grid.embedModels).includes(embedModel));
}

type GridShape = Pick<EvalGrid, 'chatModels' | 'embedModels' | 'chunkers' | 'ks' | 'modes' | 'fusions'>;

/** How many configurations a grid is (repeats are not configurations; a retrieval-only run counts as one chat "model"). */
export function configCount(grid: GridShape): number {
  const perChunker = grid.embedModels.reduce((n, e) => n + searchesPerPoint(modesIn(e, grid), grid.fusions), 0);
  return Math.max(1, grid.chatModels.length) * grid.chunkers.length * grid.ks.length * perChunker;
}

/** How many indexes a grid builds: one per embedding model × chunker, for the models some mode runs under. */
export function indexCount(grid: Pick<EvalGrid, 'embedModels' | 'chunkers' | 'modes'>): number {
  return grid.embedModels.filter((e) => modesIn(e, grid).length > 0).length * grid.chunkers.length;
}

/** Metric keys shown as rates (fractions in [0, 1]). */
export const RATE_METRICS = [
  'hit1',
  'hit3',
  'hit5',
  'hitK',
  'mrr',
  'factSent',
  'answerHasFact',
  'citationValid',
  'supportedCitationRate',
  'citesFact',
  'refusalAccuracy',
  'falseRefusals',
] as const satisfies ReadonlyArray<keyof EvalMetrics>;
export type RateMetric = (typeof RATE_METRICS)[number];
