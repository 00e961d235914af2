import { describe, expect, it } from 'vitest';
import { countTokens } from '../../text/tokenizer';
import { chunkDocument, contextualText } from './index';
import { chunkViolations } from './invariants';
import { parseOutline } from './markdown';
import type { Chunk, ChunkInput } from './types';

const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau'.split(' ');

/** Prose of exactly about `n` tokens (within a word): sentences of six words. */
function prose(n: number, seed = 0): string {
  const out: string[] = [];
  let tokens = 0;
  for (let i = 0; tokens < n; i++) {
    const word = WORDS[(i * 7 + seed) % WORDS.length]!;
    const piece = i % 6 === 5 ? `${word}.` : i % 6 === 0 ? word[0]!.toUpperCase() + word.slice(1) : word;
    out.push(piece);
    tokens += countTokens(` ${piece}`);
  }
  return out.join(' ');
}

function heading(input: ChunkInput, maxTokens: number): Chunk[] {
  const chunks = chunkDocument(input, { kind: 'heading', maxTokens });
  expect(chunkViolations(input, chunks, { maxTokens })).toEqual([]);
  return chunks;
}

/** Offset of each chunk's text in the input, found in order. */
function offsets(text: string, chunks: Chunk[]): number[] {
  let from = 0;
  return chunks.map((c) => {
    const at = text.indexOf(c.text, from);
    expect(at).toBeGreaterThanOrEqual(0);
    from = at + 1;
    return at;
  });
}

describe('heading chunker', () => {
  it('gives no chunks for empty or whitespace-only text', () => {
    for (const text of ['', '   ', '\n\n\t\n', '\r\n \r\n']) {
      expect(chunkDocument({ text, title: 'T', firstLine: 1 })).toEqual([]);
    }
  });

  it('keeps a document without headings under its title', () => {
    const text = 'Just some text.\n\nAnother paragraph.\n';
    const chunks = heading({ text, title: 'Note', firstLine: 1 }, 256);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ ordinal: 0, headingPath: 'Note', text: text.trim(), startLine: 1, endLine: 3 });
    expect(chunks[0]!.tokenCount).toBe(countTokens(`Note\n\n${text.trim()}`));
  });

  it('emits a heading-only document as one chunk', () => {
    expect(heading({ text: '# Note\n', title: 'Note', firstLine: 1 }, 256)).toMatchObject([
      { headingPath: 'Note', text: '# Note', startLine: 1, endLine: 1 },
    ]);
    expect(heading({ text: '## Only', title: 'T', firstLine: 1 }, 256)).toMatchObject([
      { headingPath: 'T > Only', text: '## Only' },
    ]);
  });

  it('builds nested heading paths and does not repeat a first H1 equal to the title', () => {
    const body = (i: number) => prose(100, i);
    const text = [
      '# Guide', body(1), '## Install', body(2), '### Linux', body(3), '### Mac', body(4),
      '## Use', body(5), '# Appendix', body(6), '### Deep', body(7), '## Extra', prose(60, 8), '#### Minor', 'Minor detail.',
    ].join('\n\n');
    const chunks = heading({ text, title: 'Guide', firstLine: 1 }, 128);
    expect(chunks.map((c) => c.headingPath)).toEqual([
      'Guide',
      'Guide > Install',
      'Guide > Install > Linux',
      'Guide > Install > Mac',
      'Guide > Use',
      'Guide > Appendix',
      'Guide > Appendix > Deep',
      'Guide > Appendix > Extra',
    ]);
    // The heading line belongs to its section, and level 4 stays in the body.
    expect(chunks[2]!.text.startsWith('### Linux\n\n')).toBe(true);
    expect(chunks[7]!.text).toContain('#### Minor');
  });

  it('uses the front-matter title and keeps a different first H1 under it', () => {
    const text = `# Other Heading\n\n${prose(150)}\n\n## Sub\n\n${prose(150, 3)}`;
    const chunks = heading({ text, title: 'Front Title', firstLine: 4 }, 180);
    expect(chunks.map((c) => c.headingPath)).toEqual(['Front Title > Other Heading', 'Front Title > Other Heading > Sub']);
    expect(chunks[0]!.startLine).toBe(4);
  });

  it('compares the first H1 with the title ignoring case, and only the first H1', () => {
    const text = `# my note\n\n${prose(150)}\n\n# My Note\n\n${prose(150, 2)}`;
    const chunks = heading({ text, title: 'My Note', firstLine: 1 }, 180);
    expect(chunks.map((c) => c.headingPath)).toEqual(['My Note', 'My Note > My Note']);
  });

  it('does not treat # lines inside fences as headings', () => {
    const text = [
      '## Code',
      '```sh',
      '# comment, not a heading',
      '## nor this',
      '```',
      '~~~~',
      '### still code',
      '~~~',
      '# tilde fence needs four to close',
      '~~~~',
      'after',
    ].join('\n');
    const chunks = heading({ text, title: 'T', firstLine: 1 }, 256);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ headingPath: 'T > Code', text, startLine: 1, endLine: 11 });
  });

  it('knows a fence opened on a list item’s marker line, and its indented closing fence', () => {
    const text = [
      '## Install',
      '1. ```bash',
      '   # fetch the sources',
      '   git clone x',
      '   ```',
      '10. ```sh',
      '    # build',
      '    ```',
      '- ~~~',
      '  ## still code',
      '  ~~~',
      '## Use',
      'Run it.',
    ].join('\n');
    const outline = parseOutline(text, 'T');
    expect(outline.headings.map((h) => h.path.join(' > '))).toEqual(['T > Install', 'T > Use']);
    expect(outline.blocks.filter((b) => b.kind === 'fence').map((b) => text.slice(b.start, b.end).split('\n').length)).toEqual([4, 3, 3]);
  });

  it('closes a list item’s fence indented with a tab, counted to its stop as CommonMark does', () => {
    const paths = (lines: string[]) => parseOutline(lines.join('\n'), 'T').headings.map((h) => h.path.join(' > '));
    // Content at column 4 after "1.\t" and "-   "; a tab-indented closing fence is at column 4 too.
    expect(paths(['## A', '1.\t```bash', '\t# fetch', '\t```', '## B', 'Run it.'])).toEqual(['T > A', 'T > B']);
    expect(paths(['## A', '-   ```bash', '    # fetch', '\t```', '## B'])).toEqual(['T > A', 'T > B']);
    // Past 3 columns beyond the item's content a fence line is code, tab or spaces.
    expect(paths(['## A', '- ```', '  # x', '\t\t```', '## hidden', '  ```', '## B'])).toEqual(['T > A', 'T > B']);
  });

  it('takes a marker followed by 5 or more columns of space for indented code, not a fence', () => {
    // CommonMark: "-     ```" is a list item holding the indented code "```"; the "```" below opens a fence.
    const text = ['## A', '-     ```', '      not code', '## B', 'text', '```', '## in the fence', '```', '## C'].join('\n');
    expect(parseOutline(text, 'T').headings.map((h) => h.path.join(' > '))).toEqual(['T > A', 'T > B', 'T > C']);
  });

  it('does not take a list item’s text with backticks inside for a fence', () => {
    const text = ['## A', '- ```not a fence``` but code', '# B', 'text'].join('\n');
    expect(parseOutline(text, 'T').headings.map((h) => h.path.join(' > '))).toEqual(['T > A', 'T > B']);
  });

  it('runs an unterminated fence to the end of the document', () => {
    const code = Array.from({ length: 40 }, (_, i) => `# line ${i} of a shell script`).join('\n');
    const text = `## A\n\nIntro.\n\n\`\`\`bash\n${code}\n## not a section\n${code}\n`;
    const chunks = heading({ text, title: 'T', firstLine: 1 }, 64);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.headingPath).toBe('T > A');
  });

  it('splits a fence larger than the budget at line boundaries only', () => {
    const lines = Array.from({ length: 80 }, (_, i) => `    value_${i} = compute(${i}, "x")  # step ${i}`);
    const text = `## Big\n\n\`\`\`python\n${lines.join('\n')}\n\`\`\`\n`;
    const chunks = heading({ text, title: 'T', firstLine: 1 }, 64);
    expect(chunks.length).toBeGreaterThan(5);
    offsets(text, chunks).forEach((at, i) => {
      const chunk = chunks[i]!;
      const end = at + chunk.text.length;
      // Starts at a line start (indentation kept) and ends at a line end.
      expect(at === 0 || text[at - 1] === '\n').toBe(true);
      expect(end === text.length || text[end] === '\n').toBe(true);
    });
  });

  it('never cuts a fence that fits, even when its section must be split', () => {
    const fence = ['```js', ...Array.from({ length: 8 }, (_, i) => `const v${i} = ${i} * 2;`), '```'].join('\n');
    const text = `## S\n\n${prose(60)}\n\n${fence}\n\n${prose(60, 5)}\n\n${prose(60, 9)}`;
    const maxTokens = 100;
    expect(countTokens(`T > S\n\n${fence}`)).toBeLessThan(maxTokens);
    const chunks = heading({ text, title: 'T', firstLine: 1 }, maxTokens);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.filter((c) => c.text.includes(fence))).toHaveLength(1);
  });

  it('packs small consecutive sections under their deepest common path', () => {
    const text = '## A\n\nOne.\n\n### A1\n\nTwo.\n\n### A2\n\nThree.\n\n## B\n\nFour.';
    const packed = heading({ text, title: 'T', firstLine: 1 }, 256);
    expect(packed).toHaveLength(1);
    expect(packed[0]).toMatchObject({ headingPath: 'T', text, startLine: 1, endLine: 15 });

    const sub = heading({ text: '## A\n\nOne.\n\n### A1\n\nTwo.\n\n### A2\n\nThree.', title: 'T', firstLine: 1 }, 256);
    expect(sub.map((c) => c.headingPath)).toEqual(['T > A']);

    const siblings = heading({ text: '### X\n\nOne.\n\n### Y\n\nTwo.', title: 'T', firstLine: 1 }, 256);
    expect(siblings.map((c) => c.headingPath)).toEqual(['T']);
  });

  it('packs sections up to the budget, whole sections only', () => {
    const sections = Array.from({ length: 6 }, (_, i) => `## S${i}\n\n${prose(70, i)}`);
    const text = sections.join('\n\n');
    const chunks = heading({ text, title: 'T', firstLine: 1 }, 256);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.length).toBeLessThan(6);
    const rejoined = chunks.map((c) => c.text).join('\n\n');
    expect(rejoined).toBe(text);
    for (const c of chunks) expect(c.text.startsWith('## S')).toBe(true);
  });

  it('splits a long section at paragraphs first', () => {
    const paragraphs = Array.from({ length: 8 }, (_, i) => prose(40, i));
    const text = `## P\n\n${paragraphs.join('\n\n')}`;
    const chunks = heading({ text, title: 'T', firstLine: 1 }, 128);
    expect(chunks.length).toBeGreaterThan(2);
    offsets(text, chunks).forEach((at, i) => {
      const end = at + chunks[i]!.text.length;
      expect(end === text.length || text.startsWith('\n\n', end)).toBe(true);
    });
  });

  it('splits a long paragraph at sentence ends, then words, then by tokens', () => {
    const sentences = heading({ text: prose(600), title: 'T', firstLine: 1 }, 48);
    expect(sentences.length).toBeGreaterThan(10);
    for (const c of sentences) expect(c.text).toMatch(/\.$/);

    const words = Array.from({ length: 400 }, (_, i) => WORDS[i % WORDS.length]).join(' ');
    const byWord = heading({ text: words, title: 'T', firstLine: 1 }, 24);
    expect(byWord.length).toBeGreaterThan(10);
    offsets(words, byWord).forEach((at, i) => {
      const end = at + byWord[i]!.text.length;
      expect(at === 0 || words[at - 1] === ' ').toBe(true);
      expect(end === words.length || words[end] === ' ').toBe(true);
    });

    const blob = 'Zq'.repeat(3000);
    const hard = heading({ text: blob, title: 'T', firstLine: 1 }, 40);
    expect(hard.length).toBeGreaterThan(10);
    expect(hard.map((c) => c.text).join('')).toBe(blob);
  });

  it('copes with stray carriage returns', () => {
    const text = `# T\r\n\r\nIntro line.\r\n\r\n## Sec\r\n${prose(120)}\r\n\r\n${prose(120, 4)}\r\n`;
    const chunks = heading({ text, title: 'T', firstLine: 1 }, 128);
    expect(chunks.map((c) => c.headingPath)).toContain('T > Sec');
    for (const c of chunks) expect(c.text).not.toMatch(/^\s|\s$/);
    const sec = chunks.find((c) => c.text.startsWith('## Sec'))!;
    expect(sec.startLine).toBe(5);
  });

  it('numbers lines from firstLine', () => {
    const text = `${prose(200)}\n\n## Later\n\n${prose(200, 1)}`;
    const at1 = heading({ text, title: 'T', firstLine: 1 }, 256);
    const at10 = heading({ text, title: 'T', firstLine: 10 }, 256);
    expect(at10.map((c) => [c.startLine, c.endLine])).toEqual(at1.map((c) => [c.startLine + 9, c.endLine + 9]));
    expect(at10.find((c) => c.headingPath === 'T > Later')!.startLine).toBe(12);
  });

  it('keeps contextual tokens within the budget for many sizes', () => {
    const text = [
      '# Handbook', prose(30), '## Setup', prose(300, 1), '```ts', 'const a = 1;\n'.repeat(50), '```',
      '### Details', `${'Longwordwithoutbreaks'.repeat(40)} tail.`, '## 日本語', '日本語の文です。'.repeat(60),
      '## Emoji', '😀 '.repeat(200),
    ].join('\n\n');
    for (const maxTokens of [16, 24, 64, 256, 1000]) {
      const chunks = heading({ text, title: 'Handbook', firstLine: 3 }, maxTokens);
      for (const c of chunks) expect(countTokens(contextualText(c))).toBeLessThanOrEqual(maxTokens);
    }
  });

  it('exceeds the budget only when the heading path alone fills it', () => {
    const title = 'A very long title that keeps going and going with many words in it';
    const text = `## ${'Another long heading with plenty of words '.repeat(2)}\n\nBody text here.`;
    const chunks = chunkDocument({ text, title, firstLine: 1 }, { kind: 'heading', maxTokens: 16 });
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunkViolations({ text, title, firstLine: 1 }, chunks)).toEqual([]);
    for (const c of chunks) {
      const prefix = countTokens(`${c.headingPath}\n\n`);
      expect(prefix).toBeGreaterThanOrEqual(16);
      expect(countTokens(c.text)).toBe(1);
    }
  });
});
