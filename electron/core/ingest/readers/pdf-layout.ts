// From positioned text items to lines of text, with Markdown-style headings, because the chunkers
// read sections from `#` lines whatever the format. Pure functions over pdfjs's text items, so
// they are tested without a PDF.
import { collapseWhitespace } from '../../text/normalise';

/** The part of pdfjs's TextItem this needs (transform[5] is the baseline's y, transform[4] its x). */
export interface TextPiece {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

export interface LaidLine {
  text: string;
  /** The tallest glyph height on the line: its font size, as near as a PDF tells. */
  size: number;
  /** A blank line belongs before it (a paragraph gap above it on the page). */
  gapBefore: boolean;
}

/**
 * Lines of one page in content order: a piece starts a new line after an end-of-line mark or when
 * its baseline moves by more than half a line. Pieces on one line are joined, with a space where
 * the page leaves a gap between them and neither side brings its own.
 */
export function layLines(pieces: readonly TextPiece[]): LaidLine[] {
  const lines: LaidLine[] = [];
  let text = '';
  let size = 0;
  let y: number | null = null;
  let prevY: number | null = null;
  let prevSize = 0;
  let endX = 0;
  let breakNext = false;
  const flush = () => {
    const clean = collapseWhitespace(text);
    if (clean.length > 0) {
      // A drop of more than 1.6 lines from the line above: a paragraph gap (or a heading's margin).
      const gapBefore = prevY !== null && y !== null && prevY - y > 1.6 * Math.max(size, prevSize);
      lines.push({ text: clean, size, gapBefore });
      prevY = y;
      prevSize = size;
    }
    text = '';
    size = 0;
    y = null;
  };
  for (const p of pieces) {
    const str = p.str.replace(CONTROL_CHARS, ' ');
    const px = p.transform[4] ?? 0;
    const py = p.transform[5] ?? 0;
    if (str.length > 0) {
      if (y !== null && (breakNext || Math.abs(py - y) > 0.5 * Math.max(p.height, size, 1))) flush();
      if (y === null) {
        y = py;
      } else if (px - endX > 0.15 * Math.max(p.height, size) && !/\s$/.test(text) && !/^\s/.test(str)) {
        text += ' ';
      }
      text += str;
      size = Math.max(size, p.height);
      endX = px + p.width;
      breakNext = false;
    }
    if (p.hasEOL) breakNext = true;
  }
  flush();
  return lines;
}

// NUL and other C0/C1 controls (a PDF's strings may hold anything): never indexed.
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The font size most of the text is set in: the body, against which headings stand out. */
export function bodySize(pages: readonly LaidLine[][]): number {
  const chars = new Map<number, number>();
  for (const line of pages.flat()) {
    const key = Math.round(line.size * 2) / 2;
    chars.set(key, (chars.get(key) ?? 0) + line.text.length);
  }
  let best = 0;
  let most = -1;
  for (const [size, n] of chars) if (n > most) [best, most] = [size, n];
  return best;
}

/** Heading levels (1–3) of lines, keyed by page index and line index. */
export type HeadingLevels = Map<string, number>;
export const headingKey = (page: number, line: number) => `${page}:${line}`;

/** Taller than the body by this much, and short: a heading, not a large-print paragraph. */
const HEADING_RATIO = 1.15;
const MAX_HEADING_CHARS = 120;

/**
 * Headings by font size: the largest size above the body is level 1, the next level 2, the rest
 * level 3. Used when the outline names none of the lines.
 */
export function headingsBySize(pages: readonly LaidLine[][]): HeadingLevels {
  const body = bodySize(pages);
  const levels: HeadingLevels = new Map();
  if (body <= 0) return levels;
  const isHeading = (l: LaidLine) => l.size >= body * HEADING_RATIO && l.text.length <= MAX_HEADING_CHARS && /\p{L}/u.test(l.text);
  const sizes = [...new Set(pages.flat().filter(isHeading).map((l) => Math.round(l.size * 2) / 2))].sort((a, b) => b - a);
  pages.forEach((lines, p) =>
    lines.forEach((l, i) => {
      if (isHeading(l)) levels.set(headingKey(p, i), Math.min(sizes.indexOf(Math.round(l.size * 2) / 2) + 1, 3));
    }),
  );
  return levels;
}

/** An outline entry: its title, depth (0 = top) and the 0-based page it points at, if known. */
export interface OutlineEntry {
  title: string;
  depth: number;
  page: number | null;
}

/**
 * Headings from the outline (bookmarks): a line whose text is an entry's title, on the page the
 * entry points at (or anywhere, when it points nowhere known), at the entry's depth.
 */
export function headingsFromOutline(pages: readonly LaidLine[][], outline: readonly OutlineEntry[]): HeadingLevels {
  const levels: HeadingLevels = new Map();
  const norm = (s: string) => collapseWhitespace(s).toLowerCase();
  for (const entry of outline) {
    const title = norm(entry.title);
    if (title.length === 0) continue;
    const candidates = entry.page !== null ? [entry.page] : pages.map((_, i) => i);
    found: for (const p of candidates) {
      const lines = pages[p] ?? [];
      for (let i = 0; i < lines.length; i++) {
        const key = headingKey(p, i);
        if (!levels.has(key) && norm(lines[i]!.text) === title) {
          levels.set(key, Math.min(entry.depth + 1, 3));
          break found;
        }
      }
    }
  }
  return levels;
}

/**
 * The text a page contributes. Heading lines become `#` lines; a body line that would read as
 * Markdown structure (a `#`, a code fence, a setext underline) is escaped so it stays a sentence.
 */
export function pageText(lines: readonly LaidLine[], level: (line: number) => number | undefined): string[] {
  const out: string[] = [];
  lines.forEach((l, i) => {
    const h = level(i);
    if (out.length > 0 && (l.gapBefore || h !== undefined) && out.at(-1) !== '') out.push('');
    if (h !== undefined) {
      out.push(`${'#'.repeat(h)} ${l.text}`);
      out.push('');
    } else {
      out.push(/^(#|```|~~~|[=-]+$)/.test(l.text) ? `\\${l.text}` : l.text);
    }
  });
  while (out.at(-1) === '') out.pop();
  return out;
}
