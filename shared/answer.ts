import { z } from 'zod';
import { ErrorShape, Lines, Pages } from './common-schemas';
import { SearchModeSchema } from './search';

export const CandidateSchema = z.object({
  chunkId: z.string(),
  /** The chunks the passage joins (the matched one and its neighbours); empty in runs recorded before passages. */
  chunkIds: z.array(z.string()).default([]),
  path: z.string(),
  /** The imported folder the path is in (absent from answers stored before it was kept): tells one file name in two folders apart. */
  root: z.string().optional(),
  heading: z.string(),
  lines: Lines,
  /** For PDFs; null otherwise (and in runs recorded before pages). */
  pages: Pages.default(null),
  lexicalRank: z.number().nullable(),
  denseRank: z.number().nullable(),
  distance: z.number().nullable(),
  score: z.number(),
  /** Sent to the model as a source. */
  sent: z.boolean(),
  /** Why a candidate was not sent. */
  dropped: z.enum(['budget', 'distance', 'k']).optional(),
  /** Injection flags found in the chunk at import. */
  flags: z.array(z.string()),
});

export const BudgetSchema = z.object({
  /** Our tokenizer's count of the prompt, before calibration (the exact count when exact). */
  raw: z.number(),
  /** raw × calibration ratio (or the exact count): what we expect Ollama to count. */
  estimated: z.number(),
  /** Ollama's prompt_eval_count, once the reply is done. */
  reported: z.number().nullable(),
  ratio: z.number(),
  numCtx: z.number(),
  k: z.number(),
  breakdown: z.object({ system: z.number(), history: z.number(), sources: z.number(), question: z.number(), reserve: z.number() }),
  /** With an exact estimate, true means Ollama cut the prompt, for certain. */
  truncationSuspected: z.boolean(),
  /** Counted with the chat model's own tokenizer and chat template, as Ollama counts: estimated is what it will report. */
  exact: z.boolean().default(false),
  /** Sources (1-based positions in the prompt) Ollama cut, known only with an exact estimate. */
  lostSources: z.array(z.number().int().positive()).default([]),
  /**
   * The passages asked for (the k setting), those the search found (up to that), and when fewer
   * than found were sent (`k`), what held them back: the tokens set aside for sources, or the
   * context window. Absent from answers stored before it was recorded.
   */
  passages: z.object({ asked: z.number(), found: z.number(), heldBy: z.enum(['source-budget', 'window']).nullable() }).optional(),
});

export const CitationSchema = z.object({
  chunkId: z.string(),
  path: z.string().nullable(),
  lines: Lines.nullable(),
  /** The cited passage's pages, for PDFs: what "p. 12" shows. */
  pages: Pages.default(null),
  sentence: z.string(),
  check: z.enum(['supported', 'weak', 'unsupported', 'unknown-source']),
  missing: z.array(z.string()),
});

export const AnswerResultSchema = z.object({
  runId: z.number(),
  status: z.enum(['answered', 'refused', 'error', 'cancelled']),
  question: z.string(),
  /** The follow-up rewritten as a standalone query, when there was history. */
  standaloneQuery: z.string().nullable(),
  answer: z.string(),
  refused: z.boolean(),
  /** The refusal came from Quire (no usable passage), so the model was never called. */
  refusedWithoutModel: z.boolean(),
  citations: z.array(CitationSchema),
  flags: z.array(z.enum(['uncited', 'unknown-source', 'unsupported-citation', 'truncation-suspected', 'injection-in-sources', 'length-limit'])),
  budget: BudgetSchema.nullable(),
  retrieval: z.array(CandidateSchema),
  /** The passages sent as sources, in prompt order: the cited id, the chunks joined, the lines (and PDF pages) they span. Absent in runs recorded before passages. */
  sources: z.array(z.object({ chunkId: z.string(), chunkIds: z.array(z.string()), lines: Lines, pages: Pages.default(null) })).default([]),
  retrievalMode: SearchModeSchema,
  latencyMs: z.object({ retrieve: z.number(), rewrite: z.number(), generate: z.number(), total: z.number(), firstToken: z.number().nullable() }),
  ollama: z.object({ promptEvalCount: z.number().nullable(), evalCount: z.number().nullable(), doneReason: z.string().nullable(), tokensPerSecond: z.number().nullable() }),
  model: z.object({ chat: z.string(), chatDigest: z.string().nullable(), embed: z.string().nullable(), embedDigest: z.string().nullable() }),
  error: ErrorShape.nullable(),
  /** The folders the question was limited to (path: a subfolder's, relative to the root; '' the whole folder); empty: all of them. */
  scope: z.array(z.object({ id: z.string(), name: z.string(), path: z.string().default('') })).default([]),
  /** The stored conversation the answer belongs to (set by the engine once the turn is stored). */
  conversationId: z.number().optional(),
});

export const AskStepSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('rewrite'), standaloneQuery: z.string() }),
  z.object({ type: z.literal('retrieval'), mode: SearchModeSchema, candidates: z.array(CandidateSchema), note: z.string().nullable() }),
  z.object({ type: z.literal('budget'), budget: BudgetSchema }),
  z.object({ type: z.literal('token'), text: z.string() }),
  /** Something slow the answer waits for, said while it lasts (the chat model's vocabulary, fetched once per model version). */
  z.object({ type: z.literal('waiting'), note: z.string() }),
]);

/** The engine's answer stream: its steps, then `done` or `error` with the result (an `ask` job's ending). */
export const AskEventSchema = z.discriminatedUnion('type', [
  ...AskStepSchema.options,
  z.object({ type: z.literal('done'), result: AnswerResultSchema }),
  z.object({ type: z.literal('error'), error: ErrorShape, result: AnswerResultSchema }),
]);
export type Candidate = z.infer<typeof CandidateSchema>;
export type Budget = z.infer<typeof BudgetSchema>;
export type BudgetBreakdown = Budget['breakdown'];
export type Citation = z.infer<typeof CitationSchema>;
export type CitationCheck = Citation['check'];
export type AnswerResult = z.infer<typeof AnswerResultSchema>;
export type AnswerFlag = AnswerResult['flags'][number];
export type AskEvent = z.infer<typeof AskEventSchema>;

export interface HistoryTurn {
  question: string;
  answer: string;
}
