import { parse, postprocess, preprocess } from 'micromark';
import { mdxjs } from 'micromark-extension-mdxjs';
import { newlinesOf, TEXT_ATTRIBUTE_NAMES } from './markdown-html';
import { collapseWhitespace } from '../../text/normalise';

/**
 * MDX read by MDX's own parser (micromark with micromark-extension-mdxjs, acorn for the
 * JavaScript), for what a line-by-line reading gets wrong: a JSX tag whose attributes span lines
 * (`<Tabs\n  items={[…]}\n>`), an attribute holding `>` or another element
 * (`icon={<Rocket size={16} />}`), an `export` whose template literal spans lines.
 *
 * Returns the body (lines from `bodyFrom` on) as Markdown, line for line: ESM statements and
 * `{expressions}` (comments among them) become their newlines; a JSX tag becomes the words it
 * carries for people (an image's alt, a tab's label, a card's title) and its newlines, so the
 * text between an element's tags stays where it was. Content MDX reads at four or more columns is
 * moved to the margin, since MDX has no indented code and the Markdown reader after this would
 * take `    ## Configure` inside a `<Steps>` element for code. Returns null when the text is not
 * MDX the parser accepts (MDX 1's `<!-- comments -->` and `<br>`, a stray `{`) or is longer than
 * MDX_PARSER_MAX_CHARS: the caller then reads it line by line.
 */
export function mdxBodyLines(lines: readonly string[], bodyFrom: number): string[] | null {
  // Front matter is blank to the parser (YAML may hold `{`), so offsets and lines stay the file's.
  const source = lines.map((l, i) => (i < bodyFrom ? '' : l)).join('\n');
  if (source.length > MDX_PARSER_MAX_CHARS) return null;
  let events: ReturnType<typeof postprocess>;
  try {
    events = postprocess(parse({ extensions: [mdxjs(), UNNEEDED] }).document().write(preprocess()(source, undefined, true)));
  } catch {
    return null;
  }
  const removed: { start: number; end: number; words: string[] }[] = [];
  const code: { from: number; to: number }[] = [];
  const outdent: { from: number; to: number }[] = [];
  let depth = 0;
  let attribute = '';
  for (const [kind, token] of events) {
    if (kind === 'exit') {
      depth--;
      continue;
    }
    const type = token.type as string;
    if (REMOVED.has(type)) removed.push({ start: token.start.offset, end: token.end.offset, words: [] });
    else if (type.endsWith('TagAttributeName')) attribute = source.slice(token.start.offset, token.end.offset);
    else if (type.endsWith('TagAttributeValueLiteralValue') && WORDS_FROM.has(attribute)) removed.at(-1)?.words.push(source.slice(token.start.offset, token.end.offset));
    if (type === 'codeFenced') code.push({ from: token.start.line - 1, to: token.end.line - 1 });
    if (depth === 0 && !MARGIN.has(type) && !REMOVED.has(type)) outdent.push({ from: token.start.line - 1, to: token.end.line - 1 });
    depth++;
  }

  const parts: string[] = [];
  let lineBlank = true; // the output's last line holds only spaces and tabs so far
  const emit = (piece: string) => {
    parts.push(piece);
    const newline = piece.lastIndexOf('\n');
    lineBlank = (newline >= 0 || lineBlank) && /^[ \t]*$/.test(piece.slice(newline + 1));
  };
  let at = 0;
  for (const r of removed) {
    emit(source.slice(at, r.start));
    emit(collapseWhitespace(r.words.join(' ')) + newlinesOf(source.slice(r.start, r.end)));
    at = r.end;
    // A tag or comment that began its line takes the spaces after it along (`{/* note */} Text`).
    if (lineBlank) while (source[at] === ' ' || source[at] === '\t') at++;
  }
  parts.push(source.slice(at));
  const out = parts.join('').split('\n');

  for (const { from, to } of outdent) {
    const columns = indentColumns(out[from]!);
    if (columns >= 4) for (let l = from; l <= to; l++) out[l] = dedent(out[l]!, columns);
  }
  const inCode = new Set<number>();
  for (const { from, to } of code) for (let l = from; l <= to; l++) inCode.add(l);
  for (let i = bodyFrom; i < out.length; i++) if (!inCode.has(i)) out[i] = admonitionText(out[i]!);
  return out.slice(bodyFrom);
}

/**
 * Past this the file is read line by line. The parser is linear but slow on some text: 256 KB of
 * lines of JSX tags or indented paragraphs between them took 2-5 s on one of two shared cores (the
 * slowest of 13 hostile inputs), so 5 MB would outlast the parse worker's 60 s. MDX pages are far
 * smaller: 2,605 of the Astro and MDX documentation's, median 2.5 KB, largest 104 KB.
 */
const MDX_PARSER_MAX_CHARS = 256 * 1024;

/**
 * Emphasis and links are nothing this reading needs (the Markdown reader reads them after), and
 * micromark's pairing of their markers grows faster than the text: 256 KB of `*a` took ten minutes,
 * of `[a](` half a minute; without them 0.5 s. On the 2,605 pages the output is the same byte for
 * byte. A link whose address is in angle brackets (`[a](<b c>)`) then reads as a tag and the file
 * is read line by line, as MDX 1's are.
 */
const UNNEEDED = { disable: { null: ['attention', 'labelStartLink', 'labelStartImage', 'labelEnd'] } };

/** What micromark's MDX extensions mark that a reader never sees as written. */
const REMOVED = new Set(['mdxjsEsm', 'mdxFlowExpression', 'mdxTextExpression', 'mdxJsxFlowTag', 'mdxJsxTextTag']);
/** Line structure, not content: never moved. */
const MARGIN = new Set(['lineEnding', 'lineEndingBlank', 'linePrefix', 'whitespace']);
/** A JSX attribute read as words: HTML's, and the label of a tab and the description of a card (Docusaurus, Starlight). */
const WORDS_FROM = new Set([...TEXT_ATTRIBUTE_NAMES, 'label', 'description']);

/**
 * A Docusaurus or Starlight admonition's fences (`:::tip[Title]`, `:::note Title`, `:::`): its
 * title is read, its keyword is markup.
 */
export function admonitionText(line: string): string {
  const admonition = /^\s*:::\s*[\w-]*\s*(?:\[(.*)\]|(.*))$/.exec(line);
  return admonition ? (admonition[1] ?? admonition[2] ?? '').trim() : line;
}

/** Columns of a line's leading spaces and tabs (a tab to its stop). */
function indentColumns(line: string): number {
  let col = 0;
  for (const ch of line) {
    if (ch === ' ') col++;
    else if (ch === '\t') col += 4 - (col % 4);
    else break;
  }
  return col;
}

/** A line without up to `columns` columns of its leading whitespace. */
function dedent(line: string, columns: number): string {
  let col = 0;
  let i = 0;
  while (i < line.length && col < columns && (line[i] === ' ' || line[i] === '\t')) col += line[i++] === '\t' ? 4 - (col % 4) : 1;
  return line.slice(i);
}
