// Fixed token windows: window k covers body tokens [k*step, k*step + windowTokens), step =
// windowTokens - overlap, so neighbours share exactly `overlap` tokens; the last window ends at
// the last token and may be shorter. Windows are measured on the body's token stream, so a
// chunk's tokenCount (prefix included, re-counted on its own text) is about windowTokens plus
// the path prefix.
//
// Tokens are streamed pre-token by pre-token and only the last windowTokens start offsets are
// kept, so a 50 MB body is never held as one token array.
import { encodePieces, tokenByteLength } from '../../text/tokenizer';
import { outlinePathAt, parseOutline } from './markdown';
import { LineIndex, contextualTokens, makeChunk, numbered, trimRange, type Range } from './text';
import type { Chunk, ChunkInput } from './types';

/** Characters from `from` covered by `bytes` UTF-8 bytes, stopping before a partly covered one. */
function advance(text: string, from: number, limit: number, bytes: number): { chars: number; bytes: number } {
  let i = from;
  let used = 0;
  while (i < limit) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < limit;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (used + size > bytes) break;
    used += size;
    i += pair ? 2 : 1;
  }
  return { chars: i - from, bytes: used };
}

/**
 * Character ranges of the windows, before trimming. A token boundary inside a multi-byte
 * character is moved back to that character's start, so every range is a valid substring.
 */
export function* tokenWindows(text: string, windowTokens: number, overlap: number): Generator<Range> {
  const step = windowTokens - overlap;
  const starts = new Float64Array(windowTokens);
  let index = 0;
  let char = 0;
  let pending = 0;
  let nextWindowStart = 0;
  let lastEmittedEnd = -1;
  for (const piece of encodePieces(text)) {
    const lengths = piece.tokens.map(tokenByteLength);
    const ascii = lengths.reduce((sum, n) => sum + n, 0) === piece.end - piece.start;
    char = piece.start;
    pending = 0;
    for (let t = 0; t < piece.tokens.length; t++) {
      starts[index % windowTokens] = char;
      if (ascii) {
        char += lengths[t]!;
      } else {
        // A token may end inside a character; its bytes carry over to the next token.
        const moved = advance(text, char, piece.end, pending + lengths[t]!);
        char += moved.chars;
        pending += lengths[t]! - moved.bytes;
      }
      if (index === nextWindowStart + windowTokens - 1) {
        yield { start: starts[nextWindowStart % windowTokens]!, end: char };
        lastEmittedEnd = index;
        nextWindowStart += step;
      }
      index++;
    }
  }
  if (index > 0 && lastEmittedEnd < index - 1) {
    yield { start: starts[nextWindowStart % windowTokens]!, end: char };
  }
}

export function fixedChunks(input: ChunkInput, windowTokens: number, overlap: number): Chunk[] {
  const { text } = input;
  const outline = parseOutline(text, input.title);
  const lines = new LineIndex(text, input.firstLine);
  const chunks: Omit<Chunk, 'ordinal'>[] = [];
  for (const window of tokenWindows(text, windowTokens, overlap)) {
    const range = trimRange(text, window.start, window.end);
    if (!range) continue;
    const path = outlinePathAt(outline, range.start);
    const body = text.slice(range.start, range.end);
    chunks.push(makeChunk(input, lines, range, path, contextualTokens(path, body)));
  }
  return numbered(chunks);
}
