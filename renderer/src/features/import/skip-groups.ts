import { plural } from '../../common/format';
import { skipReason } from '../../common/words';

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface SkipGroup {
  reason: string;
  /** "28 images (.svg 23, .png 5)" */
  title: string;
  /** skipReason's words for the reason. */
  why: string;
  paths: string[];
}

// What a person calls the files Quire does not read, so a summary says "28 images" rather than
// listing 28 lines. Anything else is a "file".
const KINDS: Array<[string, string[]]> = [
  ['image', ['.png', '.jpg', '.jpeg', '.gif', '.svg', '.webp', '.bmp', '.tif', '.tiff', '.heic', '.ico', '.avif']],
  ['audio file', ['.mp3', '.wav', '.ogg', '.flac', '.m4a', '.aac']],
  ['video', ['.mp4', '.mov', '.mkv', '.webm', '.avi']],
  ['archive', ['.zip', '.tar', '.gz', '.tgz', '.7z', '.rar', '.bz2', '.xz']],
  ['spreadsheet', ['.xls', '.xlsx', '.csv', '.ods', '.numbers']],
];

const extOf = (p: string) => {
  const base = p.slice(p.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
};

const kindOf = (ext: string) => KINDS.find(([, exts]) => exts.includes(ext))?.[0] ?? 'file';

/**
 * Skipped files grouped by reason, then by kind (images, archives, …), largest group first, each
 * titled with its count and its extensions by count: "28 images (.svg 23, .png 5)".
 */
export function groupSkipped(skipped: readonly SkippedFile[]): SkipGroup[] {
  const groups = new Map<string, { reason: string; kind: string; byExt: Map<string, number>; paths: string[] }>();
  for (const s of skipped) {
    const ext = extOf(s.path);
    const kind = s.reason === 'unsupported-type' ? kindOf(ext) : 'file';
    const key = `${s.reason}\u0000${kind}`;
    const g = groups.get(key) ?? { reason: s.reason, kind, byExt: new Map<string, number>(), paths: [] };
    g.byExt.set(ext || 'no extension', (g.byExt.get(ext || 'no extension') ?? 0) + 1);
    g.paths.push(s.path);
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => b.paths.length - a.paths.length || a.reason.localeCompare(b.reason) || a.kind.localeCompare(b.kind))
    .map((g) => {
      const exts = [...g.byExt].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([e, n]) => `${e} ${n}`);
      return { reason: g.reason, title: `${plural(g.paths.length, g.kind)} (${exts.join(', ')})`, why: skipReason(g.reason), paths: [...g.paths].sort() };
    });
}
