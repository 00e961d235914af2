import { describe, expect, it } from 'vitest';
import { countTokens } from '../../text/tokenizer';
import { chunkViolations } from './invariants';
import type { Chunk } from './types';

const input = { text: 'alpha beta\n\ngamma delta\n  indented', title: 'T', firstLine: 3 };
const good: Chunk = { ordinal: 0, headingPath: 'T', text: 'gamma delta', tokenCount: 4, startLine: 5, endLine: 5 };

describe('chunkViolations', () => {
  it('accepts a correct chunk', () => {
    expect(countTokens('T\n\ngamma delta')).toBe(4);
    expect(chunkViolations(input, [good])).toEqual([]);
    const indented = { ...good, text: '  indented', startLine: 6, endLine: 6, tokenCount: countTokens('T\n\n  indented') };
    expect(chunkViolations(input, [indented])).toEqual([]);
  });

  it.each<[string, Partial<Chunk>, RegExp]>([
    ['ordinal', { ordinal: 1 }, /ordinal/],
    ['lines', { startLine: 3, endLine: 3 }, /lines 3-3 but text sits at 5-5/],
    ['not a substring', { text: 'gamma  delta' }, /not a substring/],
    ['token count', { tokenCount: 5 }, /tokenCount 5, actual 4/],
    ['whitespace only', { text: '\n\n' }, /whitespace-only/],
    ['leading space mid-line', { text: ' beta', startLine: 3, endLine: 3 }, /leading whitespace/],
    ['empty path', { headingPath: '' }, /empty headingPath/],
  ])('reports a wrong %s', (_, change, message) => {
    expect(chunkViolations(input, [{ ...good, ...change }]).join('\n')).toMatch(message);
  });

  it('reports limits', () => {
    expect(chunkViolations(input, [good], { maxTokens: 3 })).toEqual(['chunk 0: 4 tokens > 3']);
    expect(chunkViolations(input, [good], { maxChars: 5 })).toEqual(['chunk 0: 11 chars > 5']);
  });
});
