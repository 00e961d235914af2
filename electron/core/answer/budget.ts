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
 * Up to maxK sources within maxSourceTokens (see withinCap) whose prompt fits num_ctx minus the
 * answer's reserve, by our calibrated estimate; then as much history as still fits, newest turns first. History is
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

  // Equal cost, not equal count: passages differ in size, so the sources get a token budget. In
  // rank order, each passage goes whole if it fits, else with less around its hit (see narrower), so
  // a large passage near the top does not leave the rest of the budget unspent.
  const candidates = withinCap(input.candidates, input.maxK, input.maxSourceTokens, sourceCost);
  let k = candidates.length;
  while (k > 0 && !fits(fixed + framing + question + sourceCost(candidates.slice(0, k)))) k--;
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
  const sources = candidates.slice(0, k);
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

/**
 * The sources to send under a cap on their tokens: up to maxK passages in rank order, each whole
 * or in the first narrower form that still fits, or else its hit's opening lines. At least one is
 * sent (narrowed as far as it goes), whatever the cap; num_ctx has the last word. Measured on the question sets, this sends the fact for
 * a question or two more per hundred at the same cap (test/bench/retrieval.ts).
 */
function withinCap(candidates: readonly PromptSource[], maxK: number, cap: number | undefined, cost: (s: readonly PromptSource[]) => number): PromptSource[] {
  if (cap === undefined) return candidates.slice(0, maxK);
  const chosen: PromptSource[] = [];
  for (const c of candidates) {
    if (chosen.length >= maxK) break;
    const forms = [c, ...narrower(c)];
    const form = forms.find((f) => cost([...chosen, f]) <= cap) ?? (chosen.length === 0 ? forms.at(-1) : cut(forms.at(-1)!, (f) => cost([...chosen, f]) <= cap));
    if (form) chosen.push(form);
  }
  return chosen;
}

/** A passage with less around its hit: with the chunk before, with the chunk after, alone. */
export function narrower(s: PromptSource): PromptSource[] {
  const ids = s.chunkIds ?? [s.chunkId];
  const at = ids.indexOf(s.chunkId);
  if (!s.hit || ids.length < 2 || at < 0) return [];
  const { start, end, lines } = s.hit;
  // Pages narrow with the lines: from the passage's first page to the hit's last, and so on.
  const pages = s.hit.pages ?? null;
  const span = (from: [number, number] | null | undefined, to: [number, number] | null | undefined): [number, number] | null => (from && to ? [from[0], to[1]] : null);
  const hit = { lines, pages, start, end };
  const forms: PromptSource[] = [];
  if (at > 0 && at < ids.length - 1) {
    forms.push({ ...s, chunkIds: ids.slice(0, at + 1), text: s.text.slice(0, end), lines: [s.lines[0], lines[1]], pages: span(s.pages, pages), hit });
    forms.push({ ...s, chunkIds: ids.slice(at), text: s.text.slice(start), lines: [lines[0], s.lines[1]], pages: span(pages, s.pages), hit: { ...hit, start: 0, end: end - start } });
  }
  forms.push({ ...s, chunkIds: [s.chunkId], text: s.text.slice(start, end), lines, pages, hit: { ...hit, start: 0, end: end - start } });
  return forms;
}

/** Fewer lines than this of a passage's start are not worth a source block of their own. */
const MIN_CUT_LINES = 3;

/**
 * The hit's opening lines, as many as fit: the last source sent when not even the hit fits whole.
 * Its line range stays the chunk's, which holds what was sent. Undefined when too little fits.
 */
function cut(s: PromptSource, fits: (s: PromptSource) => boolean): PromptSource | undefined {
  const lines = s.text.split('\n');
  const form = (n: number): PromptSource => ({ ...s, text: lines.slice(0, n).join('\n'), hit: undefined });
  let lo = 0;
  let hi = lines.length - 1; // the whole text was already tried
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(form(mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo >= MIN_CUT_LINES ? form(lo) : undefined;
}
