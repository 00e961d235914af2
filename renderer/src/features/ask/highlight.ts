const STOP = new Set(
  'the a an and or but of to in on at for with by from as is are was were be been it its this that these those you your we our they their he she his her not no yes do does did can will would should could has have had than then there here which who what when where how why into about after before also only all any each'.split(
    ' ',
  ),
);

/** Lower-cased content words (letters/digits, 2+ characters, no stop words). */
export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+(?:[.'’-][\p{L}\p{N}]+)*/gu) ?? [];
  return new Set(words.filter((w) => (w.length > 1 || /\d/.test(w)) && !STOP.has(w)));
}

/**
 * Indices of the chunk's lines that best carry the cited sentence: each line is scored by how many
 * of the sentence's content words it contains; lines scoring at least half the best line are
 * chosen. Empty when nothing matches (the caller then marks the whole chunk).
 */
export function bestLines(lines: readonly string[], sentence: string | null): number[] {
  if (!sentence) return [];
  const wanted = contentWords(sentence);
  if (wanted.size === 0) return [];
  const scores = lines.map((l) => {
    let s = 0;
    for (const w of contentWords(l)) if (wanted.has(w)) s++;
    return s;
  });
  const best = Math.max(0, ...scores);
  if (best === 0) return [];
  const floor = Math.max(1, Math.ceil(best / 2));
  return scores.flatMap((s, i) => (s >= floor ? [i] : []));
}
