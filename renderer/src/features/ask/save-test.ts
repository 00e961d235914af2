import type { Input } from '../../../../shared/contract';
import type { AnswerResult } from '../../common/types';

export type SaveAsTestInput = Input<'saveAsTest'>;

/**
 * What "Save as test" sends for a finished answer: a refusal becomes an unanswerable question; an
 * answer becomes a fact expectation from its first supported citation, else its first citation of
 * a passage that was sent. A follow-up is saved as its standalone form, since an evaluation asks
 * without history. null when there is nothing to base a test on.
 */
export function saveAsTestInput(question: string, result: AnswerResult): SaveAsTestInput | null {
  const q = (result.standaloneQuery ?? question).trim();
  if (!q) return null;
  if (result.status === 'refused' || (result.status === 'answered' && result.refused)) return { expect: 'refusal', question: q };
  if (result.status !== 'answered') return null;
  const cited = result.citations.find((c) => c.check === 'supported') ?? result.citations.find((c) => c.check !== 'unknown-source');
  if (!cited) return null;
  return { expect: 'fact', question: q, chunkId: cited.chunkId, sentence: cited.sentence.slice(0, 4000) };
}
