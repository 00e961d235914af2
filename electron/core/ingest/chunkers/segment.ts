// Splitting a range into pieces that each fit a token budget, coarsest boundaries first. All of it
// is lazy and works on offsets, so a 50 MB paragraph is never copied, counted or held as a list.
import { countTokens, fitPrefix } from '../../text/tokenizer';
import { isSpace, trimRange, type Range } from './text';

export interface Unit extends Range {
  /** Exact token count of text.slice(start, end). */
  tokens: number;
}

export type Splitter = (text: string, start: number, end: number) => Iterable<Range>;

/** Splits at every match of `boundary` (the match stays with the piece before it); trims pieces. */
function* splitAfter(text: string, start: number, end: number, boundary: RegExp): Generator<Range> {
  const slice = text.slice(start, end);
  const re = new RegExp(boundary.source, 'gu');
  let from = 0;
  for (let m = re.exec(slice); m !== null; m = re.exec(slice)) {
    const cut = m.index + m[0].length;
    if (cut === from) {
      re.lastIndex++;
      continue;
    }
    const piece = trimRange(text, start + from, start + cut);
    if (piece) yield piece;
    from = cut;
  }
  const last = trimRange(text, start + from, end);
  if (last) yield last;
}

// Sentence ends: terminal punctuation and any closing quotes or brackets, then whitespace; CJK
// full stops need no space after them.
const SENTENCE_END = /[.!?…]+["'”’)\]]*(?=\s)|[。！？]+/;
const LINE_END = /\n/;

export const sentences: Splitter = (text, start, end) => splitAfter(text, start, end, SENTENCE_END);
export const lines: Splitter = (text, start, end) => splitAfter(text, start, end, LINE_END);

export function* words(text: string, start: number, end: number): Generator<Range> {
  let i = start;
  while (i < end) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i >= end) return;
    const s = i;
    while (i < end && !isSpace(text.charCodeAt(i))) i++;
    yield { start: s, end: i };
  }
}

export interface Budget {
  /** Most tokens a unit may have. */
  tokens: number;
  /** Consecutive pieces are counted together while they span at most this many characters. */
  groupChars: number;
  /** Ranges longer than this are split without counting them first: they cannot fit. */
  countChars: number;
}

export function budgetOf(tokens: number): Budget {
  const t = Math.max(1, tokens);
  return { tokens: t, groupChars: t * 2, countChars: t * 16 };
}

/**
 * Cuts a range with no usable boundary into pieces of at most `budget` tokens, by the tokens
 * themselves. Each step encodes a window only a little longer than the piece it cuts, so a 50 MB
 * run without spaces costs about two tokenisations of itself, not one of 50 MB per piece.
 */
export function* hardCut(text: string, start: number, end: number, budget: number): Generator<Unit> {
  let p = start;
  let window = budget * 4;
  while (p < end) {
    let stop = Math.min(end, p + window);
    if (stop < end && isHighSurrogate(text.charCodeAt(stop - 1))) stop--;
    const fit = fitPrefix(text.slice(p, stop), budget);
    if (fit.chars === stop - p && stop < end) {
      window *= 2;
      continue;
    }
    yield { start: p, end: p + fit.chars, tokens: fit.tokens };
    p += fit.chars;
    window = Math.max(16, Math.ceil(fit.chars * 1.25) + 8);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Units of at most budget.tokens for a range: whole if it fits, else split by the first splitter
 * and, piece by piece, by the next ones, ending in a hard cut. Neighbouring small pieces are
 * counted as one group first, which keeps the number of units (and of counts) low.
 */
export function* fit(text: string, range: Range, budget: Budget, splitters: Splitter[]): Generator<Unit> {
  if (range.end - range.start <= budget.countChars) {
    const tokens = countTokens(text.slice(range.start, range.end));
    if (tokens <= budget.tokens) {
      yield { ...range, tokens };
      return;
    }
  }
  const [split, ...finer] = splitters;
  if (!split) {
    yield* hardCut(text, range.start, range.end, budget.tokens);
    return;
  }
  yield* grouped(text, split(text, range.start, range.end), budget, finer);
}

/** A piece that brings its own finer splitters (a code fence splits by lines, prose by sentences). */
export interface Piece extends Range {
  finer?: Splitter[];
}

/** Counts runs of consecutive pieces together; a run that does not fit falls back piece by piece. */
export function* grouped(
  text: string,
  pieces: Iterable<Piece>,
  budget: Budget,
  finer: Splitter[],
): Generator<Unit> {
  let group: Piece[] = [];
  function* flush(): Generator<Unit> {
    const first = group[0];
    const last = group[group.length - 1];
    if (!first || !last) return;
    const members = group;
    group = [];
    if (members.length > 1) {
      const tokens = countTokens(text.slice(first.start, last.end));
      if (tokens <= budget.tokens) {
        yield { start: first.start, end: last.end, tokens };
        return;
      }
    }
    for (const piece of members) yield* fit(text, piece, budget, piece.finer ?? finer);
  }
  for (const piece of pieces) {
    const first = group[0];
    if (first && piece.end - first.start > budget.groupChars) yield* flush();
    group.push(piece);
  }
  yield* flush();
}
