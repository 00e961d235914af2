// Recursive character splitting: chunks of at most chunkSize characters, cut at the coarsest
// boundary that leaves the chunk as full as possible: the last blank line in reach, else the last
// line break, sentence end, space, and last any character (never inside a surrogate pair).
// Consecutive chunks share about `overlap` characters: the next chunk starts that far back from
// the previous end, moved forward to a word start when the overlap has one. A chunk no longer
// than the overlap is not repeated.
//
// This walks the text once with a moving window instead of splitting it into a tree of pieces
// first, so memory stays flat on a 50 MB single line; the chunks are the same greedy merge.
import { outlinePathAt, parseOutline } from './markdown';
import { LineIndex, contextualTokens, isSpace, makeChunk, numbered, trimRange } from './text';
import type { Chunk, ChunkInput } from './types';

const BLANK_LINE = /\n[ \t\r\f\v]*\n/g;
const SENTENCE_END = /[.!?…]+["'”’)\]]*(?=\s)|[。！？]+/gu;

function lastMatch(re: RegExp, text: string, lo: number, hi: number): RegExpExecArray | null {
  re.lastIndex = 0;
  const window = text.slice(lo, hi);
  let last: RegExpExecArray | null = null;
  for (let m = re.exec(window); m !== null; m = re.exec(window)) last = m;
  return last;
}

/** End of a chunk that starts before `lo` and may reach `limit`: a cut in (lo, limit]. */
function findCut(text: string, lo: number, limit: number): number {
  const para = lastMatch(BLANK_LINE, text, lo, limit);
  if (para && para.index > 0) return lo + para.index;
  // Bounded scan: lastIndexOf would run back over a whole 50 MB line for every chunk.
  for (let i = limit - 1; i > lo; i--) if (text.charCodeAt(i) === 10) return i;
  const sentence = lastMatch(SENTENCE_END, text, lo, Math.min(text.length, limit + 1));
  if (sentence && sentence.index + sentence[0].length <= limit - lo) return lo + sentence.index + sentence[0].length;
  for (let i = limit; i > lo; i--) if (isSpace(text.charCodeAt(i))) return i;
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff && limit - 1 > lo ? limit - 1 : limit;
}

/** Where the chunk after [start, cut) begins so that it repeats up to `overlap` characters. */
function nextStart(text: string, start: number, cut: number, overlap: number): number {
  let q = cut - overlap;
  if (overlap <= 0 || q <= start) return cut;
  if (!isSpace(text.charCodeAt(q - 1)) && !isSpace(text.charCodeAt(q))) {
    let w = q;
    while (w < cut && !isSpace(text.charCodeAt(w))) w++;
    if (w < cut) q = w;
  }
  while (q < cut && isSpace(text.charCodeAt(q))) q++;
  const code = text.charCodeAt(q);
  if (code >= 0xdc00 && code <= 0xdfff) q++;
  return q < cut ? q : cut;
}

export function recursiveChunks(input: ChunkInput, chunkSize: number, overlap: number): Chunk[] {
  const { text } = input;
  const outline = parseOutline(text, input.title);
  const lines = new LineIndex(text, input.firstLine);
  const chunks: Omit<Chunk, 'ordinal'>[] = [];
  let start = 0;
  let prevEnd = 0;
  while (start < text.length) {
    while (start < text.length && isSpace(text.charCodeAt(start))) start++;
    if (start >= text.length) break;
    const limit = Math.min(text.length, start + chunkSize);
    const cut = limit === text.length ? limit : findCut(text, Math.max(start, prevEnd), limit);
    const range = trimRange(text, start, cut);
    if (range) {
      const path = outlinePathAt(outline, range.start);
      const body = text.slice(range.start, range.end);
      chunks.push(makeChunk(input, lines, range, path, contextualTokens(path, body)));
    }
    prevEnd = cut;
    start = nextStart(text, start, cut, overlap);
  }
  return numbered(chunks);
}
