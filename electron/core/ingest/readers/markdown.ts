import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { decodeText } from './decode';
import { frontMatterEnd, frontMatterText, frontMatterTitle } from './front-matter';
import { htmlBlockText, tagText } from './markdown-html';
import { blankBlockComments, obsidianLineText } from './obsidian-markup';
import type { ReaderModule, ReadResult } from './types';
import { collapseWhitespace } from '../../text/normalise';

export const markdownReader = {
  name: 'markdown',
  read(bytes) {
    return parseMarkdown(decodeText(bytes));
  },
} satisfies ReaderModule;

// CommonMark with GFM tables and strikethrough; raw HTML recognised so that it can be removed.
// markdown-it rather than mdast-util-from-markdown: on the Rust book it parses about 10-35 MB/s
// against 0.9 MB/s, which at a hundred thousand notes is minutes of import.
const parser = new MarkdownIt('commonmark', { html: true }).enable(['table', 'strikethrough']);

/**
 * Reads a Markdown file as CommonMark defines it, for the chunkers, which read ATX headings and
 * fences line by line: YAML (`---`) or TOML (`+++`) front matter gives the title, and its aliases
 * and tags are kept as `Aliases: …` and `Tags: …` lines (the rest of it is left out); setext
 * headings are rewritten as ATX headings; HTML (blocks, inline tags, comments) is reduced to the
 * text people read; wikilinks, embeds and callouts read as notes apps show them
 * (`obsidian-markup.ts`). Every line keeps its number, so citations point at the file's own lines.
 * The title is the front matter's, else a Logseq `title::` page property, else the first `#`
 * heading, else the first heading of any level.
 */
export function parseMarkdown(source: string): ReadResult {
  const lines = source.split('\n');
  const bodyStart = frontMatterEnd(lines);
  const frontTitle = bodyStart > 0 ? frontMatterTitle(lines.slice(1, bodyStart - 1)) : null;
  const { text, firstH1, firstHeading } = rewrite(blankBlockComments(lines.slice(bodyStart)));
  const declared = frontTitle ?? pagePropertyTitle(lines.slice(bodyStart));
  const title = declared ?? firstH1 ?? firstHeading;
  const named = { title, ...(declared === null && title !== null ? { titleIsHeading: true } : {}) };
  const front = frontMatterText(lines, bodyStart);
  const from = front.findIndex((l) => l !== '');
  if (from < 0) return { text, ...named, firstLine: bodyStart + 1 };
  return { text: [...front.slice(from), text].join('\n'), ...named, firstLine: from + 1 };
}

/**
 * The fence that would close a code fence this Markdown leaves open at its end (```` ``` ```` for
 * ```` ```bash ```` and a last line of code), or null when none is open: for a text read as one of
 * several (a notebook's cells, each rendered alone), whose open fence would swallow the rest.
 */
export function closingFence(markdown: string): string | null {
  const lines = markdown.split('\n');
  const fence = parser.parse(markdown, {}).findLast((t) => t.type === 'fence');
  if (!fence?.map || fence.map[1] < lines.length) return null;
  const [from, to] = fence.map;
  const last = lines[to - 1]!.trim();
  const closed = to - 1 > from && last.length >= fence.markup.length && [...last].every((c) => c === fence.markup[0]);
  return closed ? null : fence.markup;
}

interface Rewritten {
  text: string;
  firstH1: string | null;
  firstHeading: string | null;
}

/**
 * Logseq keeps a page's properties as `key:: value` lines at its top, its title among them when the
 * file name cannot hold it (`title:: Project/Atlas` in `Project___Atlas.md`).
 */
function pagePropertyTitle(body: readonly string[]): string | null {
  for (const line of body) {
    const m = /^([A-Za-z][\w-]*):: ?(.*)$/.exec(line);
    if (!m) return null;
    if (m[1]!.toLowerCase() === 'title' && m[2]!.trim() !== '') return m[2]!.trim();
  }
  return null;
}

/** Line-preserving rewrite of a Markdown body from markdown-it's block map. */
function rewrite(lines: string[]): Rewritten {
  const tokens = parser.parse(lines.join('\n'), {});
  const out = [...lines];
  let firstH1: string | null = null;
  let firstHeading: string | null = null;
  let rowMap: [number, number] | null = null;
  let cursor: { line: number; at: number } | null = null;

  tokens.forEach((t, i) => {
    if (t.type === 'tr_open') rowMap = t.map;
    if (t.type === 'html_block' && t.map) {
      const [from, to] = t.map;
      replaceLines(out, from, to, htmlBlockText(out.slice(from, to).join('\n')));
    } else if (t.type === 'heading_open' && t.map) {
      const inline = tokens[i + 1];
      const name = inline ? obsidianLineText(plainText(inline)) : '';
      if (name !== '') {
        firstHeading ??= name;
        if (t.tag === 'h1') firstH1 ??= name;
      }
      // Setext (`Title` over `===`): the chunkers know ATX headings only.
      if (t.markup === '=' || t.markup === '-') {
        const [from, to] = t.map;
        const level = t.markup === '=' ? 1 : 2;
        replaceLines(out, from, to, `${'#'.repeat(level)} ${name}${'\n'.repeat(to - from - 1)}`);
      }
    } else if (t.type === 'inline') {
      const map = t.map ?? rowMap;
      if (!map || !t.children?.some((c) => c.type === 'html_inline')) return;
      // Cells of one table row share its lines: carry on from where the previous cell stopped.
      if (!cursor || cursor.line !== map[0] || t.map) cursor = { line: map[0], at: 0 };
      const [from, to] = map;
      const { text, at } = stripInlineHtml(out.slice(from, to).join('\n'), t.children, cursor.at);
      cursor.at = at;
      replaceLines(out, from, to, text);
    }
  });
  // Notes apps' markup, outside code blocks (whose text is code) and HTML blocks (already text).
  const code = new Set<number>();
  for (const t of tokens) {
    if ((t.type === 'fence' || t.type === 'code_block' || t.type === 'html_block') && t.map) for (let l = t.map[0]; l < t.map[1]; l++) code.add(l);
  }
  const text = out.map((line, i) => (code.has(i) || !/[[^]/.test(line) ? line : obsidianLineText(line)));
  return { text: text.join('\n'), firstH1, firstHeading };
}

/** Replaces lines [from, to) with `text`, which must hold as many lines. */
function replaceLines(out: string[], from: number, to: number, text: string): void {
  const replacement = text.split('\n');
  if (replacement.length !== to - from) return; // never shift a line number; keep the source
  out.splice(from, to - from, ...replacement);
}

/**
 * Removes an inline token's HTML (in order, from `at`), skipping code spans, whose text is code.
 * Searching forward from the last match keeps a tag-like string inside a code span untouched.
 */
function stripInlineHtml(segment: string, children: Token[], at: number): { text: string; at: number } {
  let text = segment;
  let pos = at;
  for (const c of children) {
    if (c.type !== 'html_inline' && c.type !== 'code_inline') continue;
    const found = text.indexOf(c.content, pos);
    if (found < 0) continue;
    if (c.type === 'code_inline') {
      pos = found + c.content.length;
      continue;
    }
    const words = tagText(c.content);
    text = text.slice(0, found) + words + text.slice(found + c.content.length);
    pos = found + words.length;
  }
  return { text, at: pos };
}

/** What a heading says, without markup: its text and code, not its HTML. */
function plainText(inline: Token): string {
  const parts = (inline.children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline' || c.type === 'softbreak');
  return collapseWhitespace(parts.map((c) => (c.type === 'softbreak' ? ' ' : c.content)).join(''));
}
