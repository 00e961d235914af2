import { formatPages } from '../../../shared/pages';

/** Small formatting helpers for numbers people read. */

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** "4 s", "2 min 05 s", "1 h 03 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}

/** A date and time; with seconds, two runs minutes or seconds apart still read differently. */
export function formatDate(iso: string, { seconds = false, year = true }: { seconds?: boolean; year?: boolean } = {}): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { ...(year ? { year: 'numeric' } : {}), month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) });
}

/** "1 question", "2,000 questions". */
export { plural } from '../../../shared/plural';

/** "lines 3–9", or "line 3" for a single line. */
export function formatLines(lines: readonly [number, number] | null): string {
  if (!lines) return 'lines unknown';
  return lines[0] === lines[1] ? `line ${lines[0]}` : `lines ${lines[0]}–${lines[1]}`;
}

/** Where a passage is: "p. 12" in a PDF (its lines are only those of the extracted text), else its lines. */
export function formatPlace(lines: readonly [number, number] | null, pages: readonly [number, number] | null | undefined): string {
  return pages ? formatPages(pages) : formatLines(lines);
}

/** Remaining time estimated from bytes done so far; null until there is enough to go on. */
export function remainingMs(elapsedMs: number, bytesDone: number, bytesTotal: number): number | null {
  if (bytesDone <= 0 || bytesTotal <= 0 || elapsedMs < 500) return null;
  if (bytesDone >= bytesTotal) return 0;
  return (elapsedMs * (bytesTotal - bytesDone)) / bytesDone;
}
