/**
 * Rough "what is this about" words: stemmed content words, compared between a cited sentence and
 * its chunks (answer/) and used to pick a question's fact from a chunk (eval/). No dictionary:
 * the same cheap rules run on both sides, so consistency matters, not linguistic accuracy.
 */
import { normaliseText } from './normalise';
import { CONTENT_STOPWORDS } from './word-lists';

/**
 * Very small suffix stripper (plural s/es/ies, -ing, -ed, final e, doubled consonant). "rotate",
 * "rotates", "rotated" and "rotating" all become "rotat"; over-merging a few words is harmless here.
 */
export function stem(word: string): string {
  let s = word;
  if (s.length > 4 && s.endsWith('ies')) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (s.length > 4 && /(?:[sxz]|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.length >= 4 && s.endsWith('s') && !/(?:ss|us|is)$/.test(s)) s = s.slice(0, -1);

  if (s.length > 4 && s.endsWith('ied')) s = `${s.slice(0, -3)}y`;
  else if (s.length >= 5 && s.endsWith('ing')) s = undouble(s.slice(0, -3));
  else if (s.length >= 4 && s.endsWith('ed')) s = undouble(s.slice(0, -2));

  if (s.length > 2 && s.endsWith('e')) s = s.slice(0, -1);
  return s;
}

function undouble(s: string): string {
  // "stopp" -> "stop", "runn" -> "run"; but "call", "pass", "buzz" keep their double letter.
  return /([^aeiouylsz])\1$/.test(s) ? s.slice(0, -1) : s;
}

/** Stemmed content words: lower case, no stopwords, no bare numbers (those are facts), no 1-letter words. */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of normaliseText(text).match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (w.length < 2 || !/\p{L}/u.test(w) || CONTENT_STOPWORDS.has(w)) continue;
    out.add(stem(w));
  }
  return out;
}

/**
 * How many of a question's content stems (contentStems) a text holds: its relevance to the question,
 * counted the same way for every chunk of a search. Accents are left out on both sides, as the
 * keyword index leaves them out ("cancion" finds "canción"). A search counts a hundred chunks or so:
 * only the words that begin as one of the question's stems does (a stem is its word's start, but
 * for -ies/-ied → y) are stemmed, each distinct word once.
 */
export function questionWords(question: string): (text: string) => number {
  const wanted = contentStems(withoutAccents(question));
  if (wanted.size === 0) return () => 0;
  const starts = [...new Set([...wanted].map((w) => (w.endsWith('y') && w.length > 1 ? w.slice(0, -1) : w)))];
  const candidates = new RegExp(`(?<![\\p{L}\\p{N}])(?:${starts.map(escapeRegExp).join('|')})[\\p{L}\\p{N}]*`, 'gu');
  const stems = new Map<string, string | null>();
  return (text) => {
    const found = new Set<string>();
    for (const [w] of withoutAccents(text.normalize('NFKC').toLowerCase()).matchAll(candidates)) {
      let s = stems.get(w);
      if (s === undefined) {
        const stemmed = w.length < 2 || CONTENT_STOPWORDS.has(w) ? null : stem(w);
        stems.set(w, (s = stemmed !== null && wanted.has(stemmed) ? stemmed : null));
      }
      if (s !== null) found.add(s);
    }
    return found.size;
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// ASCII text (most of it) has no accents to take off: the decomposition is skipped.
const withoutAccents = (text: string) => (/[^\x00-\x7f]/.test(text) ? text.normalize('NFD').replace(/\p{M}/gu, '') : text);
