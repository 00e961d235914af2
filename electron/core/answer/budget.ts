import { QuireError } from '../../../shared/errors';
import type { Budget, BudgetBreakdown } from '../../../shared/answer';
import { countTokens } from '../text/tokenizer';
import type { ChatMessage } from '../ollama/chat';
import { promptParts, toMessages, type PromptSource, type PromptTurn } from './prompt';

/**
 * Chat templates wrap each message in role markers; a few tokens per message plus the reply's
 * opening. Calibration against prompt_eval_count absorbs what this fixed guess gets wrong.
 */
export const TOKENS_PER_MESSAGE = 4;
export const REPLY_PRIMING = 3;
/** Reported below this share of our calibrated estimate: Ollama must have cut the prompt. */
export const TRUNCATION_THRESHOLD = 0.85;
/** Reported within this many tokens of num_ctx: the prompt filled the window, so it was cut to fit. */
export const FULL_WINDOW_MARGIN = 16;
/** Before a model's first calibration sample, assume its tokenizer counts 10% more than ours. */
export const UNCALIBRATED_RATIO = 1.1;

export interface FitInput {
  question: string;
  candidates: readonly PromptSource[];
  history: readonly PromptTurn[];
  maxK: number;
  /** The most tokens the sources block may take (at least one source is always sent when it fits num_ctx). */
  maxSourceTokens?: number;
  numCtx: number;
  reserve: number;
  ratio: number;
}

export interface FittedPrompt {
  messages: ChatMessage[];
  sources: PromptSource[];
  history: PromptTurn[];
  budget: Budget;
}

const messageTokens = (content: string) => countTokens(content) + TOKENS_PER_MESSAGE;

/**
 * The largest k (up to maxK) whose sources stay within maxSourceTokens and whose prompt fits num_ctx
 * minus the answer's reserve, by our calibrated estimate; then as much history as still fits, newest turns first. History is
 * trimmed here, explicitly, so Ollama never has to cut anything silently. A prompt that cannot
 * fit even with one source and no history is refused, not sent.
 */
export function fitPrompt(input: FitInput): FittedPrompt {
  const available = input.numCtx - input.reserve;
  const fits = (raw: number) => Math.ceil(raw * input.ratio) <= available;

  const base = promptParts(input.question, [], []);
  const fixed = messageTokens(base.system) + TOKENS_PER_MESSAGE + REPLY_PRIMING;
  const framing = countTokens(`${base.framing}\n\n`) + 2; // + the blank lines around it
  const question = countTokens(base.questionLine);
  const sourceCost = (sources: readonly PromptSource[]) => countTokens(promptParts(input.question, sources, []).sourcesBlock);

  let k = Math.min(input.maxK, input.candidates.length);
  // Equal cost, not equal count: passages differ in size, so the sources get a token budget.
  const cap = input.maxSourceTokens;
  if (cap !== undefined) while (k > 1 && sourceCost(input.candidates.slice(0, k)) > cap) k--;
  while (k > 0 && !fits(fixed + framing + question + sourceCost(input.candidates.slice(0, k)))) k--;
  if (k === 0 && input.candidates.length > 0) {
    const need = Math.ceil((fixed + framing + question + sourceCost(input.candidates.slice(0, 1))) * input.ratio) + input.reserve;
    throw new QuireError(
      'CONTEXT_TOO_SMALL',
      `Even one source does not fit: the prompt needs about ${need} tokens but num_ctx is ${input.numCtx}. Raise num_ctx or lower the answer reserve.`,
    );
  }
  if (k === 0 && !fits(fixed + framing + question + sourceCost([]))) {
    throw new QuireError('CONTEXT_TOO_SMALL', `The question alone does not fit in num_ctx ${input.numCtx}.`);
  }
  const sources = input.candidates.slice(0, k);
  const sourcesTokens = sourceCost(sources);

  const kept: PromptTurn[] = [];
  let historyTokens = 0;
  for (const turn of [...input.history].reverse()) {
    const cost = messageTokens(turn.question) + messageTokens(turn.answer);
    if (!fits(fixed + framing + question + sourcesTokens + historyTokens + cost)) break;
    kept.unshift(turn);
    historyTokens += cost;
  }

  const breakdown: BudgetBreakdown = { system: fixed + framing, history: historyTokens, sources: sourcesTokens, question, reserve: input.reserve };
  const raw = breakdown.system + breakdown.history + breakdown.sources + breakdown.question;
  return {
    messages: toMessages(promptParts(input.question, sources, kept)),
    sources,
    history: kept,
    budget: { raw, estimated: Math.ceil(raw * input.ratio), reported: null, ratio: input.ratio, numCtx: input.numCtx, k, breakdown, truncationSuspected: false },
  };
}

/** Compares Ollama's count with ours once the reply is in. */
export function settleBudget(budget: Budget, reported: number | null): Budget {
  if (reported === null) return budget;
  const cutShort = reported < TRUNCATION_THRESHOLD * budget.estimated;
  // We left num_predict free; a prompt that reaches the window's edge overflowed it.
  const filledWindow = reported >= budget.numCtx - FULL_WINDOW_MARGIN;
  return { ...budget, reported, truncationSuspected: cutShort || filledWindow };
}

/** Our raw count of exactly these messages, as fitPrompt counts them. */
export function countMessages(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + messageTokens(m.content), REPLY_PRIMING);
}
