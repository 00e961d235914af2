import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOUNDS } from '../../../shared/settings';
import { openDatabase, type Db } from '../db/open';
import { writeSyntheticDocument } from '../../../test/support/synthetic-index';
import { PASSAGE_TOKENS, toPassages } from './passages';

// Chunks of exactly the smallest chunk size (the synthetic writer counts a token per 4 characters),
// all in one section twice as long as a passage.
const smallest = (i: number) => `c${String(i).padStart(3, '0')} `.padEnd(BOUNDS.chunkTokens.min * 4, 'x');
const count = (2 * PASSAGE_TOKENS) / BOUNDS.chunkTokens.min;

describe('toPassages at the smallest chunk size', () => {
  let db: Db;
  let rowids: number[];
  beforeEach(() => {
    db = openDatabase(':memory:');
    rowids = writeSyntheticDocument(db, '/notes', { relPath: 'long.md', chunks: Array.from({ length: count }, (_, i) => smallest(i)) }, null);
  });
  afterEach(() => db.close());

  const tokensOf = (ids: readonly number[]) => db.prepare(`SELECT sum(token_count) FROM chunks WHERE rowid IN (${ids.join(',')})`).pluck().get() as number;

  it('a hit at the end of a long section still grows to PASSAGE_TOKENS, all of it before the hit', () => {
    const hit = rowids[rowids.length - 1]!;
    const passage = toPassages(db, [hit], 1)[0]!;
    expect(passage.rowids[passage.rowids.length - 1]).toBe(hit);
    expect(tokensOf(passage.rowids)).toBe(PASSAGE_TOKENS);
  });

  it('a hit at the start of a long section grows to PASSAGE_TOKENS after it', () => {
    const hit = rowids[0]!;
    const passage = toPassages(db, [hit], 1)[0]!;
    expect(passage.rowids[0]).toBe(hit);
    expect(tokensOf(passage.rowids)).toBe(PASSAGE_TOKENS);
  });
});
