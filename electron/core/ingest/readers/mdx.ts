import { decodeText } from './decode';
import { frontMatterEnd } from './front-matter';
import { parseMarkdown } from './markdown';
import { admonitionText, mdxBodyLines } from './mdx-syntax';
import type { ReaderModule } from './types';

export const mdxReader = {
  name: 'mdx',
  read(bytes) {
    return parseMarkdown(mdxAsMarkdown(decodeText(bytes)));
  },
} satisfies ReaderModule;

/**
 * MDX (Docusaurus, Next.js, Astro and Storybook docs) is Markdown with JavaScript around it: ESM
 * `import`/`export` statements and `{expressions}`, which a reader never sees, and JSX elements,
 * whose text children are what a reader sees of them. Rewritten line for line into the Markdown
 * the Markdown reader reads (front matter left to it), so every line keeps its number for
 * citations: by MDX's own parser (`mdx-syntax.ts`) where it accepts the file, else line by line
 * (`mdxLines`).
 */
export function mdxAsMarkdown(source: string): string {
  const lines = source.split('\n');
  const bodyFrom = frontMatterEnd(lines);
  const body = mdxBodyLines(lines, bodyFrom) ?? mdxLines(lines, bodyFrom);
  return [...lines.slice(0, bodyFrom), ...body].join('\n');
}

/**
 * What MDX 1 files and others MDX's parser refuses (`<!-- comments -->`, `<br>`, a stray `{`) are
 * read as: ESM statements blanked line for line (front matter and fenced code left alone), a
 * `{/* comment *\/}` at a line's start blanked to its `*\/}`, admonition fences reduced to their
 * title; JSX tags are left to the Markdown reader, which reduces a tag on one line to its text as
 * it does HTML's. Returns the body's lines.
 */
function mdxLines(source: readonly string[], bodyFrom: number): string[] {
  const lines = [...source];
  let fence: string | null = null;
  let statement = false;
  let depth = 0;
  let comment = false;
  for (let i = bodyFrom; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== null) {
      if (line.trimStart().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = null;
      continue;
    }
    // ESM never interrupts a paragraph: `import statements …` continuing a sentence is prose.
    if (statement || (ESM.test(line) && !continuesParagraph(lines, i, bodyFrom))) {
      // A statement runs until its brackets close on a line that does not go on (`import {` … `} from 'x'`).
      depth += bracketBalance(line);
      statement = depth > 0 || CONTINUES.test(line);
      if (!statement) depth = 0;
      lines[i] = '';
      continue;
    }
    if (comment || COMMENT_START.test(line)) {
      // The comment ends at its `*/}`; what follows on that line is read (`{/* prettier-ignore */} Text`).
      const close = COMMENT_CLOSE.exec(line);
      comment = close === null;
      lines[i] = close ? line.slice(close.index + close[0].length).trimStart() : '';
      continue;
    }
    lines[i] = admonitionText(line);
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (open) fence = open[1]!;
  }
  return lines.slice(bodyFrom);
}

/** An ESM statement at the start of a line (MDX allows them only there, outside JSX and code). */
const ESM = /^(?:import|export)(?:\s|\{|\*|$)/;
/** The line before is prose, which a line starting `import` would only continue (not blank, not a heading, not blanked). */
function continuesParagraph(lines: readonly string[], i: number, bodyFrom: number): boolean {
  if (i === bodyFrom) return false;
  const before = lines[i - 1]!;
  return before.trim() !== '' && !/^ {0,3}#{1,6}(?:[ \t]|$)/.test(before);
}

/** A line that leaves its statement unfinished: ending in an operator, a comma or `from`. */
const CONTINUES = /(?:[,=({[+\-*/&|?:]|\bfrom)\s*$/;
/** `{/*` at a line's start: an MDX comment, over one or more lines to `*\/}`. */
const COMMENT_START = /^\s*\{\s*\/\*/;
const COMMENT_CLOSE = /\*\/\s*\}/;

/**
 * Opening minus closing brackets on a line, outside its string literals and its `//` comment. Scanned once, character by
 * character: a pattern for the literals backtracked exponentially on a run of backslashes.
 */
export function bracketBalance(line: string): number {
  let n = 0;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote !== '') {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '/' && line[i + 1] === '/') break; // a comment: `// don't {` opens nothing
    else if (ch === '{' || ch === '(' || ch === '[') n++;
    else if (ch === '}' || ch === ')' || ch === ']') n--;
  }
  return n;
}
