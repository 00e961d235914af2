/**
 * Finding `[chunk-id]` markers in a model's answer.
 *
 * A marker is a bracket whose every entry looks like an id: `[a]`, `[a, b]`, `[a; b]`, `[a and b]`,
 * `[ chunk: a ]`, `[source: a]`, ``[`a`]``, `[[a]]`. An entry looks like an id when it is
 * `something#N` — not only our real `3f2a9c1b0d4e#12` form, so that a forged or misremembered id
 * (`[deadbeef0000#99]`, `[notes.md#3]`) is still seen as a citation and reported as unknown.
 * Not markers: markdown links `[text](url)` and images, checkboxes `[x]`, footnotes `[^1]`,
 * `[issue #42]`, and anything inside code spans or fenced code blocks.
 */

export interface CitationMarker {
  /** Offsets of the whole marker in the text, `[` to `]` inclusive. */
  start: number;
  end: number;
  ids: string[];
}

// One bracket (optionally doubled, wiki style) on one line, not followed by "(" (a markdown link).
const BRACKET = /\[\[?([^[\]\n]{1,300})\]\]?(?!\()/g;
// "chunk:", "source:", "id=" and the like, which models sometimes put before the id.
const ENTRY_PREFIX = /\b(?:chunk|source|id|ref)s?\s*[:=]\s*/gi;
const ENTRY_SEPARATOR = /[\s,;|]+/;
const ID_LIKE = /^[\p{L}\p{N}_./-]+#\d+$/u;

function idsInBracket(inner: string): string[] | null {
  const entries = inner
    .replace(ENTRY_PREFIX, ' ')
    .split(ENTRY_SEPARATOR)
    .map((e) => e.replace(/^[`*"']+|[`*"']+$/g, ''))
    .filter((e) => e !== '' && !/^(?:and|&)$/i.test(e));
  if (entries.length === 0 || !entries.every((e) => ID_LIKE.test(e))) return null;
  return entries;
}

export const inRanges = (i: number, ranges: ReadonlyArray<[number, number]>) => ranges.some(([s, e]) => i >= s && i < e);

/** [start, end) ranges of fenced code blocks (``` or ~~~, closed by the same kind, or running to the end). */
export function fencedRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let fenceStart = -1;
  let fenceMark = '';
  let pos = 0;
  for (const line of text.split('\n')) {
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceStart < 0 && fence) {
      fenceStart = pos;
      fenceMark = fence;
    } else if (fenceStart >= 0 && fence?.startsWith(fenceMark)) {
      ranges.push([fenceStart, pos + line.length]);
      fenceStart = -1;
    }
    pos += line.length + 1;
  }
  if (fenceStart >= 0) ranges.push([fenceStart, text.length]);
  return ranges;
}

/** [start, end) ranges of fenced code blocks and of inline code spans outside them. */
export function codeRanges(text: string): Array<[number, number]> {
  const fenced = fencedRanges(text);
  const inline: Array<[number, number]> = [];
  for (const m of text.matchAll(/`+[^`\n]*?`+/g)) {
    if (!inRanges(m.index, fenced)) inline.push([m.index, m.index + m[0].length]);
  }
  return [...fenced, ...inline];
}

/** All markers, in order of appearance. Expects `\n` line endings. */
export function findMarkers(text: string): CitationMarker[] {
  const code = codeRanges(text);
  const out: CitationMarker[] = [];
  for (const m of text.matchAll(BRACKET)) {
    if (text[m.index - 1] === '!' || inRanges(m.index, code)) continue;
    const ids = idsInBracket(m[1] ?? '');
    if (ids) out.push({ start: m.index, end: m.index + m[0].length, ids });
  }
  return out;
}

/**
 * Removes markers from a text: a marker and the spaces before it ("claim [id]." -> "claim."), or,
 * at the start of a line, the marker and the spaces after it.
 */
export function removeMarkers(text: string, markers: readonly CitationMarker[]): string {
  let out = text;
  for (const mk of [...markers].sort((a, b) => b.start - a.start)) {
    let s = mk.start;
    let e = mk.end;
    while (s > 0 && (out[s - 1] === ' ' || out[s - 1] === '\t')) s--;
    if (s === 0 || out[s - 1] === '\n') {
      s = mk.start;
      while (e < out.length && (out[e] === ' ' || out[e] === '\t')) e++;
    }
    out = out.slice(0, s) + out.slice(e);
  }
  return out;
}
