import { describe, expect, it } from 'vitest';
import { answerResult } from '../../test/harness';
import { saveAsTestInput } from './save-test';
import type { Citation } from '../../common/types';

const cite = (chunkId: string, check: Citation['check'], sentence: string): Citation => ({ chunkId, path: 'a.md', lines: [1, 2], pages: null, sentence, check, missing: [] });

describe('saveAsTestInput', () => {
  it('uses the first supported citation, even when a weaker one comes first', () => {
    const r = answerResult({ question: 'q', citations: [cite('d#1', 'weak', 'Weak one.'), cite('d#2', 'supported', 'Keys rotate every 90 days.')] });
    expect(saveAsTestInput('How often?', r)).toEqual({ expect: 'fact', question: 'How often?', chunkId: 'd#2', sentence: 'Keys rotate every 90 days.' });
  });

  it('falls back to the first citation of a passage that was sent', () => {
    const r = answerResult({ citations: [cite('x#9', 'unknown-source', 'Made up.'), cite('d#3', 'unsupported', 'Not backed.')] });
    expect(saveAsTestInput('Q?', r)).toEqual({ expect: 'fact', question: 'Q?', chunkId: 'd#3', sentence: 'Not backed.' });
  });

  it('saves a refusal as a refusal, and a follow-up as its standalone question', () => {
    expect(saveAsTestInput('Wifi?', answerResult({ status: 'refused', refused: true }))).toEqual({ expect: 'refusal', question: 'Wifi?' });
    expect(saveAsTestInput('And the rollback?', answerResult({ status: 'refused', refused: true, standaloneQuery: 'How long do old keys stay valid?' }))).toEqual({
      expect: 'refusal',
      question: 'How long do old keys stay valid?',
    });
  });

  it('offers nothing for an answer without usable citations, an error or a cancelled answer', () => {
    expect(saveAsTestInput('Q?', answerResult({ citations: [] }))).toBeNull();
    expect(saveAsTestInput('Q?', answerResult({ citations: [cite('x#1', 'unknown-source', 's')] }))).toBeNull();
    expect(saveAsTestInput('Q?', answerResult({ status: 'error', citations: [cite('d#1', 'supported', 's')] }))).toBeNull();
    expect(saveAsTestInput('Q?', answerResult({ status: 'cancelled', citations: [cite('d#1', 'supported', 's')] }))).toBeNull();
  });
});
