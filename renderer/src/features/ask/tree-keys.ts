/**
 * What a key does on a row of a WAI-ARIA tree (https://www.w3.org/WAI/ARIA/apg/patterns/treeview/):
 * the row to move focus to, 'open' or 'close' the row's folder, 'toggle' its tick, or null (the
 * key is not the tree's). `shown` is every row shown, in order; a closed folder's rows are not
 * rendered, so the document's order is the order shown.
 */
export function treeKeyMove(key: string, row: HTMLElement, shown: readonly HTMLElement[]): HTMLElement | 'open' | 'close' | 'toggle' | null {
  const at = shown.indexOf(row);
  const expanded = row.getAttribute('aria-expanded');
  switch (key) {
    case 'ArrowDown':
      return shown[at + 1] ?? row;
    case 'ArrowUp':
      return shown[at - 1] ?? row;
    case 'Home':
      return shown[0] ?? row;
    case 'End':
      return shown.at(-1) ?? row;
    case 'ArrowRight':
      if (expanded === 'false') return 'open';
      return expanded === 'true' ? (row.querySelector<HTMLElement>('[role="treeitem"]') ?? row) : row;
    case 'ArrowLeft':
      if (expanded === 'true') return 'close';
      return row.parentElement?.closest<HTMLElement>('[role="treeitem"]') ?? row;
    case ' ':
      return 'toggle';
    default:
      return null;
  }
}

/** How long after a typed character the next one continues the same name rather than starting another. */
export const TYPE_AHEAD_MS = 500;

/**
 * Type-ahead (WAI-ARIA tree pattern): the next row shown, after `row` and wrapping round, whose name
 * starts with what was typed, case and accents aside. A name typed on (`ga` after `g`) is looked for
 * from `row` itself, so the row already reached stays while it still matches. Null when none does.
 */
export function typeAheadMove(typed: string, row: HTMLElement, shown: readonly HTMLElement[], nameOf: (row: HTMLElement) => string, continuing: boolean): HTMLElement | null {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
  const wanted = fold(typed);
  const at = Math.max(0, shown.indexOf(row));
  for (let i = continuing ? 0 : 1; i <= shown.length; i++) {
    const candidate = shown[(at + i) % shown.length]!;
    if (fold(nameOf(candidate)).startsWith(wanted)) return candidate;
  }
  return null;
}
