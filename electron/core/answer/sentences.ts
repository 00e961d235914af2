/**
 * Splitting an answer into sentences and attributing each citation marker to a sentence.
 *
 * Blocks: a paragraph (consecutive text lines), a list item (plus indented continuation lines),
 * or a heading. Blank lines end a paragraph; fenced code is not a sentence and ends a block.
 * Sentences: every line break is a boundary; within a line, `.`, `!`, `?` or `…` followed by
 * whitespace (after optional closing quotes/brackets/emphasis) ends a sentence, except after
 * abbreviations ("e.g.", "i.e.", "vs.", "Dr."). A period followed by a non-space ("3.5", "v1.2.3",
 * "notes.md", URLs) never ends one; CJK stops (。！？) end one without a space. Inside matched
 * quotes or brackets nothing ends the sentence around them, and after a closing quote or an
 * ellipsis a lower-case word continues it: `our original “Hello, world!” project. [1]` is one
 * sentence. Code spans are masked and markers blanked before splitting, so "claim.[id] Next" splits.
 * Intl.Segmenter was measured as a base on the tricky table in sentences.test.ts and got 31 of 50
 * rows (it splits inside quotes, parentheses and URLs and after "Dr.", "e.g.", "vs."), so the rules
 * here are our own.
 *
 * Attribution rule (what a marker cites for):
 *  1. A marker belongs to the last sentence of its block whose text starts before the marker, so
 *     `Claim [a].`, `Claim. [a]` and a line holding only `[a]` under a paragraph all cite for the
 *     sentence just before them. A markers-only line after a blank line joins the block above it.
 *     A marker before any text of its block cites for the block's first sentence (and markers
 *     before any text of the whole answer, for the answer's first sentence).
 *  2. If in a block only the last sentence has markers, its ids apply to every sentence of the
 *     block (the common "one citation at the end of the paragraph" style). If any earlier sentence
 *     has its own marker, the author cited per sentence and uncited sentences stay uncited.
 */
import { codeRanges, fencedRanges, findMarkers, inRanges, removeMarkers, type CitationMarker } from './citation-markers';
import { collapseWhitespace } from '../text/normalise';

export interface AttributedSentence {
  /** Sentence text without markers, list/heading prefixes, or surplus whitespace. */
  text: string;
  /** Ids as written (entry prefixes removed), unique, in order of appearance. */
  ids: string[];
}

interface Span {
  start: number;
  end: number;
  /** Offset of the first non-space character once markers are blanked. */
  contentStart: number;
  ids: string[];
}

interface Block {
  kind: 'paragraph' | 'item' | 'heading';
  sentences: Span[];
  markers: CitationMarker[];
}

const LIST_MARKER = /^(\s*)(?:[-*+\u2022]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?/;
const HEADING_MARKER = /^\s{0,3}#{1,6}\s+/;
const QUOTE_MARKER = /^\s{0,3}(?:>\s?)+/;
const RULE_LINE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;

// Never end a sentence after these, whatever follows ("e.g. The", "Dr. Smith").
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'vs', 'cf', 'approx', 'incl', 'esp', 'fig', 'figs', 'dr', 'mr', 'mrs', 'ms',
  'prof', 'st', 'jr', 'sr', 'al', 'ca', 'resp', 'eq', 'vol', 'ch', 'sec', 'no', 'nos', 'min', 'max', 'etc']);
// …except these, which also end sentences: a boundary when the next word starts with a capital.
const MAY_END_SENTENCE = new Set(['etc', 'no', 'min', 'max']);

function isAbbreviationStop(masked: string, lineStart: number, dot: number, next: number): boolean {
  // Scans, not regexes over slices, so a long line of "a. a. a." stays linear.
  let s = dot;
  while (s > lineStart && dot - s < 16 && /[\p{L}.]/u.test(masked[s - 1] ?? '')) s--;
  const word = masked.slice(s, dot).replace(/^\.+/, '').toLowerCase();
  if (!ABBREVIATIONS.has(word) && !/^(?:\p{L}\.)+\p{L}$/u.test(word)) return false;
  if (!MAY_END_SENTENCE.has(word)) return true;
  let n = next;
  while (n < masked.length && /\s/.test(masked[n] ?? '')) n++;
  return !/\p{Lu}/u.test(masked[n] ?? '');
}

// Pairs whose inside never ends the sentence around them. Straight double quotes pair up in order.
const PAIRS: ReadonlyArray<[string, string]> = [['(', ')'], ['[', ']'], ['{', '}'], ['"', '"'],
  ['\u201C', '\u201D'], ['\u2018', '\u2019'], ['\u00AB', '\u00BB'], ['\u300C', '\u300D'], ['\u300E', '\u300F']];
const OPENER_OF = new Map(PAIRS.map(([o, c]) => [c, o]));
const OPENERS = new Set(PAIRS.map(([o]) => o));
// What may follow a stop and still belong to its sentence: closing quotes/brackets, emphasis.
const TRAILING = /["'\u2019\u201D\u00BB\u300D\u300F)\]}*_]/;
// Stops of scripts written without spaces: they end a sentence whatever follows.
const CJK_STOP = /[\u3002\uFF01\uFF1F]/;

/**
 * 1 for every offset of [from, to) inside a matched pair of quotes or brackets. Unmatched openers
 * protect nothing, so one stray quote cannot swallow the rest of a line. A ’ before a letter is an
 * apostrophe ("don’t") and a ‘ after a letter is not an opener, so curly single quotes only pair
 * around quoted text; straight single quotes are left alone (apostrophes).
 */
function insidePairs(masked: string, from: number, to: number): Uint8Array {
  const diff = new Int32Array(to - from + 1);
  const stack: Array<{ ch: string; at: number }> = [];
  const open = new Map<string, number>(); // openers on the stack by kind: a closer's check stays O(1)
  const pop = () => {
    const top = stack.pop();
    if (top) open.set(top.ch, (open.get(top.ch) ?? 1) - 1);
    return top;
  };
  const isLetter = (i: number) => /\p{L}/u.test(masked[i] ?? '');
  for (let i = from; i < to; i++) {
    const ch = masked[i] ?? '';
    const opener = OPENER_OF.get(ch);
    if (opener !== undefined && (open.get(opener) ?? 0) > 0 && !(ch === '\u2019' && isLetter(i + 1))) {
      let top = pop();
      while (top && top.ch !== opener) top = pop(); // openers left unclosed inside are dropped
      diff[top!.at + 1 - from]! += 1;
      diff[i - from]! -= 1;
    } else if (OPENERS.has(ch) && !(ch === '\u2018' && isLetter(i - 1))) {
      stack.push({ ch, at: i });
      open.set(ch, (open.get(ch) ?? 0) + 1);
    }
  }
  const inside = new Uint8Array(to - from);
  let depth = 0;
  for (let i = 0; i < to - from; i++) inside[i] = (depth += diff[i] ?? 0) > 0 ? 1 : 0;
  return inside;
}

/** The next non-space character after `at`, or '' at the end of the line. */
function nextVisible(masked: string, at: number, to: number): string {
  let n = at;
  while (n < to && /\s/.test(masked[n] ?? '')) n++;
  return n < to ? (masked[n] ?? '') : '';
}

/** Sentence spans of one line, [from, to) within `masked`. Empty spans (markers only) are kept out. */
function splitLine(masked: string, from: number, to: number): Span[] {
  const spans: Span[] = [];
  const push = (s: number, e: number) => {
    const lead = masked.slice(s, e).search(/\S/);
    if (lead >= 0) spans.push({ start: s, end: e, contentStart: s + lead, ids: [] });
  };
  const inside = insidePairs(masked, from, to);
  let start = from;
  for (let i = from; i < to; i++) {
    if (!/[.!?\u2026\u3002\uFF01\uFF1F]/.test(masked[i] ?? '')) continue;
    let j = i;
    while (j + 1 < to && /[.!?\u2026\u3002\uFF01\uFF1F]/.test(masked[j + 1] ?? '')) j++;
    let k = j + 1;
    let closed = false; // a quotation or parenthesis ends right after the stop
    while (k < to && TRAILING.test(masked[k] ?? '')) closed ||= OPENER_OF.has(masked[k++] ?? '');
    // Inside quotes or brackets a stop never ends the sentence around them, unless the pair closes
    // right after it ('The docs say: "Call it once. Never twice." That is the rule.').
    if (inside[i - from] && (!closed || (k < to && inside[k - from]))) {
      i = j;
      continue;
    }
    const followedBySpace = k >= to || /\s/.test(masked[k] ?? '') || CJK_STOP.test(masked[j] ?? '');
    const stops = masked.slice(i, j + 1);
    // After a closing quote ('our “Hello, world!” project') or an ellipsis ("Wait… then"), a
    // lower-case word or more punctuation ("(since Jan.) [id].") continues the sentence; a capital
    // starts the next.
    const continues = (closed || /^(?:\.{2,}|\u2026+)$/.test(stops)) && /[\p{Ll}.,;:!?\u2026]/u.test(nextVisible(masked, k, to));
    if (!followedBySpace || continues || (stops === '.' && isAbbreviationStop(masked, from, i, k))) {
      i = j;
      continue;
    }
    push(start, k);
    start = k;
    i = k - 1;
  }
  push(start, to);
  return spans;
}

/** The text with markers blanked to spaces and code spans to 'x', so neither affects splitting. */
function maskText(text: string, markers: readonly CitationMarker[]): string {
  const units = text.split(''); // UTF-16 units, so offsets stay those of `text`
  for (const [s, e] of codeRanges(text)) for (let i = s; i < e; i++) if (units[i] !== '\n') units[i] = 'x';
  for (const m of markers) for (let i = m.start; i < m.end; i++) units[i] = ' ';
  return units.join('');
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

/** Markers (sorted by start) that start in [start, end): binary search, so long answers stay fast. */
function markersIn(markers: readonly CitationMarker[], start: number, end: number): CitationMarker[] {
  let lo = 0;
  let hi = markers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((markers[mid]?.start ?? 0) < start) lo = mid + 1;
    else hi = mid;
  }
  const out: CitationMarker[] = [];
  for (let i = lo; i < markers.length && (markers[i]?.start ?? end) < end; i++) out.push(markers[i]!);
  return out;
}

function buildBlocks(text: string, markers: readonly CitationMarker[]): Block[] {
  const masked = maskText(text, markers);
  const blocks: Block[] = [];
  const fenced = fencedRanges(text);
  let open: Block | null = null;
  let pos = 0;
  for (const line of text.split('\n')) {
    const lineStart = pos;
    const lineEnd = pos + line.length;
    pos = lineEnd + 1;
    const lineMarkers = markersIn(markers, lineStart, lineEnd);
    if (inRanges(lineStart, fenced)) {
      open = null; // fenced code is neither sentence nor citation, and ends the current block
      continue;
    }
    const maskedLine = masked.slice(lineStart, lineEnd);
    if (maskedLine.trim() === '' && lineMarkers.length > 0) {
      // A line holding only markers joins the block above, even across a blank line (rule 1).
      const target: Block | undefined = open ?? blocks[blocks.length - 1];
      if (target) target.markers.push(...lineMarkers);
      else blocks.push((open = { kind: 'paragraph', sentences: [], markers: [...lineMarkers] }));
      continue;
    }
    if (maskedLine.trim() === '' || RULE_LINE.test(maskedLine)) {
      open = null; // blank line or horizontal rule: the paragraph ends
      continue;
    }
    const heading = HEADING_MARKER.exec(maskedLine);
    const item = LIST_MARKER.exec(maskedLine);
    const quote = QUOTE_MARKER.exec(maskedLine);
    const prefix = (heading ?? item ?? quote)?.[0].length ?? 0;
    const continues = open !== null && open.kind !== 'heading' && !heading && !item &&
      (open.kind === 'paragraph' || /^\s/.test(line));
    if (!continues || open === null) {
      open = { kind: heading ? 'heading' : item ? 'item' : 'paragraph', sentences: [], markers: [] };
      blocks.push(open);
    }
    open.sentences.push(...splitLine(masked, lineStart + prefix, lineEnd));
    open.markers.push(...lineMarkers);
    if (heading) open = null;
  }
  return blocks;
}

export function attributeSentences(answer: string): AttributedSentence[] {
  const text = answer.replace(/\r\n?/g, '\n');
  const markers = findMarkers(text);
  const blocks = buildBlocks(text, markers);
  let previous: Span | undefined;
  let pending: string[] = []; // markers before any sentence at all: they cite for the first one
  for (const block of blocks) {
    // Rule 1.
    let at = 0; // markers and sentences are both in text order: walk them together
    for (const m of block.markers) {
      while ((block.sentences[at + 1]?.contentStart ?? Infinity) < m.start) at++;
      const target = block.sentences[at] ?? previous;
      if (target) target.ids.push(...m.ids);
      else pending.push(...m.ids);
    }
    const first = block.sentences[0];
    if (first && pending.length > 0) {
      first.ids.unshift(...pending);
      pending = [];
    }
    // Rule 2.
    const last = block.sentences[block.sentences.length - 1];
    if (last && last.ids.length > 0 && block.sentences.slice(0, -1).every((s) => s.ids.length === 0)) {
      for (const s of block.sentences) if (s !== last) s.ids.push(...last.ids);
    }
    previous = last ?? previous;
  }
  const sentences = blocks.flatMap((b) => b.sentences).map((s) => {
    const inside = markersIn(markers, s.start, s.end);
    const raw = removeMarkers(text.slice(s.start, s.end), inside.map((m) => ({ ...m, start: m.start - s.start, end: m.end - s.start })));
    return { text: collapseWhitespace(raw), ids: unique(s.ids) };
  });
  // An answer of nothing but markers: keep the ids (they may be forged) on one empty sentence.
  return pending.length > 0 ? [{ text: '', ids: unique(pending) }, ...sentences] : sentences;
}
