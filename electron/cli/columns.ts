/** Columns two spaces apart, sized to their contents; text columns (from index `textFrom`) left-aligned, numbers right. */
export function columns(head: string[], rows: string[][], textFrom = Infinity): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i >= textFrom ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(head), ...rows.map(line)];
}
