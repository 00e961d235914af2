// The promises every chunker makes, as a checker: tests run it on every output, and it can guard
// a pipeline in development. Returns human-readable violations, none when all is well.
import { countTokens } from '../../text/tokenizer';
import { contextualText } from './index';
import type { Chunk, ChunkInput } from './types';

export interface ChunkLimits {
  /** tokenCount must not exceed this (heading chunker). */
  maxTokens?: number;
  /** text.length must not exceed this (recursive chunker). */
  maxChars?: number;
  /** Re-count contextualText for every n-th chunk only (1 = all); counting 50 MB twice is slow. */
  countEvery?: number;
}

export function chunkViolations(input: ChunkInput, chunks: Chunk[], limits: ChunkLimits = {}): string[] {
  const { text, firstLine } = input;
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return firstLine + lo;
  };
  const problems: string[] = [];
  let cursor = 0;
  chunks.forEach((chunk, i) => {
    const where = `chunk ${i}`;
    if (chunk.ordinal !== i) problems.push(`${where}: ordinal ${chunk.ordinal}`);
    if (!/\S/.test(chunk.text)) problems.push(`${where}: whitespace-only text`);
    if (!chunk.headingPath) problems.push(`${where}: empty headingPath`);
    const lineStart = lineStarts[chunk.startLine - firstLine];
    if (lineStart === undefined) {
      problems.push(`${where}: startLine ${chunk.startLine} outside the input`);
      return;
    }
    const at = text.indexOf(chunk.text, Math.max(cursor, lineStart));
    if (at === -1) {
      problems.push(`${where}: text is not a substring of the input at or after line ${chunk.startLine}`);
      return;
    }
    if (lineOf(at) !== chunk.startLine || lineOf(at + chunk.text.length - 1) !== chunk.endLine) {
      problems.push(
        `${where}: lines ${chunk.startLine}-${chunk.endLine} but text sits at ${lineOf(at)}-${lineOf(at + chunk.text.length - 1)}`,
      );
    }
    cursor = at + 1;
    if (/\s$/.test(chunk.text)) problems.push(`${where}: trailing whitespace`);
    if (/^\s/.test(chunk.text) && (/^\s*\n/.test(chunk.text) || (at > 0 && text[at - 1] !== '\n'))) {
      problems.push(`${where}: leading whitespace that is not the indentation of its first line`);
    }
    if (limits.maxTokens !== undefined && chunk.tokenCount > limits.maxTokens) {
      problems.push(`${where}: ${chunk.tokenCount} tokens > ${limits.maxTokens}`);
    }
    if (limits.maxChars !== undefined && chunk.text.length > limits.maxChars) {
      problems.push(`${where}: ${chunk.text.length} chars > ${limits.maxChars}`);
    }
    if (i % (limits.countEvery ?? 1) === 0) {
      const actual = countTokens(contextualText(chunk));
      if (actual !== chunk.tokenCount) problems.push(`${where}: tokenCount ${chunk.tokenCount}, actual ${actual}`);
    }
  });
  return problems;
}
