// Just enough Markdown structure for chunking: ATX headings, fenced code, paragraphs. A line
// starting with '#' inside a fence is code, not a heading; an unclosed fence runs to the end.
import { isSpace } from './text';
import { collapseWhitespace } from '../../text/normalise';

export type BlockKind = 'heading' | 'text' | 'fence';

export interface Block {
  kind: BlockKind;
  /** Offsets of the block's first character and just past its last line (newline excluded). */
  start: number;
  end: number;
  /** For headings of level 1-3: the heading path this heading opens. */
  path?: string[];
}

export interface Outline {
  blocks: Block[];
  /** Headings of level 1-3 in order, each with the path in force from its line on. */
  headings: { start: number; path: string[] }[];
  /** The path before the first heading: the title alone. */
  rootPath: string[];
}

/** Longest heading or title kept in a path; a 50 MB "# ..." line must not become a prefix. */
const MAX_NAME_CHARS = 200;

export function cleanName(raw: string): string {
  const name = collapseWhitespace(raw);
  return name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS - 1)}…` : name;
}

/** Names compared as read: case and inline markup (`code`, *emphasis*) aside. */
function sameName(a: string, b: string): boolean {
  const plain = (s: string) => collapseWhitespace(s.replace(/[*_`]/g, ''));
  return plain(a).localeCompare(plain(b), undefined, { sensitivity: 'accent' }) === 0;
}

/** Index of the first non-space/tab character at or after `from`, at most 3 columns in. */
function indentEnd(text: string, from: number, lineEnd: number): number {
  let i = from;
  while (i < lineEnd && i - from < 4 && text.charCodeAt(i) === 32) i++;
  return i - from <= 3 ? i : -1;
}

/** ATX heading at this line: level 1-6 and its text, or null. */
function atxHeading(text: string, ls: number, le: number): { level: number; name: string } | null {
  const i = indentEnd(text, ls, le);
  if (i < 0 || text.charCodeAt(i) !== 35) return null;
  let j = i;
  while (j < le && text.charCodeAt(j) === 35) j++;
  const level = j - i;
  if (level > 6) return null;
  if (j < le && text.charCodeAt(j) !== 32 && text.charCodeAt(j) !== 9 && text.charCodeAt(j) !== 13) return null;
  const rest = text.slice(j, Math.min(le, j + 4 * MAX_NAME_CHARS)).trim();
  const name = rest.replace(/(^|[ \t])#+$/, '').trim();
  return { level, name: /^#+$/.test(name) ? '' : name };
}

interface Fence {
  char: number;
  length: number;
  /**
   * Column of a list item's content when the fence opened on its marker line (`1. ```bash`: 3), else
   * 0: the closing fence may be indented up to 3 columns past it.
   */
  marker: number;
}

/** Column reached from `col` by the character `c`: a tab stops at the next multiple of 4 (CommonMark). */
function advance(col: number, c: number): number {
  return c === 9 ? col + 4 - (col % 4) : col + 1;
}

/**
 * Characters of a list marker (`- `, `* `, `+ `, `12. `, `3) `) and the spaces or tabs after it,
 * starting at `i` (column `col`), or 0. After 5 or more columns of them the item's text is
 * indented code (CommonMark), so what follows is no fence: 0 too.
 */
function listMarkerEnd(text: string, i: number, col: number, le: number): number {
  let j = i;
  const c = text.charCodeAt(j);
  if (c === 45 || c === 42 || c === 43) j++;
  else {
    while (j < le && j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
    if (j === i || (text.charCodeAt(j) !== 46 && text.charCodeAt(j) !== 41)) return 0;
    j++;
  }
  const markerEnd = col + (j - i);
  let at = markerEnd;
  while (j < le && at - markerEnd <= 4 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) at = advance(at, text.charCodeAt(j++));
  return at > markerEnd && at - markerEnd <= 4 ? j - i : 0;
}

/**
 * Opening fence (``` or ~~~, 3+ long) at this line, or null: at the line's start, or after a list
 * item's marker, where a step's command often opens (`1. ```bash`). Missed there, the item's closing
 * fence would open a fence instead and hide the headings after it.
 */
function fenceOpen(text: string, ls: number, le: number): Fence | null {
  const start = indentEnd(text, ls, le);
  if (start < 0) return null;
  const marker = listMarkerEnd(text, start, start - ls, le);
  const i = start + marker;
  const char = text.charCodeAt(i);
  if (char !== 96 && char !== 126) return null;
  let j = i;
  while (j < le && text.charCodeAt(j) === char) j++;
  if (j - i < 3) return null;
  if (char === 96) for (let k = j; k < le; k++) if (text.charCodeAt(k) === 96) return null;
  let column = 0;
  if (marker > 0) for (let k = ls; k < i; k++) column = advance(column, text.charCodeAt(k));
  return { char, length: j - i, marker: column };
}

/**
 * A closing fence: indented at most 3 columns past the content of the list item the fence opened
 * in (past the line's start otherwise), a tab counted to its stop: an item opened with a tab after
 * its marker is often closed by a tab-indented fence.
 */
function fenceCloses(text: string, ls: number, le: number, fence: Fence): boolean {
  let i = ls;
  let column = 0;
  while (i < le && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) {
    column = advance(column, text.charCodeAt(i++));
    if (column > fence.marker + 3) return false;
  }
  let j = i;
  while (j < le && text.charCodeAt(j) === fence.char) j++;
  if (j - i < fence.length) return false;
  for (let k = j; k < le; k++) if (!isSpace(text.charCodeAt(k))) return false;
  return true;
}

function isBlank(text: string, ls: number, le: number): boolean {
  for (let k = ls; k < le; k++) if (!isSpace(text.charCodeAt(k))) return false;
  return true;
}

/**
 * Blocks and heading paths. Path rule: the title, then the enclosing H1, H2 and H3, except a
 * heading that merely repeats the title (the document's first H1, or its very first heading). Headings of level 4-6 are body
 * text: they end a paragraph but open no section.
 */
export function parseOutline(text: string, title: string): Outline {
  const rootName = cleanName(title) || 'Untitled';
  const rootPath = [rootName];
  const blocks: Block[] = [];
  const headings: Outline['headings'] = [];
  const levels: (string | null)[] = [null, null, null];
  let seenH1 = false;
  let para: Block | null = null;
  let fence: { block: Block; fence: Fence } | null = null;

  for (let ls = 0; ls < text.length; ) {
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    if (fence) {
      fence.block.end = le;
      if (fenceCloses(text, ls, le, fence.fence)) fence = null;
    } else if (isBlank(text, ls, le)) {
      para = null;
    } else {
      const opened = fenceOpen(text, ls, le);
      const heading = opened ? null : atxHeading(text, ls, le);
      if (opened) {
        para = null;
        const block: Block = { kind: 'fence', start: ls, end: le };
        blocks.push(block);
        fence = { block, fence: opened };
      } else if (heading) {
        para = null;
        const block: Block = { kind: heading.level <= 3 ? 'heading' : 'text', start: ls, end: le };
        if (heading.level <= 3) {
          const name = cleanName(heading.name);
          // The title is often the document's first heading (of any level when there is no H1):
          // the path does not say it twice.
          const repeatsTitle = sameName(name, rootName) && (heading.level === 1 ? !seenH1 : headings.length === 0);
          levels[heading.level - 1] = repeatsTitle ? null : name;
          if (heading.level === 1) seenH1 = true;
          for (let l = heading.level; l < 3; l++) levels[l] = null;
          block.path = [rootName, ...levels.filter((n): n is string => !!n)];
          headings.push({ start: ls, path: block.path });
        }
        blocks.push(block);
      } else if (para) {
        para.end = le;
      } else {
        para = { kind: 'text', start: ls, end: le };
        blocks.push(para);
      }
    }
    ls = le + 1;
  }
  return { blocks, headings, rootPath };
}

/** Heading path in force at `offset`, for chunkers that cut without regard to sections. */
export function outlinePathAt(outline: Outline, offset: number): string[] {
  const { headings } = outline;
  let lo = 0;
  let hi = headings.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (headings[mid]!.start <= offset) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found < 0 ? outline.rootPath : headings[found]!.path;
}
