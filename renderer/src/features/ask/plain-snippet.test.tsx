import { describe, expect, it } from 'vitest';
import { plainSnippet } from '../../../../shared/plain-snippet';
import { markQueryWords } from './query-marks';

describe('plainSnippet', () => {
  it('drops Markdown syntax: fences, table rules, breaks, emphasis, link targets, escapes', () => {
    const md = '```sh\nquire status\n```\n| Key | Days |\n| --- | ---: |\n| deploy | 90 |\n\n---\n1. Run __this__ ~~not that~~\n- [x] done \\*really\\*\n![diagram](d.png) <https://example.com>';
    expect(plainSnippet(md)).toBe('quire status\nKey · Days\ndeploy · 90\n\n1. Run this not that\n☑ done *really*\ndiagram https://example.com');
  });

  it("keeps a task's state, done or not, in bulleted and numbered lists", () => {
    expect(plainSnippet('- [x] Email Marta\n- [ ] Renew passport #admin\n  * [X] nested\n1. [ ] first\n2) [x] second\n- plain [ ] item')).toBe(
      '☑ Email Marta\n☐ Renew passport #admin\n  ☑ nested\n1. ☐ first\n2) ☑ second\n• plain [ ] item',
    );
  });

  it('leaves what is not clearly syntax as written: snake_case, arithmetic, a lone #', () => {
    expect(plainSnippet('Set max_chunk_tokens to 2 * 3 * 40.\nIssue #12 is open.')).toBe('Set max_chunk_tokens to 2 * 3 * 40.\nIssue #12 is open.');
  });
});

describe('markQueryWords', () => {
  it('marks whole words only, by a rough stem, never a longer word that merely starts alike', () => {
    const pieces = markQueryWords('The keyboard keys, rotated daily.', 'key rotate');
    expect(pieces.filter((p) => p.mark).map((p) => p.text)).toEqual(['keys', 'rotated']);
    expect(pieces.map((p) => p.text).join('')).toBe('The keyboard keys, rotated daily.');
  });

  it('marks nothing for a query of stop words only', () => {
    expect(markQueryWords('the and of', 'the of')).toEqual([{ text: 'the and of', mark: false }]);
  });
});
