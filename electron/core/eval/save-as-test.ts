import { randomUUID } from 'node:crypto';
import { stripCitations } from '../answer/citations';
import { collapseWhitespace } from '../text/normalise';
import { contentStems } from '../text/stems';

/** Long enough to pin the passage, short enough to survive a different chunker's boundaries. */
const MAX_FACT_CHARS = 160;

/**
 * The passage of a cited chunk that a citing sentence rests on, as an exact (whitespace-collapsed)
 * substring of the chunk: the chunk's sentence or line sharing the most content words with the
 * citing sentence. A whole chunk would be a poor expectation: another chunker cuts it differently,
 * and an evaluation should ask whether the fact was found, not whether the same boundaries were.
 */
export function factFromChunk(chunkText: string, citingSentence: string): string {
  const wanted = contentStems(stripCitations(citingSentence));
  const pieces = chunkText
    .split(/\n+|(?<=[.!?])\s+(?=[\p{Lu}\d"'`(])/u)
    .map(collapseWhitespace)
    // Markdown markers at the start are layout, not content; dropping a prefix keeps it a substring.
    .map((p) => p.replace(/^(?:#{1,6}\s+|[-*+>]\s+|\d+[.)]\s+)+/, ''))
    .filter((p) => /\p{L}/u.test(p));
  if (pieces.length === 0) return clip(collapseWhitespace(chunkText));
  let best = pieces[0]!;
  let bestScore = -1;
  for (const p of pieces) {
    const stems = contentStems(p);
    let shared = 0;
    for (const s of stems) if (wanted.has(s)) shared++;
    // Ties go to the longer piece: more of the fact, fewer accidental matches elsewhere.
    if (shared > bestScore || (shared === bestScore && p.length > best.length)) {
      best = p;
      bestScore = shared;
    }
  }
  return clip(best);
}

function clip(text: string): string {
  if (text.length <= MAX_FACT_CHARS) return text;
  const cut = text.slice(0, MAX_FACT_CHARS);
  const space = cut.lastIndexOf(' ');
  return space > MAX_FACT_CHARS / 2 ? cut.slice(0, space) : cut;
}

/** A readable, unique id from the question's first words. */
export function questionId(question: string, taken: ReadonlySet<string>): string {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu)?.slice(0, 6).join('-') ?? '';
  const base = words.slice(0, 48) || 'question';
  if (!taken.has(base)) return base;
  for (let n = 2; n < 1000; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  return `${base}-${randomUUID().slice(0, 8)}`;
}
