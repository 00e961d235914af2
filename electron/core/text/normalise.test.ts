import { describe, expect, it } from 'vitest';
import { collapseWhitespace, normaliseText } from './normalise';

describe('normaliseText', () => {
  // Each input differs between NFC (what eval/metrics.ts used) and NFKC (what the citation check
  // used), so the two old normalisers disagreed on every row.
  const compatibility: Array<[string, string]> = [
    ['Rotate every ９０ days', 'rotate every 90 days'],
    ['the ﬁle is ﬂushed', 'the file is flushed'],
    ['x² + 10³', 'x2 + 103'],
    ['ＡＰＩ key', 'api key'],
    ['½ cup', '1⁄2 cup'],
  ];

  it.each(compatibility)('folds compatibility characters with NFKC: %j → %j', (input, expected) => {
    expect(input.normalize('NFC')).not.toBe(input.normalize('NFKC'));
    expect(normaliseText(input)).toBe(expected);
  });

  it('lower-cases and collapses whitespace, trimmed (what fact matching relied on)', () => {
    expect(normaliseText('  Reminder:  EVERY  90\n\t days. ')).toBe('reminder: every 90 days.');
  });

  it('drops hidden characters, straightens quotes and joins thousands separators', () => {
    expect(normaliseText('pass\u200Bword')).toBe('password');
    expect(normaliseText('\u201CQuoted\u201D don\u2019t')).toBe('"quoted" don\'t');
    expect(normaliseText('1,000,000 and 1\u00A0000 but 1,2,3')).toBe('1000000 and 1000 but 1,2,3');
  });

  it('collapseWhitespace keeps case and characters', () => {
    expect(collapseWhitespace('  A\u00A0 ９０\n B ')).toBe('A ９０ B');
  });
});
