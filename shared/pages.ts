/** Where a passage is: "notes/a.pdf, p. 12" from a PDF, else "notes/a.md:3-9" (the UI passes an en dash). */
export function formatWhere(path: string, lines: readonly [number, number] | null | undefined, pages: readonly [number, number] | null | undefined, dash = '-'): string {
  return pages ? `${path}, ${formatPages(pages)}` : `${path}:${lines?.[0]}${dash}${lines?.[1]}`;
}

/** "p. 12" or "pp. 3–4": a PDF page range as the CLI and the UI write it. */
export function formatPages(pages: readonly [number, number]): string {
  return pages[0] === pages[1] ? `p. ${pages[0]}` : `pp. ${pages[0]}–${pages[1]}`;
}
