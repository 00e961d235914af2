import { describe, expect, it } from 'vitest';
import { chunkDocument } from './index';
import { chunkViolations } from './invariants';
import type { Chunk, ChunkInput } from './types';

function recursive(input: ChunkInput, chunkSize: number, overlap: number): Chunk[] {
  const chunks = chunkDocument(input, { kind: 'recursive', chunkSize, overlap });
  expect(chunkViolations(input, chunks, { maxChars: chunkSize })).toEqual([]);
  return chunks;
}

/** [start, end) of each chunk in the input, found in order. */
function spans(text: string, chunks: Chunk[]): [number, number][] {
  let from = 0;
  return chunks.map((c) => {
    const at = text.indexOf(c.text, from);
    expect(at).toBeGreaterThanOrEqual(0);
    from = at + 1;
    return [at, at + c.text.length];
  });
}

const sentence = (i: number) => `Sentence number ${i} talks about topic ${i % 7} in some detail.`;

describe('recursive chunker', () => {
  it('gives no chunks for whitespace', () => {
    expect(chunkDocument({ text: ' \n\t\n', title: 'T', firstLine: 1 }, { kind: 'recursive', chunkSize: 100, overlap: 10 })).toEqual([]);
  });

  it('cuts at paragraph ends when paragraphs fit', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `${sentence(i)} ${sentence(i + 1)} ${sentence(i + 2)}`);
    const text = paragraphs.join('\n\n');
    const chunks = recursive({ text, title: 'T', firstLine: 1 }, 700, 0);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      const parts = c.text.split('\n\n');
      for (const part of parts) expect(paragraphs).toContain(part);
    }
    expect(chunks.map((c) => c.text).join('\n\n')).toBe(text);
  });

  it('falls back to lines, then sentences, then words, then characters', () => {
    const lines = Array.from({ length: 30 }, (_, i) => sentence(i)).join('\n');
    for (const [at, end] of spans(lines, recursive({ text: lines, title: 'T', firstLine: 1 }, 200, 0))) {
      expect(at === 0 || lines[at - 1] === '\n').toBe(true);
      expect(end === lines.length || lines[end] === '\n').toBe(true);
    }

    const oneLine = Array.from({ length: 30 }, (_, i) => sentence(i)).join(' ');
    for (const c of recursive({ text: oneLine, title: 'T', firstLine: 1 }, 200, 0)) expect(c.text).toMatch(/^Sentence.*\.$/);

    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    for (const [at, end] of spans(words, recursive({ text: words, title: 'T', firstLine: 1 }, 50, 0))) {
      expect(at === 0 || words[at - 1] === ' ').toBe(true);
      expect(end === words.length || words[end] === ' ').toBe(true);
    }

    const blob = 'abcdefghij'.repeat(100);
    const pieces = recursive({ text: blob, title: 'T', firstLine: 1 }, 100, 0);
    expect(pieces.map((c) => c.text.length)).toEqual(Array(10).fill(100));
    expect(pieces.map((c) => c.text).join('')).toBe(blob);
  });

  it('overlaps consecutive chunks by up to `overlap` characters, starting at a word', () => {
    const text = Array.from({ length: 60 }, (_, i) => sentence(i)).join(' ');
    const chunks = recursive({ text, title: 'T', firstLine: 1 }, 200, 50);
    const s = spans(text, chunks);
    for (let i = 1; i < s.length; i++) {
      const [prevStart, prevEnd] = s[i - 1]!;
      const [start] = s[i]!;
      expect(start).toBeGreaterThan(prevStart);
      expect(start).toBeLessThan(prevEnd); // really overlaps
      expect(prevEnd - start).toBeLessThanOrEqual(50);
      expect(text[start - 1]).toBe(' ');
    }
    // Every character is covered.
    expect(s[0]![0]).toBe(0);
    expect(s[s.length - 1]![1]).toBe(text.length);
    for (let i = 1; i < s.length; i++) expect(s[i]![0]).toBeLessThanOrEqual(s[i - 1]![1]);
  });

  it('overlaps by exactly `overlap` characters where there is no word boundary', () => {
    // Not periodic, so each chunk's text occurs once and its position is unambiguous.
    const blob = Array.from({ length: 400 }, (_, i) => i.toString(36).padStart(3, '0')).join('');
    const s = spans(blob, recursive({ text: blob, title: 'T', firstLine: 1 }, 100, 20));
    expect(s.length).toBeGreaterThan(10);
    for (let i = 1; i < s.length; i++) expect(s[i - 1]![1] - s[i]![0]).toBe(20);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(500);
    for (const c of recursive({ text, title: 'T', firstLine: 1 }, 101, 11)) {
      expect(c.text).toMatch(/^(?:😀)+$/u);
    }
  });

  it('takes the heading path in force at the chunk start and original line numbers', () => {
    const text = `Intro line.\n\n## Alpha\n\n${'Alpha text. '.repeat(30)}\n\n## Beta\n\n${'Beta text. '.repeat(30)}`;
    const chunks = recursive({ text, title: 'Doc', firstLine: 7 }, 150, 0);
    expect(chunks[0]).toMatchObject({ headingPath: 'Doc', startLine: 7 });
    // "## Alpha" is on original line 9, "## Beta" on line 13.
    const expected = (line: number) => (line < 9 ? 'Doc' : line < 13 ? 'Doc > Alpha' : 'Doc > Beta');
    for (const c of chunks) expect(c.headingPath).toBe(expected(c.startLine));
    expect(new Set(chunks.map((c) => c.headingPath))).toEqual(new Set(['Doc', 'Doc > Alpha', 'Doc > Beta']));
  });
});
