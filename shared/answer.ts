import type { QuireErrorShape } from './errors';

export type CitationCheck = 'supported' | 'weak' | 'unsupported' | 'unknown-source';

export type AnswerFlag = 'uncited' | 'unknown-source' | 'unsupported-citation' | 'truncation-suspected' | 'injection-in-sources' | 'length-limit';

export interface Candidate {
  chunkId: string;
  path: string;
  heading: string;
  lines: [number, number];
  lexicalRank: number | null;
  denseRank: number | null;
  distance: number | null;
  score: number;
  /** Sent to the model as a source. */
  sent: boolean;
  /** Why a candidate was not sent. */
  dropped?: 'budget' | 'distance' | 'k';
  /** Injection flags found in the chunk at import. */
  flags: string[];
}

export interface BudgetBreakdown {
  system: number;
  history: number;
  sources: number;
  question: number;
  reserve: number;
}

export interface Budget {
  /** Our tokenizer's count of the prompt, before calibration. */
  raw: number;
  /** raw × calibration ratio: what we expect Ollama to count. */
  estimated: number;
  /** Ollama's prompt_eval_count, once the reply is done. */
  reported: number | null;
  ratio: number;
  numCtx: number;
  k: number;
  breakdown: BudgetBreakdown;
  truncationSuspected: boolean;
}

export interface Citation {
  chunkId: string;
  path: string | null;
  lines: [number, number] | null;
  sentence: string;
  check: CitationCheck;
  missing: string[];
}

export interface AnswerResult {
  runId: number;
  status: 'answered' | 'refused' | 'error' | 'cancelled';
  question: string;
  /** The follow-up rewritten as a standalone query, when there was history. */
  standaloneQuery: string | null;
  answer: string;
  refused: boolean;
  /** The refusal came from Quire (no usable passage), so the model was never called. */
  refusedWithoutModel: boolean;
  citations: Citation[];
  flags: AnswerFlag[];
  budget: Budget | null;
  retrieval: Candidate[];
  retrievalMode: 'lexical' | 'dense' | 'hybrid';
  latencyMs: { retrieve: number; rewrite: number; generate: number; total: number; firstToken: number | null };
  ollama: { promptEvalCount: number | null; evalCount: number | null; doneReason: string | null; tokensPerSecond: number | null };
  model: { chat: string; chatDigest: string | null; embed: string | null; embedDigest: string | null };
  error: QuireErrorShape | null;
}

export type AskEvent =
  | { type: 'rewrite'; standaloneQuery: string }
  | { type: 'retrieval'; mode: AnswerResult['retrievalMode']; candidates: Candidate[]; note: string | null }
  | { type: 'budget'; budget: Budget }
  | { type: 'token'; text: string }
  | { type: 'done'; result: AnswerResult }
  | { type: 'error'; error: QuireErrorShape; result: AnswerResult };

export interface HistoryTurn {
  question: string;
  answer: string;
}
