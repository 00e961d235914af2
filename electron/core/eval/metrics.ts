import type { CitationCheck } from '../../../shared/answer';
import type { AnswerScore, EvalMetrics, Question, QuestionScore, RetrievalScore } from '../../../shared/eval';
import { collapseWhitespace, normaliseText } from '../text/normalise';

export type { AnswerScore, EvalMetrics, QuestionScore, RetrievalScore } from '../../../shared/eval';

/** One retrieved chunk, in rank order. */
export interface RetrievedChunk {
  chunkId: string;
  text: string;
}

/** What the chat model produced for one question (absent when no chat model ran). */
export interface AnswerOutcome {
  text: string;
  refused: boolean;
  citations: Array<{ chunkId: string; check: CitationCheck }>;
  /** Text of cited chunks by id; a cited id missing here falls back to the retrieved list. */
  citedTexts: Record<string, string>;
  /** Our calibrated estimate of the prompt's size in tokens; null when no prompt was sent (Quire refused by itself). */
  estimatedTokens: number | null;
  /** Ollama's prompt_eval_count, when it reported one. */
  reportedTokens: number | null;
  /** Counted with the chat model's own tokenizer and template (absent: approximate). */
  exactTokens?: boolean;
  truncated: boolean;
  /** null when the model was not called. */
  generateMs: number | null;
  tokensPerSecond: number | null;
}

/** One run of one question (`repeat` numbers runs of the same question; any distinct values). */
export interface QuestionOutcome {
  questionId: string;
  repeat: number;
  /** Ranked retrieval, best first. */
  retrieved: RetrievedChunk[];
  /** Cut-off for hitK and reciprocalRank: only the first k retrieved chunks count (hit@3 and hit@5 look at the first 3 and 5). */
  k: number;
  /** null when the search failed or ran in another mode than asked. */
  retrieveMs: number | null;
  /**
   * The search asked for did not run (it failed, or only another mode could): the question is left
   * out of every retrieval rate, as it is of fact sent, rather than counted a miss by hit@n and
   * not at all by fact sent (a row read hit@k 22%, fact sent 100%).
   */
  searchFailed?: boolean;
  /** The sources the prompt holds (or would hold, in a retrieval-only run) and their tokens. */
  sent?: SentSources;
  answer?: AnswerOutcome;
}

export interface SentSources {
  texts: string[];
  /** Tokens of the sources block, as the budget counts them. */
  tokens: number;
}

/** Whether `text` contains `fact`, compared as normaliseText leaves them (case, whitespace, NFKC). */
export function containsFact(text: string, fact: string): boolean {
  const f = normaliseText(fact);
  return f.length > 0 && normaliseText(text).includes(f);
}

export function scoreQuestion(question: Question, outcome: QuestionOutcome): QuestionScore {
  if (question.id !== outcome.questionId) {
    throw new Error(`outcome for "${outcome.questionId}" scored against question "${question.id}"`);
  }
  const { chunkFact, answerRegex, answerable } = question.expect;

  let retrieval: RetrievalScore | null = null;
  if (answerable && chunkFact !== undefined && !outcome.searchFailed) {
    const rank = outcome.retrieved.findIndex((c) => containsFact(c.text, chunkFact));
    const within = (n: number) => rank >= 0 && rank < n;
    const sent = outcome.sent;
    retrieval = {
      hit1: rank === 0,
      hit3: within(3),
      hit5: within(5),
      hitK: within(outcome.k),
      reciprocalRank: within(outcome.k) ? 1 / (rank + 1) : 0,
      factSent: sent ? sent.texts.some((t) => containsFact(t, chunkFact)) : null,
      sourceTokens: sent ? sent.tokens : null,
    };
  }

  let answer: AnswerScore | null = null;
  const a = outcome.answer;
  if (a) {
    const n = a.citations.length;
    const textOf = (id: string): string | undefined =>
      a.citedTexts[id] ?? outcome.retrieved.find((c) => c.chunkId === id)?.text;
    answer = {
      answerHasFact:
        answerable && answerRegex !== undefined ? new RegExp(answerRegex, 'i').test(collapseWhitespace(a.text)) : null,
      citationValid: n === 0 ? null : a.citations.filter((c) => c.check !== 'unknown-source').length / n,
      supportedCitationRate: n === 0 ? null : a.citations.filter((c) => c.check === 'supported').length / n,
      citesFact:
        answerable && chunkFact !== undefined
          ? a.citations.some((c) => {
              const t = textOf(c.chunkId);
              return t !== undefined && containsFact(t, chunkFact);
            })
          : null,
      refused: a.refused,
      estimatedTokens: a.estimatedTokens,
      reportedTokens: a.reportedTokens,
      exactTokens: a.exactTokens ?? false,
      truncated: a.truncated,
      generateMs: a.generateMs,
      tokensPerSecond: a.tokensPerSecond,
      normalisedText: normaliseText(a.text),
    };
  }

  return { questionId: question.id, repeat: outcome.repeat, answerable, retrieval, retrieveMs: outcome.retrieveMs, answer };
}

/** Scores every outcome against its question; throws on an unknown question id (aggregate rejects a repeated (id, repeat)). */
export function scoreOutcomes(questions: Question[], outcomes: QuestionOutcome[]): QuestionScore[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  return outcomes.map((o) => {
    const q = byId.get(o.questionId);
    if (!q) throw new Error(`outcome for unknown question "${o.questionId}"`);
    return scoreQuestion(q, o);
  });
}

/**
 * Nearest-rank percentile: the smallest value such that at least p% of the values are ≤ it, i.e.
 * the value at 1-based rank ceil(p/100 × n) of the ascending list (rank 1 for p = 0). Always one of
 * the inputs, never interpolated. null for an empty list.
 */
export function percentileNearestRank(values: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be in [0, 100], got ${p}`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

const rate = (flags: readonly boolean[]): number | null => mean(flags.map((f) => (f ? 1 : 0)));
const notNull = <T>(v: T | null): v is T => v !== null;

/**
 * Aggregates scores of one configuration. Each (question, repeat) is one sample, so with equal
 * repeats per question every mean equals the mean of per-question means.
 */
export function aggregate(scores: readonly QuestionScore[]): EvalMetrics {
  const seen = new Set<string>();
  for (const s of scores) {
    const key = JSON.stringify([s.questionId, s.repeat]);
    if (seen.has(key)) throw new Error(`question "${s.questionId}" repeat ${s.repeat} scored twice`);
    seen.add(key);
  }

  const retrievals = scores.map((s) => s.retrieval).filter(notNull);
  const answered = scores.filter((s): s is QuestionScore & { answer: AnswerScore } => s.answer !== null);
  const answers = answered.map((s) => s.answer);

  // Group answered repeats per question, in first-seen order.
  const textsById = new Map<string, Set<string>>();
  const countById = new Map<string, number>();
  for (const s of answered) {
    const set = textsById.get(s.questionId) ?? new Set<string>();
    set.add(s.answer.normalisedText);
    textsById.set(s.questionId, set);
    countById.set(s.questionId, (countById.get(s.questionId) ?? 0) + 1);
  }
  const repeatedIds = [...countById].filter(([, c]) => c >= 2).map(([id]) => id);

  const generateMs = answers.map((a) => a.generateMs).filter(notNull);
  const retrieveMs = scores.map((s) => s.retrieveMs).filter(notNull);

  return {
    hit1: rate(retrievals.map((r) => r.hit1)),
    hit3: rate(retrievals.map((r) => r.hit3)),
    hit5: rate(retrievals.map((r) => r.hit5)),
    hitK: rate(retrievals.map((r) => r.hitK)),
    mrr: mean(retrievals.map((r) => r.reciprocalRank)),
    factSent: rate(retrievals.map((r) => r.factSent).filter(notNull)),
    sourceTokensP50: percentileNearestRank(retrievals.map((r) => r.sourceTokens).filter(notNull), 50),
    answerHasFact: rate(answers.map((a) => a.answerHasFact).filter(notNull)),
    citationValid: mean(answers.map((a) => a.citationValid).filter(notNull)),
    supportedCitationRate: mean(answers.map((a) => a.supportedCitationRate).filter(notNull)),
    citesFact: rate(answers.map((a) => a.citesFact).filter(notNull)),
    refusalAccuracy: rate(answered.filter((s) => !s.answerable).map((s) => s.answer.refused)),
    falseRefusals: rate(answered.filter((s) => s.answerable).map((s) => s.answer.refused)),
    promptTokens: {
      estimated: mean(answers.map((a) => a.estimatedTokens).filter(notNull)),
      reported: mean(answers.map((a) => a.reportedTokens).filter(notNull)),
      exact: rate(answers.filter((a) => a.estimatedTokens !== null).map((a) => a.exactTokens)),
    },
    truncations: answers.length === 0 ? null : answers.filter((a) => a.truncated).length,
    latencyMs: {
      retrieve: { p50: percentileNearestRank(retrieveMs, 50), p95: percentileNearestRank(retrieveMs, 95) },
      generate: { p50: percentileNearestRank(generateMs, 50), p95: percentileNearestRank(generateMs, 95) },
    },
    tokensPerSecond: mean(answers.map((a) => a.tokensPerSecond).filter(notNull)),
    changedAcrossRepeats:
      repeatedIds.length === 0 ? null : repeatedIds.filter((id) => (textsById.get(id)?.size ?? 0) > 1).length,
  };
}
