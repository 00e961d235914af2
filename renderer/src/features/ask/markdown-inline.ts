/**
 * Inline Markdown to a small tree: text, code spans, emphasis, links, images and `[chunk-id]`
 * citation markers. The tree only ever becomes React text and elements — no HTML is parsed or
 * produced anywhere, so `<script>` in an answer stays the characters `<script>`.
 */

export interface CiteNode {
  t: 'cite';
  chunkId: string;
  /** 1-based number of this source in the answer (first appearance order). */
  n: number;
  /** How many markers citing the same id came before this one. */
  occurrence: number;
  /** 0-based position among all markers in the answer. */
  index: number;
}

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'em'; c: Inline[] }
  | { t: 'strong'; c: Inline[] }
  | { t: 'link'; text: string; url: string }
  | { t: 'image'; alt: string }
  | CiteNode;

export interface CiteCounter {
  numbers: Map<string, number>;
  seen: Map<string, number>;
  all: CiteNode[];
}

export const newCounter = (): CiteCounter => ({ numbers: new Map(), seen: new Map(), all: [] });

const ESCAPABLE = /[!-/:-@[-`{-~]/;
const LINK = /^\[([^\]\n]*)\]\(\s*([^)\s]*)(?:\s+"[^"\n]*")?\s*\)/;
const IMAGE = /^!\[([^\]\n]*)\]\(\s*([^)\s]*)(?:\s+"[^"\n]*")?\s*\)/;
const BRACKET = /^\[\[?([^[\]\n]{1,300})\]\]?(?!\()/;
const ENTRY_PREFIX = /\b(?:chunk|source|id|ref)s?\s*[:=]\s*/gi;
const ID_LIKE = /^[\p{L}\p{N}_./-]+#\d+$/u;

/** The ids in a bracket when every entry looks like `something#N`; null otherwise. */
export function citationIds(inner: string): string[] | null {
  const entries = inner
    .replace(ENTRY_PREFIX, ' ')
    .split(/[\s,;|]+/)
    .map((e) => e.replace(/^[`*"']+|[`*"']+$/g, ''))
    .filter((e) => e !== '' && !/^(?:and|&)$/i.test(e));
  if (entries.length === 0 || !entries.every((e) => ID_LIKE.test(e))) return null;
  return entries;
}

function cite(chunkId: string, counter: CiteCounter): CiteNode {
  let n = counter.numbers.get(chunkId);
  if (n === undefined) {
    n = counter.numbers.size + 1;
    counter.numbers.set(chunkId, n);
  }
  const occurrence = counter.seen.get(chunkId) ?? 0;
  counter.seen.set(chunkId, occurrence + 1);
  const node: CiteNode = { t: 'cite', chunkId, n, occurrence, index: counter.all.length };
  counter.all.push(node);
  return node;
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);

/** Index of the closing delimiter for emphasis opened at `from`, or -1. */
function closing(s: string, from: number, delim: string): number {
  let j = s.indexOf(delim, from);
  while (j >= 0) {
    const inner = s.slice(from, j);
    const okInner = inner.length > 0 && !/^\s/.test(inner) && !/\s$/.test(inner);
    const single = delim.length === 1;
    const doubled = single && (s[j + 1] === delim || s[j - 1] === delim);
    const wordAfter = delim[0] === '_' && isWordChar(s[j + delim.length]);
    if (okInner && !doubled && !wordAfter) return j;
    j = s.indexOf(delim, j + delim.length);
  }
  return -1;
}

export function parseInline(s: string, counter: CiteCounter): Inline[] {
  const out: Inline[] = [];
  let buf = '';
  const flush = () => {
    if (buf) out.push({ t: 'text', v: buf });
    buf = '';
  };
  let i = 0;
  while (i < s.length) {
    const ch = s[i] as string;
    const rest = s.slice(i);
    if (ch === '\\' && i + 1 < s.length && ESCAPABLE.test(s[i + 1] as string)) {
      buf += s[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const run = /^`+/.exec(rest)![0];
      const close = new RegExp(`(?<!\`)${run}(?!\`)`).exec(s.slice(i + run.length));
      if (close) {
        flush();
        const v = s.slice(i + run.length, i + run.length + close.index);
        out.push({ t: 'code', v: /^ .* $/.test(v) ? v.slice(1, -1) : v });
        i += run.length + close.index + run.length;
      } else {
        buf += run;
        i += run.length;
      }
      continue;
    }
    if (ch === '!' && s[i + 1] === '[') {
      const m = IMAGE.exec(rest);
      if (m) {
        flush();
        out.push({ t: 'image', alt: m[1] ?? '' });
        i += m[0].length;
        continue;
      }
    }
    if (ch === '[') {
      const link = LINK.exec(rest);
      if (link) {
        flush();
        out.push({ t: 'link', text: link[1] ?? '', url: link[2] ?? '' });
        i += link[0].length;
        continue;
      }
      const br = BRACKET.exec(rest);
      const ids = br ? citationIds(br[1] ?? '') : null;
      if (br && ids) {
        flush();
        for (const id of ids) out.push(cite(id, counter));
        i += br[0].length;
        continue;
      }
    }
    if (ch === '*' || ch === '_') {
      const dbl = s[i + 1] === ch;
      const delim = dbl ? ch + ch : ch;
      const leftOk = ch === '*' || !isWordChar(s[i - 1]);
      const end = leftOk ? closing(s, i + delim.length, delim) : -1;
      if (end > 0) {
        flush();
        const inner = parseInline(s.slice(i + delim.length, end), counter);
        out.push(dbl ? { t: 'strong', c: inner } : { t: 'em', c: inner });
        i = end + delim.length;
        continue;
      }
      if (dbl) {
        buf += delim;
        i += 2;
        continue;
      }
    }
    buf += ch;
    i++;
  }
  flush();
  return out;
}
