import { describe, expect, it } from 'vitest';
import { changedWords, wordDiff, type DiffPiece } from './word-diff';

const joined = (pieces: DiffPiece[], keep: 'text' | 'baseline') => pieces.filter((p) => p.op === 'same' || p.op === (keep === 'text' ? 'added' : 'removed')).map((p) => p.text).join('');

describe('wordDiff', () => {
  it('marks the replaced word as removed then added, keeping the rest', () => {
    expect(wordDiff('keys rotate every 90 days', 'keys rotate every 30 days')).toEqual([
      { op: 'same', text: 'keys rotate every ' },
      { op: 'removed', text: '90 ' },
      { op: 'added', text: '30 ' },
      { op: 'same', text: 'days' },
    ]);
  });

  it('finds the longest common subsequence, not just a common prefix', () => {
    const d = wordDiff('a b c d e', 'x a c e y');
    expect(d.filter((p) => p.op === 'same').map((p) => p.text.trim())).toEqual(['a', 'c', 'e']);
    expect(d.filter((p) => p.op === 'removed').map((p) => p.text.trim())).toEqual(['b', 'd']);
    expect(d.filter((p) => p.op === 'added').map((p) => p.text.trim())).toEqual(['x', 'y']);
    expect(changedWords(d)).toBe(4);
  });

  it('gives the text back exactly (whitespace and line breaks included) and the baseline word for word', () => {
    const base = '  The keys\nare rotated  every 90 days.';
    const text = 'The deploy keys\n\nare rotated every 90 days. Always.';
    const d = wordDiff(base, text);
    expect(joined(d, 'text')).toBe(text);
    expect(joined(d, 'baseline').split(/\s+/).filter(Boolean)).toEqual(base.split(/\s+/).filter(Boolean));
    expect(d.filter((p) => p.op !== 'same').map((p) => p.text.trim())).toEqual(['deploy', 'Always.']);
  });

  it('handles empty texts and identical texts', () => {
    expect(wordDiff('', '')).toEqual([]);
    expect(wordDiff('', 'new words')).toEqual([{ op: 'added', text: 'new words' }]);
    expect(wordDiff('old words', '')).toEqual([{ op: 'removed', text: 'old words' }]);
    expect(wordDiff('same text', 'same text')).toEqual([{ op: 'same', text: 'same text' }]);
    expect(changedWords(wordDiff('same text', 'same text'))).toBe(0);
  });

  it('compares words exactly (case and punctuation count)', () => {
    expect(wordDiff('Days.', 'days.').map((p) => p.op)).toEqual(['removed', 'added']);
  });
});
