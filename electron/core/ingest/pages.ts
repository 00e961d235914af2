/**
 * Pages of a line range, from a paged reader's map (`ReadResult.pages`: the line each page starts
 * on). Chunkers know lines only; the pages follow from them, so every chunker gets them alike.
 */
export function pagesOfLines(pageStarts: readonly number[] | undefined, startLine: number, endLine: number): [number, number] | null {
  if (!pageStarts || pageStarts.length === 0) return null;
  return [pageOfLine(pageStarts, startLine), pageOfLine(pageStarts, endLine)];
}

/** The last page starting on or before the line: pages without text share the next one's start and lose to it. */
function pageOfLine(starts: readonly number[], line: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
