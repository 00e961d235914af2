import { decodeText } from './decode';
import { asTextLine, atxHeading, fenceFor } from './markdown-lines';
import type { ReaderModule, ReadResult } from './types';

export const orgReader = {
  name: 'org',
  read(bytes) {
    return parseOrg(decodeText(bytes));
  },
} satisfies ReaderModule;

/**
 * Org mode (Emacs notes) read into the Markdown the chunkers know, line for line, so citations point
 * at the file's own lines:
 * - `* Heading` (stars at column 0) becomes an ATX heading of as many `#`, at most six; a TODO
 *   keyword, priority and trailing `:tags:` stay, as people read them in their agenda;
 * - `#+BEGIN_SRC lang` … `#+END_SRC` and `#+BEGIN_EXAMPLE` … become fences (code is one piece, and
 *   a `* ` in it is no heading; a fence longer than any backtick run in the code, and Org's comma
 *   escapes (`,* item`) removed); other blocks' delimiters (`#+BEGIN_QUOTE`) go blank, their text stays;
 * - `#+TITLE:` gives the title, `#+CAPTION:`, `#+SUBTITLE:`, `#+AUTHOR:` and `#+DESCRIPTION:` show
 *   their value; other `#+KEYWORD:` lines, `# comments`, `:PROPERTIES:` … `:END:`
 *   drawers and `#+BEGIN_COMMENT` blocks go blank: a reader of the exported note never sees them;
 * - `[[address][text]]` becomes `[text](address)` (keyword search leaves the address out) and
 *   `[[address]]` stays readable as the address.
 */
export function parseOrg(source: string): ReadResult {
  const lines = source.split('\n');
  let title: string | null = null;
  let firstHeading: string | null = null;
  let block: { kind: 'code' | 'comment'; name: string; fence: string } | null = null;
  let drawer = false;
  const ends = blockEnds(lines);
  const drawerEnds = nextIndex(lines, (l) => DRAWER_END.test(l));
  const headings = nextIndex(lines, (l) => HEADING.test(l));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const end = BLOCK_END.exec(line);
    if (block !== null) {
      // A block ends at the `#+END_` of its own name: `#+END_QUOTE` in a source block is code.
      if (end && end[1]!.toLowerCase() === block.name) {
        lines[i] = block.kind === 'code' ? block.fence : '';
        block = null;
      } else if (block.kind === 'comment') lines[i] = '';
      // Org escapes a code line that would read as a heading or keyword with a comma (`,* item`).
      else lines[i] = line.replace(/^(\s*),(?=,*(?:\*|#\+))/, '$1');
      continue;
    }
    if (drawer) {
      if (DRAWER_END.test(line)) drawer = false;
      lines[i] = '';
      continue;
    }
    const begin = /^\s*#\+begin_(\w+)(?:\s+(\S+))?/i.exec(line);
    if (begin) {
      const name = begin[1]!.toLowerCase();
      // As Org parses it, a block is one only with its `#+END_`: unclosed, its lines are text.
      const close = ends(name, i);
      if (close < lines.length && (name === 'src' || name === 'example')) {
        const fence = fenceFor(lines.slice(i + 1, close));
        // `#+BEGIN_SRC python -n :results output`: the language, not a switch or a header argument.
        const language = name === 'src' && begin[2] && !/^[-+:]/.test(begin[2]) ? begin[2] : '';
        lines[i] = fence + language;
        block = { kind: 'code', name, fence };
      } else if (close < lines.length && name === 'comment') {
        lines[i] = '';
        block = { kind: 'comment', name, fence: '' };
      } else lines[i] = '';
      continue;
    }
    if (end) {
      lines[i] = '';
      continue;
    }
    const keyword = /^\s*#\+(\w+):\s*(.*)$/.exec(line);
    if (keyword) {
      const name = keyword[1]!.toLowerCase();
      if (name === 'title' && keyword[2]!.trim() !== '') title ??= linksAsMarkdown(keyword[2]!.trim());
      // What an export shows of the rest: a table's or figure's caption, the subtitle, author, description.
      lines[i] = SHOWN_KEYWORDS.has(name) ? asTextLine(linksAsMarkdown(keyword[2]!.trim())) : '';
      continue;
    }
    if (/^\s*#(?:\s|$)/.test(line)) {
      lines[i] = '';
      continue;
    }
    // A drawer's opening (`:PROPERTIES:`, `:LOGBOOK:`) up to its `:END:`, which must come before the
    // next heading (else, as in Org, the line is text: `:smile:`); a stray `:END:` opens nothing.
    const drawerName = /^\s*:([\w-]+):\s*$/.exec(line);
    if (drawerName && (drawerName[1]!.toLowerCase() === 'end' || drawerEnds[i + 1]! < headings[i + 1]!)) {
      drawer = drawerName[1]!.toLowerCase() !== 'end';
      lines[i] = '';
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const text = linksAsMarkdown(heading[2]!.trim());
      firstHeading ??= text;
      lines[i] = atxHeading(heading[1]!.length, text);
      continue;
    }
    lines[i] = asTextLine(linksAsMarkdown(line));
  }
  return { text: lines.join('\n'), title: title ?? firstHeading, ...(title === null && firstHeading !== null ? { titleIsHeading: true } : {}), firstLine: 1 };
}

const HEADING = /^(\*+)\s+(.*)$/;
/** `#+END_name`: group 1 the block's name. */
const BLOCK_END = /^\s*#\+end_(\w+)/i;
const DRAWER_END = /^\s*:end:\s*$/i;

/** For each line, the first line from it on that passes `test` (lines.length if none): one pass from the end. */
function nextIndex(lines: readonly string[], test: (line: string) => boolean): Int32Array {
  const next = new Int32Array(lines.length + 1).fill(lines.length);
  for (let i = lines.length - 1; i >= 0; i--) next[i] = test(lines[i]!) ? i : next[i + 1]!;
  return next;
}

/**
 * `(name, i)`: the first `#+END_name` line after line i, or lines.length. The ends are listed once
 * and each name's cursor only moves forward, so a file of unclosed blocks is still read in one pass.
 */
function blockEnds(lines: readonly string[]): (name: string, after: number) => number {
  const byName = new Map<string, number[]>();
  lines.forEach((l, i) => {
    const m = BLOCK_END.exec(l);
    if (m) {
      const name = m[1]!.toLowerCase();
      if (!byName.has(name)) byName.set(name, []);
      byName.get(name)!.push(i);
    }
  });
  const cursor = new Map<string, number>();
  return (name, after) => {
    const list = byName.get(name) ?? [];
    let c = cursor.get(name) ?? 0;
    while (c < list.length && list[c]! <= after) c++;
    cursor.set(name, c);
    return c < list.length ? list[c]! : lines.length;
  };
}

/** Keywords whose value a reader of the exported note sees (the title is the document's title). */
const SHOWN_KEYWORDS = new Set(['caption', 'subtitle', 'author', 'description']);

/** `[[address][text]]` as `[text](address)`; `[[address]]` as its address, which is what shows. */
function linksAsMarkdown(line: string): string {
  if (!line.includes('[[')) return line;
  return line.replace(/\[\[([^\][]+)\]\[([^\][]+)\]\]/g, (_, address: string, text: string) => `[${text}](${address.replace(/\s/g, '%20')})`).replace(/\[\[([^\][]+)\]\]/g, '$1');
}
