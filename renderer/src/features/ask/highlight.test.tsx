import { describe, expect, it } from 'vitest';
import { bestLines } from './highlight';

// The Rust book, ch10-03 lines 68–72 as the source panel showed them: the cited sentence wraps
// from the third line onto the fourth.
const LINES = [
  '### The Borrow Checker',
  '',
  'The Rust compiler has a _borrow checker_ that compares scopes to determine',
  'whether all borrows are valid. Listing 10-17 shows the same code as Listing',
  '10-16 but with annotations showing the lifetimes of the variables.',
];
const SENTENCE = 'The Rust compiler has a _borrow checker_ that compares scopes to determine whether all borrows are valid.';

describe('bestLines', () => {
  it('marks every line a wrapped sentence runs over, not only the line with most of its words', () => {
    expect(bestLines(LINES, SENTENCE)).toEqual([2, 3]);
  });

  it('stops at the sentence: a neighbour adding none of its missing words stays unmarked', () => {
    expect(bestLines(LINES, 'Listing 10-17 shows the same code as Listing 10-16.')).toEqual([3, 4]);
    expect(bestLines(['Keys rotate every 90 days.', 'Rotation is logged in the audit channel.'], 'Keys rotate every 90 days.')).toEqual([0]);
  });

  it('marks nothing when no line shares a word with the sentence', () => {
    expect(bestLines(LINES, 'Completely unrelated prose.')).toEqual([]);
    expect(bestLines(LINES, null)).toEqual([]);
  });
});
