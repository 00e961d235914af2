import type { Output } from '../../../../shared/contract';
import type { SourceTarget } from './SourcePanel';
import { plainSnippet } from '../../../../shared/plain-snippet';

type SearchResult = Output<'search'>['results'][number];

const SNIPPET_MAX = 280;

/**
 * The matched chunk, not the neighbour the passage opens with (the whole passage is what an answer
 * is sent), without the Markdown heading lines it opens with when they are the result's heading,
 * which the result already shows; as plain text, since the Markdown's marks are noise in a few lines.
 */
export function snippet(r: SearchResult): string {
  const headings = new Set(r.heading.split(' > ').map((h) => h.trim()));
  const lines = r.text.slice(r.hit.start, r.hit.end).split('\n');
  let first = 0;
  while (first < lines.length) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(lines[first]!);
    if (heading && headings.has(heading[1]!.trim())) first++;
    else if (first > 0 && lines[first]!.trim() === '') first++;
    else break;
  }
  const text = plainSnippet(lines.slice(first).join('\n'));
  return text.length > SNIPPET_MAX ? `${text.slice(0, SNIPPET_MAX)}…` : text;
}

/** A result opens in the source panel as a citation does: the hit highlighted, its passage around it. */
export function resultTarget(r: SearchResult, n: number): SourceTarget {
  return { chunkId: r.chunkId, title: `Search result ${n}`, check: null, sentence: null, sent: r.chunkIds };
}
