import { decodeText } from './decode';
import { asTextLine, atxHeading, fenceFor } from './markdown-lines';
import { DIRECTIVE, directiveShape } from './rst-directives';
import type { ReaderModule, ReadResult } from './types';

export const rstReader = {
  name: 'rst',
  read(bytes) {
    return parseRst(decodeText(bytes));
  },
} satisfies ReaderModule;

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
 *   out; a role's text (`` :ref:`Install <install>` ``, `` :func:`open` ``) and a reference's
 *   (`` `Run Tests`_ ``) keep what is shown;
 * - a directive reads as its page shows it (`rst-directives.ts`): `.. note::` as "Note:",
 *   `.. versionadded:: 3.12` as "New in version 3.12.", `.. option:: -j N` as the code `-j N`; its
 *   options go blank, and so does the whole of one that shows no text (`toctree`, `contents`); the
 *   body it keeps is dedented to the directive's column, so nesting never makes it an indented code
 *   block to a Markdown renderer.
 * Everything else (paragraphs, lists, tables) is kept as written.
 * Not a full docutils parser: a heading is found by its adornment, which is what sections need.
 */
export function parseRst(source: string): ReadResult {
  const original = source.split('\n');
  const lines = [...original];
  // A title follows a blank line of the source: the closing fence of a literal block may stand there now.
  const blankBefore = (i: number) => i === 0 || original[i - 1]!.trim() === '';
  const styles: string[] = [];
  // Where the bodies of the directives around this line end (dedented ones only; see MAX_NESTING).
  const bodies: number[] = [];
  const substitutions = new Map<string, string>();
  let title: string | null = null;
  // The level of the last section title: an object description inside it is one level below.
  let sectionLevel = 0;
  const levelOf = (style: string) => {
    if (!styles.includes(style)) styles.push(style);
    sectionLevel = Math.min(styles.indexOf(style) + 1, 6);
    return sectionLevel;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Overline, title, underline of the same character.
    if (isAdornment(line) && i + 2 < lines.length && lines[i + 1]!.trim() !== '' && !isAdornment(lines[i + 1]!.trim()) && lines[i + 2]!.trimEnd() === line.trimEnd() && line.trimEnd().length >= lines[i + 1]!.trim().length) {
      const text = inlineAsMarkdown(lines[i + 1]!.trim());
      lines[i + 1] = atxHeading(levelOf(`${line[0]}/over`), text);
      lines[i] = '';
      lines[i + 2] = '';
      title ??= text;
      i += 2;
      continue;
    }
    // Title and underline; the line before is blank (or the start). As docutils: an underline shorter
    // than its title still makes one (with a warning) unless it is under four characters long.
    const next = lines[i + 1];
    if (next !== undefined && isTitleText(line) && (isAdornment(next) || isShortUnderline(next, line, lines[i + 2])) && (next.trimEnd().length >= line.trimEnd().length || next.trimEnd().length >= 4) && blankBefore(i)) {
      const text = inlineAsMarkdown(line.trim());
      lines[i] = atxHeading(levelOf(next[0]!), text);
      lines[i + 1] = '';
      title ??= text;
      i += 1;
      continue;
    }
    const definition = SUBSTITUTION.exec(line);
    if (definition) {
      const end = indentedEnd(lines, i + 1, indentOf(line) + 1);
      // `replace::` gives the text; an image or a character code shows none of its own here.
      const text = definition[2] === 'replace' ? [definition[3] ?? '', ...lines.slice(i + 1, end)].map((l) => l.trim()).join(' ').trim() : '';
      if (!substitutions.has(definition[1]!)) substitutions.set(definition[1]!, inlineAsMarkdown(text));
      lines.fill('', i, end);
      i = end - 1;
      continue;
    }
    if (TARGET.test(line) || isComment(line)) {
      const end = indentedEnd(lines, i + 1, 1);
      lines.fill('', i, end);
      i = end - 1;
      continue;
    }
    const literal = LITERAL_DIRECTIVE.exec(line) ?? (line.trimEnd().endsWith('::') && !line.trimStart().startsWith('..') ? ([line, '', ''] as const) : null);
    if (literal) {
      i = fenceLiteral(lines, i, literal[2]?.trim() ?? '', literal[1] === 'parsed-literal');
      continue;
    }
    const directive = DIRECTIVE.exec(line);
    if (directive) {
      while (bodies.length > 0 && bodies[bodies.length - 1]! <= i) bodies.pop();
      // An object description outside any other directive is a heading below its section, as Sphinx lists it in the page's contents.
      const entryLevel = bodies.length === 0 ? Math.min(Math.max(sectionLevel + 1, 2), 6) : null;
      const shown = showDirective(lines, i, directive[1]!.length, directive[2]!, directive[3] ?? '', bodies.length < MAX_NESTING, entryLevel);
      if (shown.body !== null) bodies.push(shown.body);
      i = shown.last;
      continue;
    }
    // A role or reference wrapped onto the next line (`` :ref:`a long <target` `` … `` name>` ``) is read with it.
    const last = wrappedMarkupEnd(lines, i);
    const read = last > i ? inlineAsMarkdown(lines.slice(i, last + 1).join('\n')).split('\n') : null;
    if (read && read.length === last - i + 1) {
      for (let k = 0; k < read.length; k++) lines[i + k] = asTextLine(read[k]!);
      i = last;
      continue;
    }
    lines[i] = asTextLine(inlineAsMarkdown(line));
  }
  if (substitutions.size > 0) substitute(lines, substitutions);
  return { text: lines.join('\n'), title, firstLine: 1 };
}

/** `.. |name| replace:: text` (or `image::`, `unicode::`): group 1 the name, 2 the kind, 3 the text. */
const SUBSTITUTION = /^\s*\.\.\s+\|([^|]+)\|\s+([\w-]+)::(?:\s(.*))?$/;

/**
 * Each `|name|` the document defines, outside code, as its text: definitions may come after their
 * use (often at the end), so this runs once every line is read. Names it does not define (Sphinx's
 * `|version|` comes from the project's configuration) stay as written.
 */
function substitute(lines: string[], substitutions: ReadonlyMap<string, string>): void {
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^`{3,}/.exec(line)?.[0];
    if (marker !== undefined && (fence === null || marker === fence)) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence !== null || !line.includes('|')) continue;
    lines[i] = line.replace(/\|([^|\s][^|]*)\|(?:__?)?/g, (whole, name: string) => substitutions.get(name) ?? whole);
  }
}

/**
 * Section adornment: one punctuation character repeated, at least three, from the column 0. Scanned,
 * not matched: a back-reference repeated over a megabyte-long line overflowed the regex stack.
 */
function isAdornment(line: string, minLength = 3): boolean {
  const t = line.trimEnd();
  if (t.length < minLength || !/^[!-/:-@[-`{-~]/.test(t)) return false;
  for (let i = 1; i < t.length; i++) if (t[i] !== t[0]) return false;
  return true;
}

/**
 * The underline of a one- or two-character title (`If` over `--`), which docutils takes as any
 * other: as long as the title at least, and (shorter adornments being so common in text) followed by
 * a blank line or the end.
 */
function isShortUnderline(line: string, title: string, after: string | undefined): boolean {
  const t = line.trimEnd();
  return t.length === 2 && isAdornment(t, 2) && title.trimEnd().length <= 2 && (after === undefined || after.trim() === '');
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

/**
 * `.. code-block:: python`, `.. code:: js`, `.. sourcecode::`, `.. parsed-literal::`: group 1 is the
 * directive, group 2 the language.
 */
const LITERAL_DIRECTIVE = /^\s*\.\.\s+(code-block|code|sourcecode|parsed-literal)::\s*(\S*)\s*$/;

/**
 * Directives nested deeper than this keep their bodies' indentation. Each level dedents the lines
 * inside it once more, so without a bound a staircase of directives, each inside the one before,
 * would cost the cube of its line count (test/bench/perf-readers.ts); real documents nest two or three.
 */
const MAX_NESTING = 8;

/**
 * Writes the directive at line `at` as its page shows it (see rst-directives.ts): an object
 * description given an `entryLevel` as a heading of that level (its signature in plain words, as the
 * heading path reads them), one nested in another directive as a code line. Returns the last
 * line it handled (its options, or its whole body when the page shows none of it) and, when it
 * dedented its body to its own column, the line after that body; the main loop reads the body on.
 */
function showDirective(lines: string[], at: number, indent: number, name: string, args: string, dedentBody: boolean, entryLevel: number | null): { last: number; body: number | null } {
  const shape = directiveShape(name, args);
  const pad = ' '.repeat(indent);
  const asCode = (text: string) => (text.includes('`') ? asTextLine(`${pad}${inlineAsMarkdown(text)}`) : `${pad}\`${text}\``);
  let j = at + 1;
  // More signatures (`.. variable:: A` over an indented `B`) run on until a blank line or an option.
  if (shape.kind === 'signature') for (; j < lines.length && lines[j]!.trim() !== '' && indentOf(lines[j]!) > indent && !/^\s+:[\w-]+:/.test(lines[j]!); j++) lines[j] = asCode(lines[j]!.trim());
  for (; j < lines.length && indentOf(lines[j]!) > indent && /^\s+:[\w-]+:/.test(lines[j]!); j++) lines[j] = '';
  if (shape.kind === 'dropped') {
    const end = indentedEnd(lines, j, indent + 1);
    lines.fill('', at, end);
    return { last: end - 1, body: null };
  }
  if (shape.kind === 'hidden') lines[at] = '';
  else if (shape.kind === 'signature') lines[at] = entryLevel === null ? asCode(shape.text) : atxHeading(entryLevel, inlineAsMarkdown(shape.text, false));
  else lines[at] = asTextLine(`${pad}${inlineAsMarkdown(shape.text)}`);
  if (!dedentBody) return { last: j - 1, body: null };
  const end = indentedEnd(lines, j, indent + 1);
  dedent(lines, j, end, indent);
  return { last: j - 1, body: end };
}

/** Moves lines [from, to) left so the least indented non-blank one starts at column `to`. */
function dedent(lines: string[], from: number, to: number, column: number): void {
  let least = Infinity;
  for (let k = from; k < to; k++) if (lines[k]!.trim() !== '') least = Math.min(least, indentOf(lines[k]!));
  const shift = least === Infinity ? 0 : least - column;
  if (shift <= 0) return;
  for (let k = from; k < to; k++) if (lines[k]!.trim() !== '') lines[k] = lines[k]!.slice(shift);
}

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
function fenceLiteral(lines: string[], at: number, language: string, parsed = false): number {
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
  // A parsed literal's inline markup is shown as its text: a fence shows everything as written.
  if (parsed) for (let k = open + 1; k < end; k++) lines[k] = inlineAsMarkdown(lines[k]!, false);
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
function inlineAsMarkdown(line: string, markdown = true): string {
  if (!line.includes('`')) return line;
  const code = (text: string) => (markdown ? `\`${text}\`` : text);
  return line
    .replace(/``([^`]+)``/g, '\u0000$1\u0000')
    .replace(/`([^`<]*)<([^>`]+)>`__?/g, (match: string, text: string, address: string) =>
      keepLines(match, markdown ? `[${text.trim() || address}](${address.trim()})` : text.trim() || address.trim()),
    )
    .replace(/`([^`<]+)`__?(?![\w`])/g, '$1')
    .replace(/(?<![\w:+-]):([\w:+-]+):`([^`]*)`/g, (match: string, role: string, inner: string) => {
      const shown = explicitTitle(inner) ?? inner.replace(/^[~!]/, '');
      return keepLines(match, CODE_ROLES.test(role) ? code(shown) : shown);
    })
    .replace(/\u0000([^\u0000]*)\u0000/g, (_, text: string) => code(text));
}

/** `shown` with as many line breaks after it as `source` held and it lost (a wrapped role's target), so no line goes missing. */
function keepLines(source: string, shown: string): string {
  const lost = source.split('\n').length - shown.split('\n').length;
  return lost > 0 ? shown + '\n'.repeat(lost) : shown;
}

/**
 * The last line of inline markup opened on line `at` and closed on one of the next three lines of
 * its paragraph (Sphinx sources wrap at 80 columns, roles and references with them), or `at` when
 * its backticks balance or nothing closes them. A line ending `::` or starting `..` is no
 * paragraph text to join.
 */
function wrappedMarkupEnd(lines: readonly string[], at: number): number {
  if (!unbalanced(lines[at]!)) return at;
  let joined = lines[at]!;
  for (let j = at + 1; j <= at + 3 && j < lines.length; j++) {
    const next = lines[j]!;
    if (next.trim() === '' || next.trimEnd().endsWith('::') || next.trimStart().startsWith('..')) return at;
    joined += `\n${next}`;
    if (!unbalanced(joined)) return j;
  }
  return at;
}

/** An odd number of ``` `` ``` pairs, or of single backticks besides them: markup left open. */
function unbalanced(text: string): boolean {
  let doubles = 0;
  let singles = 0;
  for (let i = text.indexOf('`'); i >= 0; i = text.indexOf('`', i + 1)) {
    if (text[i + 1] === '`') {
      doubles++;
      i++;
    } else singles++;
  }
  return doubles % 2 === 1 || singles % 2 === 1;
}

/**
 * A role's explicit title, `title <target>`: the space before `<` is what sets a target off, so
 * `` :variable:`CMAKE_<LANG>_FLAGS` `` or `` :cpp:class:`vector<int>` `` is a name, as CMake's
 * Sphinx domain reads it. Found by position, not a pattern, to stay linear on a long role.
 */
function explicitTitle(inner: string): string | null {
  if (!inner.endsWith('>')) return null;
  const lt = inner.lastIndexOf('<');
  if (lt <= 0 || !/\s/.test(inner[lt - 1]!) || inner.indexOf('>', lt) !== inner.length - 1) return null;
  return inner.slice(0, lt).trimEnd();
}

/** Roles whose text is code (Sphinx's Python and C domains, and literal roles). */
const CODE_ROLES = /^(?:py:|c:|cpp:|js:)?(?:func|meth|class|attr|mod|obj|data|exc|const|member|type|macro|var|envvar|program|option|command|file|samp|kbd|code|literal)$/;
