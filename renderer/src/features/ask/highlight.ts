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
 * chosen. A sentence wrapped over several lines is marked whole: each run of chosen lines grows
 * into a neighbour while that neighbour holds sentence words the run has not yet covered (so it
 * stops once the sentence is covered, and at a blank line). Empty when nothing matches (the caller
 * then marks the whole chunk).
 */
export function bestLines(lines: readonly string[], sentence: string | null): number[] {
  if (!sentence) return [];
  const wanted = contentWords(sentence);
  if (wanted.size === 0) return [];
  const found = lines.map((l) => [...contentWords(l)].filter((w) => wanted.has(w)));
  const best = Math.max(0, ...found.map((f) => f.length));
  if (best === 0) return [];
  const floor = Math.max(1, Math.ceil(best / 2));
  const marked = new Set(found.flatMap((f, i) => (f.length >= floor ? [i] : [])));
  for (const start of [...marked]) {
    const covered = new Set(found[start]);
    const adds = (i: number) => i >= 0 && i < lines.length && !marked.has(i) && found[i]!.some((w) => !covered.has(w));
    const take = (i: number) => {
      marked.add(i);
      for (const w of found[i]!) covered.add(w);
    };
    for (let i = start + 1; covered.size < wanted.size && adds(i); i++) take(i);
    for (let i = start - 1; covered.size < wanted.size && adds(i); i--) take(i);
  }
  return [...marked].sort((a, b) => a - b);
}
