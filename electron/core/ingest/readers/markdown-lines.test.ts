import { describe, expect, it } from 'vitest';
import { parseOutline } from '../chunkers/markdown';
import { asTextLine, fenceAround, fenceFor, longestBacktickRun } from './markdown-lines';

describe('lines of another format written as Markdown text', () => {
  it('escapes exactly the lines the chunkers would read as a heading or a fence', () => {
    const looks = ['# a', '   ## b', '###### c', '#', '```bash', '~~~~~~', '  ```'];
    const plain = ['#. item', '####### seven', '    # four spaces in', '\t# tab', '#hashtag', '``code``', '~~strike~~', 'text # not at the start'];
    for (const line of looks) expect(parseOutline(asTextLine(line), 'T').blocks.map((b) => b.kind)).toEqual(['text']);
    expect(looks.map(asTextLine)).toEqual(['\\# a', '   \\## b', '\\###### c', '\\#', '\\```bash', '\\~~~~~~', '  \\```']);
    expect(plain.map(asTextLine)).toEqual(plain);
  });

  it('makes a fence longer than any backtick run that begins a line of the code', () => {
    expect(fenceFor(['plain', 'code'])).toBe('```');
    expect(fenceFor(['```js', 'x', '   ````', 'y ``````'])).toBe('`````');
  });

  it('measures backtick runs anywhere in a text, for fences and code spans around it', () => {
    expect(longestBacktickRun('no ticks')).toBe(0);
    expect(longestBacktickRun('a `b` ``c`` d ````')).toBe(4);
    expect(fenceAround('x')).toBe('```');
    expect(fenceAround('mid ````` line')).toBe('``````');
  });
});
