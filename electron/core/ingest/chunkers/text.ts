// Offsets, lines and trimming shared by the chunkers. Every chunk is a [start, end) range of the
// input text, so its text is a true substring and its lines can be found again.
import { countTokens } from '../../text/tokenizer';
import type { Chunk, ChunkInput } from './types';

export interface Range {
  start: number;
  end: number;
}

/** Whitespace as String.prototype.trim sees it, without allocating a string per character. */
export function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0x80) return false;
  return /\s/.test(String.fromCharCode(code));
}

/** Maps offsets to 1-based line numbers in the original file. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(
    text: string,
    private readonly firstLine: number,
  ) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** Line of the character at `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.firstLine + lo;
  }
}

/**
 * Shrinks a range to its content: drops leading blank lines (keeping the first line's
 * indentation when the range starts at a line start, since code needs it) and all trailing
 * whitespace, including stray '\r'. Returns null for whitespace-only ranges.
 */
export function trimRange(text: string, start: number, end: number): Range | null {
  let s = start;
  let i = start;
  while (i < end && isSpace(text.charCodeAt(i))) {
    if (text.charCodeAt(i) === 10) s = i + 1;
    i++;
  }
  if (i >= end) return null;
  const atLineStart = s === 0 || text.charCodeAt(s - 1) === 10;
  if (!atLineStart) s = i;
  let e = end;
  while (e > i && isSpace(text.charCodeAt(e - 1))) e--;
  return { start: s, end: e };
}

/** The heading path as stored and embedded: `Title > Section > Subsection`. */
export function joinPath(path: readonly string[]): string {
  return path.join(' > ');
}

/** The prefix that contextualText puts before a chunk's text. */
export function pathPrefix(path: readonly string[]): string {
  return `${joinPath(path)}\n\n`;
}

// Few distinct paths per document, many chunks per path. Cleared wholesale when large.
const prefixCounts = new Map<string, number>();

export function prefixTokens(path: readonly string[]): number {
  const prefix = pathPrefix(path);
  let n = prefixCounts.get(prefix);
  if (n === undefined) {
    if (prefixCounts.size > 10_000) prefixCounts.clear();
    n = countTokens(prefix);
    prefixCounts.set(prefix, n);
  }
  return n;
}

/**
 * Tokens of contextualText for a body. With cl100k the prefix ends in "\n\n" and no pre-token
 * crosses it into a body that starts with a non-space, so the two counts add up (text/tokenizer.ts);
 * a body starting with whitespace (indented code) is counted together with its prefix.
 */
export function contextualTokens(path: readonly string[], body: string, bodyTokens?: number): number {
  if (body.length === 0 || isSpace(body.charCodeAt(0))) return countTokens(pathPrefix(path) + body);
  return prefixTokens(path) + (bodyTokens ?? countTokens(body));
}

export function makeChunk(
  input: ChunkInput,
  lines: LineIndex,
  range: Range,
  path: readonly string[],
  tokenCount: number,
): Omit<Chunk, 'ordinal'> {
  return {
    headingPath: joinPath(path),
    text: input.text.slice(range.start, range.end),
    tokenCount,
    startLine: lines.lineOf(range.start),
    endLine: lines.lineOf(range.end - 1),
  };
}

export function numbered(chunks: Omit<Chunk, 'ordinal'>[]): Chunk[] {
  return chunks.map((chunk, ordinal) => ({ ordinal, ...chunk }));
}
