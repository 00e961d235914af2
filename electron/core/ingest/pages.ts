/**
 * Pages of a line range, from a paged reader's map (`ReadResult.pages`: the line each page starts
 * on). Chunkers know lines only; the pages follow from them, so every chunker gets them alike.
 */
export function pagesOfLines(pageStarts: readonly number[] | undefined, startLine: number, endLine: number): [number, number] | null {
  if (!pageStarts || pageStarts.length === 0) return null;
  return [pageOfLine(pageStarts, startLine), pageOfLine(pageStarts, endLine)];
}

/**
 * The last page starting on or before the line: a page without text shares the next one's start
 * and loses to it. A linear scan: even a thousand pages cost less than reading one of them.
 */
function pageOfLine(starts: readonly number[], line: number): number {
  return Math.max(starts.findLastIndex((s) => s <= line), 0) + 1;
}
