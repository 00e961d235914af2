import { decodeText } from './decode';
import { asTextLine, fenceFor } from './markdown-lines';
import type { Reader, ReadResult } from './types';

export const rstReader = {
  name: 'rst',
  // 2: inline patterns linear on any line; lines that would read as headings or fences escaped;
  // fences longer than the code's backtick runs; a short underline of four or more makes a title;
  // a code block's caption shown.
  version: 2,
  read(bytes) {
    return parseRst(decodeText(bytes));
  },
} satisfies Reader;

/**
 * reStructuredText (Sphinx and Python project docs) read into the Markdown the chunkers know, line
 * for line, so citations point at the file's own lines:
 * - a section title, underlined (and perhaps overlined) with a punctuation character, becomes an
 *   ATX heading; levels follow the order in which the adornment styles first appear, as docutils
 *   decides them; the adornment lines become blank;
 * - a literal block (after a paragraph ending `::`, or a `code-block`/`code`/`sourcecode` directive)
 *   is fenced, on the blank lines around it: code stays one piece for the chunkers, and a `# comment`
 *   in it is not a heading;
 * - a hyperlink target (`.. _label:` or `.. _name: https://…`) and a comment (`..` alone or with
 *   text that is no directive) are blanked: a reader never sees them;
 * - `` `text <https://…>`_ `` is written `[text](https://…)`, whose address keyword search leaves
 *   out; a role's text (`` :ref:`Install <install>` ``, `` :func:`open` ``) keeps what is shown.
 * Everything else (paragraphs, lists, tables, other directives' text) is kept as written.
 * Not a full docutils parser: a heading is found by its adornment, which is what sections need.
 */
export function parseRst(source: string): ReadResult {
  const original = source.split('\n');
  const lines = [...original];
  // A title follows a blank line of the source: the closing fence of a literal block may stand there now.
  const blankBefore = (i: number) => i === 0 || original[i - 1]!.trim() === '';
  const styles: string[] = [];
  let title: string | null = null;
  const levelOf = (style: string) => {
    if (!styles.includes(style)) styles.push(style);
    return Math.min(styles.indexOf(style) + 1, 6);
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Overline, title, underline of the same character.
    if (isAdornment(line) && i + 2 < lines.length && lines[i + 1]!.trim() !== '' && !isAdornment(lines[i + 1]!.trim()) && lines[i + 2]!.trimEnd() === line.trimEnd() && line.trimEnd().length >= lines[i + 1]!.trim().length) {
      const text = inlineAsMarkdown(lines[i + 1]!.trim());
      lines[i + 1] = `${'#'.repeat(levelOf(`${line[0]}/over`))} ${text}`;
      lines[i] = '';
      lines[i + 2] = '';
      title ??= text;
      i += 2;
      continue;
    }
    // Title and underline; the line before is blank (or the start). As docutils: an underline shorter
    // than its title still makes one (with a warning) unless it is under four characters long.
    const next = lines[i + 1];
    if (next !== undefined && isTitleText(line) && isAdornment(next) && (next.trimEnd().length >= line.trimEnd().length || next.trimEnd().length >= 4) && blankBefore(i)) {
      const text = inlineAsMarkdown(line.trim());
      lines[i] = `${'#'.repeat(levelOf(next[0]!))} ${text}`;
      lines[i + 1] = '';
      title ??= text;
      i += 1;
      continue;
    }
    if (TARGET.test(line) || isComment(line)) {
      const end = indentedEnd(lines, i + 1, 1);
      for (let j = i; j < end; j++) lines[j] = '';
      i = end - 1;
      continue;
    }
    const literal = LITERAL_DIRECTIVE.exec(line) ?? (line.trimEnd().endsWith('::') && !line.trimStart().startsWith('..') ? ([line, ''] as const) : null);
    if (literal) {
      i = fenceLiteral(lines, i, literal[1]?.trim() ?? '');
      continue;
    }
    lines[i] = asTextLine(inlineAsMarkdown(line));
  }
  return { text: lines.join('\n'), title, firstLine: 1 };
}

/**
 * Section adornment: one punctuation character repeated, at least three, from the column 0. Scanned,
 * not matched: a back-reference repeated over a megabyte-long line overflowed the regex stack.
 */
function isAdornment(line: string): boolean {
  const t = line.trimEnd();
  if (t.length < 3 || !/^[!-/:-@[-`{-~]/.test(t)) return false;
  for (let i = 1; i < t.length; i++) if (t[i] !== t[0]) return false;
  return true;
}

/** A line that can be a section title: text at column 0 that is not itself an adornment. */
function isTitleText(line: string): boolean {
  return line.trim() !== '' && !/^\s/.test(line) && !isAdornment(line);
}

/** `.. _label:` or `.. _name: address`, and `__ address` (an anonymous target). */
const TARGET = /^\s*(?:\.\.\s+_[^:]*:|__\s)/;

/** `..` alone, or followed by text that is not a directive (`name::`), a footnote or a substitution. */
function isComment(line: string): boolean {
  const m = /^\s*\.\.(?:\s+(.*))?$/.exec(line);
  if (!m) return false;
  const rest = m[1] ?? '';
  return !/^[\w:+-]+::/.test(rest) && !/^\[[^\]]+\]/.test(rest) && !/^\|[^|]+\|/.test(rest);
}

/** `.. code-block:: python`, `.. code:: js`, `.. sourcecode::`: group 1 is the language. */
const LITERAL_DIRECTIVE = /^\s*\.\.\s+(?:code-block|code|sourcecode)::\s*(\S*)\s*$/;

/**
 * The line after the block indented more than `minIndent` spaces beyond the start line, from `from`
 * on (blank lines inside it belong to it; trailing blank lines do not).
 */
function indentedEnd(lines: string[], from: number, minIndent: number): number {
  let end = from;
  for (let j = from; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.trim() === '') continue;
    if (indentOf(l) < minIndent) break;
    end = j + 1;
  }
  return end;
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * Fences the indented block after line `at` (a `::` paragraph's last line or a code directive),
 * using the blank line before the block for the opening fence and the first blank line after it for
 * the closing one; the directive's own line and its options (`:linenos:`) go blank, all but a
 * `:caption:`, whose text stays. Returns the last
 * line handled. A block without those blank lines is left as it is (no line may be added).
 */
function fenceLiteral(lines: string[], at: number, language: string): number {
  const base = indentOf(lines[at]!);
  const isDirective = LITERAL_DIRECTIVE.test(lines[at]!);
  let j = at + 1;
  // Options go blank, but a caption is shown above the code.
  if (isDirective) for (; j < lines.length && /^\s+:[\w-]+:/.test(lines[j]!); j++) lines[j] = asTextLine(inlineAsMarkdown(/^\s+:caption:\s*(.*)$/.exec(lines[j]!)?.[1] ?? ''));
  if (j >= lines.length || lines[j]!.trim() !== '') {
    if (!isDirective) lines[at] = asTextLine(inlineAsMarkdown(lines[at]!));
    return j - 1;
  }
  const open = j;
  const end = indentedEnd(lines, open + 1, base + 1);
  if (end === open + 1) {
    if (!isDirective) lines[at] = asTextLine(inlineAsMarkdown(lines[at]!));
    return open;
  }
  lines[at] = isDirective ? '' : asTextLine(inlineAsMarkdown(shownIntro(lines[at]!)));
  const fence = fenceFor(lines.slice(open + 1, end));
  lines[open] = fence + language;
  // At the end of the file the fence stays open: it runs to the end, as the chunkers read it.
  if (end < lines.length && lines[end]!.trim() === '') lines[end] = fence;
  return end;
}

/** As docutils shows a literal block's introduction: `Paragraph::` as "Paragraph:", `Text ::` as "Text", `::` alone as nothing. */
function shownIntro(line: string): string {
  const t = line.trimEnd();
  if (t.trim() === '::') return '';
  return /\s::$/.test(t) ? t.slice(0, -2).trimEnd() : t.slice(0, -1);
}

/**
 * `` `text <address>`_ `` as a Markdown link; a role as the text it shows (code roles as code);
 * ``` ``literal`` ``` as a code span. Each pattern's scan stops at the next backtick, and a role
 * starts only where inline markup may (not inside a word or another role's name), so a long or
 * unbalanced line is read in linear time.
 */
function inlineAsMarkdown(line: string): string {
  if (!line.includes('`')) return line;
  return line
    .replace(/``([^`]+)``/g, '\u0000$1\u0000')
    .replace(/`([^`<]*)<([^>`]+)>`__?/g, (_, text: string, address: string) => `[${text.trim() || address}](${address})`)
    .replace(/(?<![\w:+-]):([\w:+-]+):`([^`]*)`/g, (_, role: string, inner: string) => {
      const shown = /^(.*?)\s*<[^<>]*>$/.exec(inner)?.[1] ?? inner.replace(/^[~!]/, '');
      return CODE_ROLES.test(role) ? `\`${shown}\`` : shown;
    })
    .replace(/\u0000([^\u0000]*)\u0000/g, '`$1`');
}

/** Roles whose text is code (Sphinx's Python and C domains, and literal roles). */
const CODE_ROLES = /^(?:py:|c:|cpp:|js:)?(?:func|meth|class|attr|mod|obj|data|exc|const|member|type|macro|var|envvar|program|option|command|file|samp|kbd|code|literal)$/;
