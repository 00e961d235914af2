import { QuireError } from '../../../shared/errors';
import type { Budget, BudgetBreakdown } from '../../../shared/answer';
import { countTokens } from '../text/tokenizer';
import { questionWords } from '../text/stems';
import type { ChatMessage } from '../ollama/chat';
import type { ExactCounter } from '../tokens/model-tokens';
import { formatSource, NO_SOURCES, promptParts, SOURCE_SEPARATOR, SOURCES_HEAD, toMessages, type PromptSource, type PromptTurn } from './prompt';

/**
 * For a model counted approximately (its template or tokenizer unknown to core/tokens): chat
 * templates wrap each message in role markers, a few tokens per message plus the reply's opening.
 * Calibration against prompt_eval_count absorbs what this fixed guess gets wrong.
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
  /**
   * The chat model's own tokenizer and template: the prompt is then counted exactly as Ollama will
   * count it, and ratio is not used. Without it, the calibrated estimate below.
   */
  exact?: ExactCounter | null;
  /** How the estimate counts a text when not exact (the model's tokenizer if known); cl100k by default. */
  countText?: (text: string) => number;
}

export interface FittedPrompt {
  messages: ChatMessage[];
  sources: PromptSource[];
  history: PromptTurn[];
  budget: Budget;
}

const messageTokens = (content: string, count: (text: string) => number = countTokens) => count(content) + TOKENS_PER_MESSAGE;

/**
 * Up to maxK sources within maxSourceTokens (see withinCap) whose prompt fits num_ctx minus the
 * answer's reserve, counted exactly with the chat model's tokenizer and template when known, else
 * by our calibrated estimate; then as much history as still fits, newest turns first. History is
 * trimmed here, explicitly, so Ollama never has to cut anything silently. A prompt that cannot
 * fit even with one source and no history is refused, not sent.
 *
 * The source cap stays in cl100k, Quire's one fixed tokenizer for sizes: the same passages are
 * chosen whichever chat model answers; only what fits its window depends on the model.
 */
export function fitPrompt(input: FitInput): FittedPrompt {
  const available = input.numCtx - input.reserve;
  const exact = input.exact ?? null;
  const count = input.countText ?? countTokens;

  const base = promptParts(input.question, [], []);
  const fixed = messageTokens(base.system, count) + TOKENS_PER_MESSAGE + REPLY_PRIMING;
  const framing = count(`${base.framing}\n\n`) + 2; // + the blank lines around it
  const question = count(base.questionLine);
  // Remembered: the history loop below asks again for the same sources and turns with each turn it adds.
  let counted: { sources: readonly PromptSource[]; tokens: number } | null = null;
  const sourceTokens = (sources: readonly PromptSource[]) => {
    if (counted?.sources !== sources) counted = { sources, tokens: count(promptParts(input.question, sources, []).sourcesBlock) };
    return counted.tokens;
  };
  const turnCost = new Map<PromptTurn, number>();
  const turnTokens = (turn: PromptTurn) => {
    let n = turnCost.get(turn);
    if (n === undefined) turnCost.set(turn, (n = messageTokens(turn.question, count) + messageTokens(turn.answer, count)));
    return n;
  };
  const rawOf = (sources: readonly PromptSource[], history: readonly PromptTurn[]) =>
    fixed + framing + question + sourceTokens(sources) + history.reduce((n, t) => n + turnTokens(t), 0);
  /** What Ollama will count for this prompt: exactly, or our calibrated estimate. */
  const estimate = (sources: readonly PromptSource[], history: readonly PromptTurn[]) =>
    exact ? exact.count(toMessages(promptParts(input.question, sources, history))) : Math.ceil(rawOf(sources, history) * input.ratio);
  const fits = (sources: readonly PromptSource[], history: readonly PromptTurn[]) => estimate(sources, history) <= available;

  // Equal cost, not equal count: passages differ in size, so the sources get a token budget. In
  // rank order, each passage goes whole if it fits, else with less around its hit (see narrower), so
  // a large passage near the top does not leave the rest of the budget unspent.
  const candidates = withinCap(input.candidates, input.maxK, input.maxSourceTokens, sourcesBlockCounter(), questionWords(input.question));
  let k = candidates.length;
  while (k > 0 && !fits(candidates.slice(0, k), [])) k--;
  const found = Math.min(input.candidates.length, input.maxK);
  const passages = { asked: input.maxK, found, heldBy: k === found ? null : k < candidates.length ? ('window' as const) : ('source-budget' as const) };
  if (k === 0 && input.candidates.length > 0) {
    const need = estimate(input.candidates.slice(0, 1), []) + input.reserve;
    throw new QuireError(
      'CONTEXT_TOO_SMALL',
      `Even one source does not fit: the prompt needs ${exact ? '' : 'about '}${need} tokens but num_ctx is ${input.numCtx}. Raise num_ctx or lower the answer reserve.`,
    );
  }
  if (k === 0 && !fits([], [])) {
    throw new QuireError('CONTEXT_TOO_SMALL', `The question alone does not fit in num_ctx ${input.numCtx}.`);
  }
  const sources = candidates.slice(0, k);

  const kept: PromptTurn[] = [];
  for (const turn of [...input.history].reverse()) {
    if (!fits(sources, [turn, ...kept])) break;
    kept.unshift(turn);
  }

  const parts = promptParts(input.question, sources, kept);
  const messages = toMessages(parts);
  if (exact) {
    // The whole prompt is counted at once; the parts are each counted alone, and the system share
    // takes what is left: the rules, the template's markers, BOS.
    const total = exact.count(messages);
    const history = parts.history.reduce((n, m) => n + exact.text(m.content), 0);
    const sourcesTokens = exact.text(parts.sourcesBlock);
    const questionTokens = exact.text(parts.questionLine);
    const breakdown: BudgetBreakdown = { system: total - history - sourcesTokens - questionTokens, history, sources: sourcesTokens, question: questionTokens, reserve: input.reserve };
    return {
      messages,
      sources,
      history: kept,
      budget: { raw: total, estimated: total, reported: null, ratio: 1, numCtx: input.numCtx, k, breakdown, truncationSuspected: false, exact: true, lostSources: [], passages },
    };
  }
  const historyTokens = kept.reduce((n, t) => n + turnTokens(t), 0);
  const breakdown: BudgetBreakdown = { system: fixed + framing, history: historyTokens, sources: sourceTokens(sources), question, reserve: input.reserve };
  const raw = breakdown.system + breakdown.history + breakdown.sources + breakdown.question;
  return {
    messages,
    sources,
    history: kept,
    budget: { raw, estimated: Math.ceil(raw * input.ratio), reported: null, ratio: input.ratio, numCtx: input.numCtx, k, breakdown, truncationSuspected: false, exact: false, lostSources: [], passages },
  };
}

/**
 * Compares Ollama's count with ours once the reply is in.
 *
 * Ollama cuts a prompt only when it is longer than the window the model runs with: chatPrompt
 * drops the oldest messages until the rest fits, and the runner cuts what still does not. `window`
 * is that window (what /api/ps says the loaded model runs with, else num_ctx capped at the model's
 * trained context); num_ctx when unknown. With an exact estimate, a shortfall is a cut for
 * certain only when our count was over that window and Ollama's is within it. Any other
 * disagreement means the count was not exact after all (the template renders differently, the
 * tokenizer splits differently): the budget drops to approximate, and a cut is suspected only if
 * the prompt filled the window. With an approximate estimate, a large shortfall or a full window
 * is taken for a cut.
 */
export function settleBudget(budget: Budget, reported: number | null, window: number = budget.numCtx): Budget {
  if (reported === null) return budget;
  // We left num_predict free; a prompt that reaches the window's edge overflowed it.
  const filledWindow = reported >= Math.min(budget.numCtx, window) - FULL_WINDOW_MARGIN;
  if (budget.exact) {
    if (reported === budget.estimated) return { ...budget, reported, truncationSuspected: false };
    const cut = reported < budget.estimated && budget.estimated > window && reported <= window;
    if (cut) return { ...budget, reported, truncationSuspected: true };
    return { ...budget, reported, exact: false, truncationSuspected: filledWindow, lostSources: [] };
  }
  const cutShort = reported < TRUNCATION_THRESHOLD * budget.estimated;
  return { ...budget, reported, truncationSuspected: cutShort || filledWindow };
}

/**
 * The sources (1-based positions in the prompt) Ollama cut, wholly or in part, when it counted
 * `lost` fewer tokens than the exact estimate. Ollama first drops the oldest history messages,
 * then cuts the front of what is left: the system message, then the sources from the first on
 * (the question comes last, so it is the last to go).
 */
export function lostSources(exact: ExactCounter, messages: readonly ChatMessage[], sources: readonly PromptSource[], lost: number): number[] {
  if (lost <= 0 || sources.length === 0) return [];
  const history = messages.slice(1, -1);
  let remaining = lost;
  // Whole history messages go first, oldest first, while they cover the shortfall.
  const withoutHistory = [messages[0]!, messages.at(-1)!];
  const historyTokens = exact.count(messages) - exact.count(withoutHistory);
  if (history.length > 0) remaining -= Math.min(remaining, historyTokens);
  if (remaining <= 0) return [];
  const rendered = exact.render(withoutHistory);
  const out: number[] = [];
  let from = 0;
  sources.forEach((s, i) => {
    const at = rendered.indexOf(formatSource(s), from);
    if (at < 0) return;
    from = at;
    // A source whose first token falls in the cut region was cut, at least in part.
    if (exact.text(rendered.slice(0, at)) < remaining) out.push(i + 1);
  });
  return out;
}

/** Our raw count of exactly these messages, as fitPrompt counts them. */
export function countMessages(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + messageTokens(m.content), REPLY_PRIMING);
}

/**
 * cl100k tokens of the sources block, as countTokens(promptParts(…).sourcesBlock) gives them, from
 * each source's count taken once. The cap tries many sets that share most of their sources (each
 * candidate whole, in narrower forms, then cut line by line), and formatting and counting the whole
 * block for each set grew with the square of the passages: 60% of ask's own time once short
 * sections were sent whole. The sum is exact: every source ends with `</source>`, whose `>` takes
 * the separator's newlines into one pre-token, and the next starts at `<source`, so no pre-token
 * (and so no BPE merge) crosses a source's edge. budget.test.ts checks it against the whole count.
 */
export function sourcesBlockCounter(): (sources: readonly PromptSource[]) => number {
  const head = countTokens(SOURCES_HEAD);
  const memo = new WeakMap<PromptSource, { inner: number; last: number }>();
  const of = (s: PromptSource) => {
    let m = memo.get(s);
    if (!m) {
      const text = formatSource(s);
      memo.set(s, (m = { inner: countTokens(text + SOURCE_SEPARATOR), last: countTokens(text) }));
    }
    return m;
  };
  return (sources) => (sources.length === 0 ? countTokens(NO_SOURCES) : sources.reduce((n, s, i) => n + (i < sources.length - 1 ? of(s).inner : of(s).last), head));
}

/**
 * The sources to send under a cap on their tokens: up to maxK passages in rank order, each whole
 * or in the first narrower form that still fits, or else its hit's opening lines. At least one is
 * sent (narrowed as far as it goes), whatever the cap; num_ctx has the last word. Measured on the question sets, this sends the fact for
 * a question or two more per hundred at the same cap (test/bench/retrieval.ts). A passage is
 * narrowed by how many of the question's words its chunks hold (`relevance`), counted only for a
 * passage that does not fit whole.
 */
function withinCap(candidates: readonly PromptSource[], maxK: number, cap: number | undefined, cost: (s: readonly PromptSource[]) => number, relevance?: Relevance): PromptSource[] {
  if (cap === undefined) return candidates.slice(0, maxK);
  const chosen: PromptSource[] = [];
  for (const c of candidates) {
    if (chosen.length >= maxK) break;
    const fits = (f: PromptSource) => cost([...chosen, f]) <= cap;
    if (fits(c)) {
      chosen.push(c);
      continue;
    }
    const forms = [c, ...narrower(c, relevance)];
    // Every form holds the hit, and the last is the hit alone: when that does not fit, no larger
    // one does, so they are not counted (once the cap is spent, each later candidate costs one count).
    const smallest = forms.at(-1)!;
    const form = fits(smallest) ? forms.find(fits) : chosen.length === 0 ? smallest : cut(smallest, fits);
    if (form) chosen.push(form);
  }
  return chosen;
}

/** From the first range's start to the last one's end; null unless both are known (pages of a PDF). */
const span = (from: [number, number] | null | undefined, to: [number, number] | null | undefined): [number, number] | null => (from && to ? [from[0], to[1]] : null);

/**
 * A passage with less around its hit, largest first: runs of its chunks around the hit of every
 * size (the hit grown a chunk at a time, before then after), with everything before it, with
 * everything after it, with the chunk before or the chunk after, alone. Every form holds the hit.
 * The sizes between matter since passages grow to PASSAGE_TOKENS: a passage that no longer fits
 * whole keeps as much around its hit as the budget has room for (measured: fact sent 91 → 92% on
 * rust-book, 82.5 → 85% on its held-out set, nothing lost elsewhere). Given the question's words
 * (`relevance`) and a hit that holds some of them, the forms instead leave out the least relevant
 * end chunk first (see leastRelevantFirst).
 */
export function narrower(s: PromptSource, relevance?: Relevance): PromptSource[] {
  const ids = s.chunkIds ?? [s.chunkId];
  const at = ids.indexOf(s.chunkId);
  if (!s.hit || ids.length < 2 || at < 0) return [];
  if (s.chunkSpans?.length === ids.length) return narrowerBySpans(s, ids, at, s.chunkSpans, relevance);
  // Without each chunk's place (a source from elsewhere), only the hit's is known.
  const { start, end, lines } = s.hit;
  // Pages narrow with the lines: from the passage's first page to the hit's last, and so on.
  const pages = s.hit.pages ?? null;
  const hit = { lines, pages, start, end };
  const forms: PromptSource[] = [];
  if (at > 0 && at < ids.length - 1) {
    forms.push({ ...s, chunkIds: ids.slice(0, at + 1), text: s.text.slice(0, end), lines: [s.lines[0], lines[1]], pages: span(s.pages, pages), hit });
    forms.push({ ...s, chunkIds: ids.slice(at), text: s.text.slice(start), lines: [lines[0], s.lines[1]], pages: span(pages, s.pages), hit: { ...hit, start: 0, end: end - start } });
  }
  forms.push({ ...s, chunkIds: [s.chunkId], text: s.text.slice(start, end), lines, pages, hit: { ...hit, start: 0, end: end - start } });
  return forms;
}

/** How many of the question's words a text holds (text/stems.ts questionWords). */
export type Relevance = (text: string) => number;

function narrowerBySpans(s: PromptSource, ids: readonly string[], at: number, spans: NonNullable<PromptSource['chunkSpans']>, relevance?: Relevance): PromptSource[] {
  const last = ids.length - 1;
  const hit = s.hit!;
  // Counted only for a passage that has to be narrowed: at most a few per answer.
  const shared = relevance ? spans.map((c) => relevance(s.text.slice(c.start, c.end))) : null;
  const runs = shared && shared[at]! > 0 ? leastRelevantFirst(shared, at) : bySize(at, last);
  const seen = new Set([`0:${last}`]); // the whole passage is not a narrower form
  const forms: PromptSource[] = [];
  for (const [a, b] of runs) {
    const [i, j] = [Math.max(0, a), Math.min(last, b)];
    if (seen.has(`${i}:${j}`)) continue;
    seen.add(`${i}:${j}`);
    const from = spans[i]!.start;
    forms.push({
      ...s,
      chunkIds: ids.slice(i, j + 1),
      text: s.text.slice(from, spans[j]!.end),
      lines: [spans[i]!.lines[0], spans[j]!.lines[1]],
      pages: span(spans[i]!.pages, spans[j]!.pages),
      hit: { ...hit, start: hit.start - from, end: hit.end - from },
      chunkSpans: spans.slice(i, j + 1).map((c) => ({ ...c, start: c.start - from, end: c.end - from })),
    });
  }
  // Largest first (stable: at equal size, the order above).
  return forms.sort((x, y) => y.chunkIds!.length - x.chunkIds!.length);
}

/**
 * Runs around the hit of every size: the hit grown a chunk at a time, before then after, as a
 * passage grows; at equal size these come before the runs that keep one whole side.
 */
function bySize(at: number, last: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [[at - 1, at + 1]];
  for (let i = at, j = at, before = true; i > 0 || j < last; before = !before) {
    if ((before && i > 0) || j === last) i--;
    else j++;
    runs.push([i, j]);
  }
  runs.push([0, at], [at, last], [at - 1, at], [at, at + 1], [at, at]);
  return runs;
}

/**
 * For a hit that holds some of the question's words (`relevance`: how many each chunk holds): the
 * passage loses one end chunk at a time, the end whose chunk holds fewer of them (on a tie the one
 * farther from the hit, else the one after: a topic's words come before its detail), and never
 * ends on a chunk that holds none: such a chunk is rarely the fact (the chunk holding the fact
 * shares a word with the question for 363 of the 368 answerable questions of the tuning sets), and
 * its tokens are better spent on the next passage. Narrowing by size alone kept those and could drop
 * the chunk beside the hit that speaks of the question's topic. A hit with none of the words (found
 * by vectors alone) narrows by size, as before.
 *
 * Measured on the tuning sets (npm run bench:retrieval, k = 6, 1,600 source tokens): fact sent on
 * fastify-docs 133 → 138 of 168, rust-book 91 → 90 of 100, tldr 82 → 82; hit@n and MRR unchanged
 * (the passages are the same), median source tokens unchanged.
 */
function leastRelevantFirst(relevance: readonly number[], at: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let i = 0;
  let j = relevance.length - 1;
  const unmatchedEnds = () => {
    while (i < at && relevance[i] === 0) i++;
    while (j > at && relevance[j] === 0) j--;
  };
  unmatchedEnds();
  runs.push([i, j]);
  while (i < at || j > at) {
    const dropBefore = j === at || (i < at && (relevance[i] !== relevance[j] ? relevance[i]! < relevance[j]! : at - i > j - at));
    if (dropBefore) i++;
    else j--;
    unmatchedEnds();
    runs.push([i, j]);
  }
  return runs;
}

/** Fewer lines than this of a passage's start are not worth a source block of their own. */
const MIN_CUT_LINES = 3;

/**
 * The hit's opening lines, as many as fit: the last source sent when not even the hit fits whole.
 * Its line range stays the chunk's, which holds what was sent. Undefined when too little fits.
 */
function cut(s: PromptSource, fits: (s: PromptSource) => boolean): PromptSource | undefined {
  const lines = s.text.split('\n');
  const { chunkSpans: _spans, ...rest } = s; // places in the uncut text
  const form = (n: number): PromptSource => ({ ...rest, text: lines.slice(0, n).join('\n'), hit: undefined });
  // Fewer than MIN_CUT_LINES are never sent: when they do not fit, more will not either.
  if (lines.length - 1 < MIN_CUT_LINES || !fits(form(MIN_CUT_LINES))) return undefined;
  let lo = MIN_CUT_LINES;
  let hi = lines.length - 1; // the whole text was already tried
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(form(mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo >= MIN_CUT_LINES ? form(lo) : undefined;
}
