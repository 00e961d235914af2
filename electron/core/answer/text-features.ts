/**
 * Deterministic text features used to check a cited sentence against the chunks it cites:
 *  - "hard facts" (numbers, code-ish identifiers, quoted strings) that must each appear in the
 *    cited text, because a model that gets one of those wrong is wrong no matter how many other
 *    words it shares with the source;
 *  - stemmed content words (text/stems.ts), for a rough "is this sentence about what the chunk
 *    says" overlap.
 * No model call, no dictionary: the same cheap rules are applied to both sides, so what matters
 * is that they are consistent, not that they are linguistically right.
 */
import { normaliseText } from '../text/normalise';
import { contentStems } from '../text/stems';
import { NUMBER_WORDS } from '../text/word-lists';

export type FactKind = 'number' | 'identifier' | 'quote';

export interface Fact {
  kind: FactKind;
  /** As written in the sentence (reported back in `missing`). */
  surface: string;
  /** Comparison key: a canonical number, or a normalised word sequence. */
  value: string;
}

/** What a set of cited chunks offers as evidence. */
export interface Evidence {
  numbers: Set<string>;
  /** Each chunk's word sequence padded with spaces, one per line, so a phrase never spans two chunks. */
  words: string;
  stems: Set<string>;
}

/** "_important_" -> "important", "__init__" -> "init". A scan: /_+$/ is quadratic on long underscore runs. */
function trimUnderscores(w: string): string {
  let s = 0;
  let e = w.length;
  while (s < e && w[s] === '_') s++;
  while (e > s && w[e - 1] === '_') e--;
  return w.slice(s, e);
}

/** Words (letters, digits, underscore) joined by single spaces; markdown `_emphasis_` underscores dropped. */
export function wordSequence(s: string): string {
  return (normaliseText(s).match(/[\p{L}\p{N}_]+/gu) ?? [])
    .map(trimUnderscores)
    .filter((w) => w.length > 0)
    .join(' ');
}

/** "007" -> "7", "3.50" -> "3.5", "1,000" -> "1000"; times and versions ("10:30", "1.2.3") as written. */
export function canonicalNumber(raw: string): string {
  const s = raw.replace(/,/g, '');
  const m = /^(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) return s;
  const int = (m[1] ?? '').replace(/^0+(?=\d)/, '');
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

// A word, optionally joined to more by "::", "." or ":" (identifiers, versions, times) or by a
// thousands comma ("1,000"). Hyphens and slashes split: "30-day" and "and/or" are not identifiers.
const TOKEN = /[\p{L}\p{N}_]+(?:(?:::|[.:]|,(?=\d{3}(?!\d)))[\p{L}\p{N}_]+)*/gu;
const PURE_NUMBER = /^\d+(?:[.,:]\d+)*$/;
// A number with a short unit or ordinal glued on: "10ms", "5GB", "2nd". The number is the fact.
const NUMBER_WITH_UNIT = /^(\d+(?:\.\d+)?)\p{L}{1,3}$/u;
// "e.g", "i.e", "U.S", "a.m": dotted single letters are abbreviations, not identifiers.
const DOTTED_ABBREVIATION = /^(?:\p{L}\.)+\p{L}$/u;

function isCodeish(token: string): boolean {
  return (
    token.includes('_') ||
    token.includes('::') ||
    /[\p{L}\p{N}][.:][\p{L}\p{N}]/u.test(token) || // foo.bar, Node.js, v1.2.3, key:value
    /\p{Ll}\p{Lu}/u.test(token) || // camelCase, GitHub, iOS
    (/\p{L}/u.test(token) && /\p{N}/u.test(token)) // sha256, ed25519, x86
  );
}

/**
 * Hard facts of a sentence (citation markers already removed): double-quoted strings, backticked
 * spans, numbers (with thousands separators, decimals, percent, dates split into their parts) and
 * code-ish identifiers. Deduplicated by kind and value, in order of appearance.
 */
export function extractFacts(sentence: string): Fact[] {
  const facts: Fact[] = [];
  const seen = new Set<string>();
  const add = (kind: FactKind, surface: string, value: string) => {
    const key = `${kind}\0${value}`;
    if (value === '' || seen.has(key)) return;
    seen.add(key);
    facts.push({ kind, surface, value });
  };
  // Quotes and code spans first, then blank them so their words are not counted twice.
  let rest = sentence.replace(/"([^"\n]{1,300}?)"|\u201C([^\u201D\n]{1,300}?)\u201D/g, (m, a?: string, b?: string) => {
    add('quote', m, wordSequence(a ?? b ?? ''));
    return ' ';
  });
  rest = rest.replace(/`([^`\n]+)`/g, (m, code: string) => {
    add('identifier', m, wordSequence(code));
    return ' ';
  });
  // "1 000" with a no-break or thin space is one number, as in normaliseText.
  rest = rest.replace(/(\d)[\u00A0\u2009\u202F](?=\d{3}(?!\d))/g, '$1,');
  for (const [token] of rest.normalize('NFKC').matchAll(TOKEN)) {
    const bare = trimUnderscores(token);
    if (bare === '') continue;
    const unit = NUMBER_WITH_UNIT.exec(bare);
    if (PURE_NUMBER.test(bare)) add('number', token, canonicalNumber(bare));
    else if (unit) add('number', token, canonicalNumber(unit[1] ?? ''));
    else if (DOTTED_ABBREVIATION.test(bare)) continue;
    else if (isCodeish(bare)) add('identifier', token, wordSequence(bare));
  }
  return facts;
}

/** Numbers a text offers: every number as written, the parts of times and versions, and small number words. */
function numbersIn(normalised: string, into: Set<string>): void {
  for (const [n] of normalised.matchAll(/\d+(?:[.:]\d+)*/g)) {
    into.add(canonicalNumber(n));
    // "10:30" also says 10; "1.2.3" also says 1, 2 and 3. A plain decimal "3.5" does not say 5.
    if (n.includes(':') || (n.match(/\./g)?.length ?? 0) > 1) {
      for (const part of n.split(/[.:]/)) into.add(canonicalNumber(part));
    }
  }
  for (const [w] of normalised.matchAll(/\p{L}+/gu)) {
    const v = NUMBER_WORDS.get(w);
    if (v !== undefined) into.add(v);
  }
}

export function buildEvidence(texts: readonly string[]): Evidence {
  const numbers = new Set<string>();
  const stems = new Set<string>();
  for (const t of texts) {
    numbersIn(normaliseText(t), numbers);
    for (const s of contentStems(t)) stems.add(s);
  }
  return { numbers, stems, words: texts.map((t) => ` ${wordSequence(t)} `).join('\n') };
}

export function mergeEvidence(parts: readonly Evidence[]): Evidence {
  return {
    numbers: new Set(parts.flatMap((p) => [...p.numbers])),
    stems: new Set(parts.flatMap((p) => [...p.stems])),
    words: parts.map((p) => p.words).join('\n'),
  };
}

export function factPresent(fact: Fact, evidence: Evidence): boolean {
  if (fact.kind === 'number') return evidence.numbers.has(fact.value);
  return evidence.words.includes(` ${fact.value} `);
}

/** Share of the sentence's content words found in the evidence; 1 when it has none to judge. */
export function contentOverlap(sentence: string, evidence: Evidence): number {
  const words = contentStems(sentence);
  if (words.size === 0) return 1;
  let found = 0;
  for (const w of words) if (evidence.stems.has(w)) found++;
  return found / words.size;
}
