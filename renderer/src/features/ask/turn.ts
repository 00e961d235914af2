import type { AnswerResult, AskStep, Budget, Candidate, HistoryTurn } from '../../common/types';
import type { DescribedError } from '../../api/messages';
import { keepsTurn } from '../../../../shared/conversations';

/** One question and its (possibly still streaming) answer. */
export interface Turn {
  id: number;
  question: string;
  jobId: string | null;
  text: string;
  standaloneQuery: string | null;
  candidates: Candidate[];
  mode: AnswerResult['retrievalMode'] | null;
  note: string | null;
  budget: Budget | null;
  result: AnswerResult | null;
  error: DescribedError | null;
  running: boolean;
  /** What the answer is waiting for while it lasts (a model's vocabulary fetched once), else null. */
  waiting?: string | null;
  /** A stored turn whose answer was deleted (with a forgotten folder it quoted): only the question is left. */
  removed?: boolean;
}

export function newTurn(id: number, question: string): Turn {
  return { id, question, jobId: null, text: '', standaloneQuery: null, candidates: [], mode: null, note: null, budget: null, result: null, error: null, running: true };
}

/** A turn after one step of its answer stream. */
export function applyAskStep(turn: Turn, e: AskStep): Turn {
  switch (e.type) {
    case 'rewrite':
      return { ...turn, standaloneQuery: e.standaloneQuery };
    case 'retrieval':
      return { ...turn, candidates: e.candidates, mode: e.mode, note: e.note, waiting: null };
    case 'budget':
      return { ...turn, budget: e.budget, waiting: null };
    case 'token':
      return { ...turn, text: turn.text + e.text, waiting: null };
    case 'waiting':
      return { ...turn, waiting: e.note };
  }
}

/** A turn once its job has ended: the result (when the engine made one) and the error, if any. */
export function finishTurn(turn: Turn, result: AnswerResult | null, error: DescribedError | null): Turn {
  if (!result) return { ...turn, running: false, error };
  return {
    ...turn,
    running: false,
    result,
    error,
    // The final answer is authoritative (the stream may have been cut short).
    text: result.answer || turn.text,
    budget: result.budget ?? turn.budget,
    candidates: result.retrieval.length > 0 ? result.retrieval : turn.candidates,
    mode: result.retrievalMode ?? turn.mode,
    standaloneQuery: result.standaloneQuery ?? turn.standaloneQuery,
  };
}

/**
 * A turn that ended without an answer to keep: failed (Ollama gone, a prompt that does not fit) or
 * stopped. Its question is not part of the stored conversation, so it can be asked again.
 */
export function unanswered(turn: Turn): boolean {
  return !turn.running && !turn.removed && (turn.result === null || !keepsTurn(turn.result));
}

const MAX_HISTORY = 50;

/** Previous finished exchanges, as the `history` of a follow-up question. */
export function historyOf(turns: readonly Turn[]): HistoryTurn[] {
  return turns
    .filter((t) => t.result !== null && keepsTurn(t.result))
    .slice(-MAX_HISTORY)
    .map((t) => ({ question: t.question.slice(0, 4000), answer: (t.result?.answer ?? '').slice(0, 20_000) }));
}
