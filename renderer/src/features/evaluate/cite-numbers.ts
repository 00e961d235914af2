import { citeNumberer, splitCites } from '../ask/remark-cites';

/**
 * An answer with its `[chunk-id]` markers written as the numbers its citation list shows ([1], [2]…,
 * by first appearance, as the Ask view's chips), and those numbers by chunk id: a hash-like id means
 * nothing to a reader, and two configurations' answers then differ only where their words do.
 */
export function numberCitations(text: string): { text: string; numbers: ReadonlyMap<string, number> } {
  const next = citeNumberer();
  const numbers = new Map<string, number>();
  const parts = splitCites(text, (chunkId) => {
    const c = next(chunkId);
    numbers.set(chunkId, c.n);
    return c;
  });
  return { text: parts.map((p) => (typeof p === 'string' ? p : `[${p.n}]`)).join(''), numbers };
}
