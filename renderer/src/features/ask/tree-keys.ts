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
