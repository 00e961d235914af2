import { describe, expect, it } from 'vitest';
import { checkCitations, SUPPORTED_OVERLAP, WEAK_OVERLAP, type SourceForCheck } from './citations';

const A = '3f2a9c1b0d4e#12';
const B = '0a1b2c3d4e5f#3';
const C = '99aa88bb77cc#0';

const SOURCES: SourceForCheck[] = [
  {
    chunkId: A,
    headingPath: 'Security > Key rotation',
    text: 'API keys are rotated every 90 days. The old key stays valid for 24 hours after rotation. ' +
      'Set `key_rotation_days` in config.yaml to change the interval. The audit log records "rotation completed" for each key.',
  },
  {
    chunkId: B,
    headingPath: 'Limits',
    text: 'Each token allows 1,000 requests per hour. Use Vec::with_capacity and getUserName() in the client. Version 2.4.1 raised the limit.',
  },
  { chunkId: C, headingPath: 'Cooking', text: 'Tomatoes grow best in warm soil with plenty of compost.' },
];

/** The single check of a one-sentence answer citing `ids`. */
function checkOne(sentence: string, ...ids: string[]) {
  const report = checkCitations(`${sentence} ${ids.map((id) => `[${id}]`).join('')}`, SOURCES);
  const checks = [...new Set(report.citations.map((c) => c.check))];
  expect(checks).toHaveLength(1);
  const c = report.citations[0]!;
  return { check: c.check, missing: c.missing, flags: report.flags };
}

describe('checkCitations: hard facts', () => {
  it.each([
    // [sentence, ids, expected check, expected missing]
    ['API keys are rotated every 90 days.', [A], 'supported', []],
    ['API keys are rotated every 60 days.', [A], 'unsupported', ['60']], // the wrong number is the whole claim
    ['API keys are rotated every ninety days.', [A], 'supported', []],
    ['The old key stays valid for 24 hours after 90 days.', [A], 'supported', []],
    ['The old key stays valid for 48 hours after 90 days.', [A], 'weak', ['48']], // 1 of 2 missing: weak
    ['The old key stays valid for 48 hours after 30 days.', [A], 'unsupported', ['48', '30']],
    ['Each token allows 1000 requests per hour.', [B], 'supported', []],
    ['Each token allows 1,000 requests per hour.', [B], 'supported', []],
    ['Each token allows 10,000 requests per hour.', [B], 'unsupported', ['10,000']],
    ['Version 2.4.1 raised the limit.', [B], 'supported', []],
    ['Version 2.4.2 raised the limit.', [B], 'unsupported', ['2.4.2']],
    // Identifiers: backticked, snake_case, path::, camelCase, file names.
    ['Set `key_rotation_days` in config.yaml to change the interval.', [A], 'supported', []],
    ['Set `key_rotation_hours` in config.yaml to change the interval.', [A], 'weak', ['`key_rotation_hours`']],
    ['Set key_rotation_hours in settings.toml to change the interval.', [A], 'unsupported', ['key_rotation_hours', 'settings.toml']],
    ['Use Vec::with_capacity and getUserName() in the client.', [B], 'supported', []],
    ['Use Vec::with_capacity and getUserId() in the client.', [B], 'weak', ['getUserId']],
    // Quotes must appear (case, curly quotes and punctuation aside).
    ['The audit log records "rotation completed" for each key.', [A], 'supported', []],
    ['The audit log records \u201CRotation completed.\u201D for each key.', [A], 'supported', []],
    ['The audit log records "key rotated" for each key.', [A], 'unsupported', ['"key rotated"']],
  ] as const)('%s', (sentence, ids, check, missing) => {
    const got = checkOne(sentence, ...ids);
    expect(got.check).toBe(check);
    expect(got.missing).toEqual(missing);
    expect(got.flags.includes('unsupported-citation')).toBe(check === 'unsupported');
  });

  it('checks against the union of the cited chunks', () => {
    const sentence = 'API keys are rotated every 90 days and each token allows 1,000 requests per hour.';
    expect(checkOne(sentence, A).missing).toEqual(['1,000']);
    expect(checkOne(sentence, A, B)).toEqual({ check: 'supported', missing: [], flags: [] });
  });

  it('counts the heading path as evidence', () => {
    expect(checkOne('Key rotation is a security topic.', A).check).toBe('supported');
  });
});

describe('checkCitations: content-word overlap', () => {
  it('has ordered thresholds', () => {
    expect(WEAK_OVERLAP).toBeLessThan(SUPPORTED_OVERLAP);
  });

  it.each([
    // content words, stemmed (key, rotat, old, stay, valid, rotation): all in chunk A
    ['Keys are rotated, and the old key stays valid after a rotation.', 'supported', 1],
    // "keys rotat" found; "expire", "quick", "insecure" not: 2/5
    ['Keys rotate and expire quickly when insecure.', 'weak', 0.4],
    // nothing in common with the gardening chunk
    ['API keys are rotated regularly.', 'unsupported', 0],
  ] as const)('%s', (sentence, check, overlap) => {
    const cite = check === 'unsupported' ? C : A;
    const report = checkCitations(`${sentence} [${cite}]`, SOURCES);
    expect(report.citations[0]?.check).toBe(check);
    expect(report.citations[0]?.overlap).toBeCloseTo(overlap, 5);
  });

  it('ignores the filler a model puts around a claim', () => {
    expect(checkOne('According to your notes, the documents say API keys are rotated.', A).check).toBe('supported');
  });
});

describe('checkCitations: report', () => {
  it('reports forged ids as unknown-source and never uses them as evidence', () => {
    const report = checkCitations(`Keys rotate every 90 days [deadbeef0000#99]. Tokens allow 1,000 requests [${B}].`, SOURCES);
    expect(report.citations.map((c) => [c.chunkId, c.check])).toEqual([
      ['deadbeef0000#99', 'unknown-source'],
      [B, 'supported'],
    ]);
    expect(report.flags).toEqual(['unknown-source']);
  });

  it('flags an answer whose only citations are unknown as uncited too', () => {
    expect(checkCitations('Keys rotate every 90 days [notes.md#3].', SOURCES).flags).toEqual(['uncited', 'unknown-source']);
  });

  it('flags an answer without citations, but not the refusal', () => {
    expect(checkCitations('Keys rotate every 90 days.', SOURCES).flags).toEqual(['uncited']);
    expect(checkCitations('', SOURCES).flags).toEqual(['uncited']);
    expect(checkCitations('Not in the documents.', SOURCES)).toEqual({
      citations: [],
      flags: [],
      sentences: [{ text: 'Not in the documents.', cited: [] }],
    });
  });

  it('resolves an upper-cased id to the source id', () => {
    const report = checkCitations(`API keys are rotated every 90 days [${A.toUpperCase()}].`, SOURCES);
    expect(report.citations.map((c) => [c.chunkId, c.check])).toEqual([[A, 'supported']]);
  });

  it('checks every sentence a paragraph-final citation applies to, and lists all sentences', () => {
    const report = checkCitations(`API keys are rotated every 90 days. The old key stays valid for 48 hours. [${A}]\n\nAsk your admin.`, SOURCES);
    expect(report.citations.map((c) => [c.sentenceIndex, c.check, c.missing])).toEqual([
      [0, 'supported', []],
      [1, 'unsupported', ['48']],
    ]);
    expect(report.sentences).toEqual([
      { text: 'API keys are rotated every 90 days.', cited: [A] },
      { text: 'The old key stays valid for 48 hours.', cited: [A] },
      { text: 'Ask your admin.', cited: [] },
    ]);
    expect(report.flags).toEqual(['unsupported-citation']);
  });

  it('gives each cited id of a sentence the verdict of the union, and unknown ids their own', () => {
    const report = checkCitations(`API keys are rotated every 90 days [${A}][${B}][abcabcabcabc#1].`, SOURCES);
    expect(report.citations.map((c) => [c.chunkId, c.check])).toEqual([
      [A, 'supported'],
      [B, 'supported'],
      ['abcabcabcabc#1', 'unknown-source'],
    ]);
  });
});
