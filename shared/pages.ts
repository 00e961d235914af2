/** "p. 12" or "pp. 3–4": a PDF page range as the CLI and the UI write it. */
export function formatPages(pages: readonly [number, number]): string {
  return pages[0] === pages[1] ? `p. ${pages[0]}` : `pp. ${pages[0]}–${pages[1]}`;
}
