/**
 * Rough "what is this about" words: stemmed content words, compared between a cited sentence and
 * its chunks (answer/) and used to pick a question's fact from a chunk (eval/). No dictionary:
 * the same cheap rules run on both sides, so consistency matters, not linguistic accuracy.
 */
import { escapeRegex, normaliseText } from './normalise';
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
 * keyword index leaves them out ("cancion" finds "canción"). Counted for a hundred chunks or so per
 * question, so only the words that begin as one of the question's stems does are stemmed (a stem
 * is its word's start, but for -ies/-ied → y), each distinct word once: about 5 µs a chunk.
 */
export function questionWords(question: string): (text: string) => number {
  const wanted = contentStems(withoutAccents(question));
  if (wanted.size === 0) return () => 0;
  const starts = [...new Set([...wanted].map((w) => (w.endsWith('y') && w.length > 1 ? w.slice(0, -1) : w)))];
  const candidates = new RegExp(`(?:${starts.map(escapeRegex).join('|')})[\\p{L}\\p{N}]*`, 'giu');
  const stems = new Map<string, string | null>();
  return (text) => {
    const found = new Set<string>();
    const t = withoutAccents(text);
    for (const m of t.matchAll(candidates)) {
      // A word's start only, not the middle of another word.
      if (m.index > 0 && WORD_CHAR.test(t[m.index - 1]!)) continue;
      const w = m[0].toLowerCase();
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

const WORD_CHAR = /[\p{L}\p{N}]/u;
// Only a letter or sign beyond ASCII can carry an accent (punctuation such as ’ and – cannot): most text skips the decomposition.
const withoutAccents = (text: string) => (/[^\x00-\x7f\u2000-\u206f]/.test(text) ? text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFKC') : text);
