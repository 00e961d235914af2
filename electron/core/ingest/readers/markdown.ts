import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { decodeText } from './decode';
import { htmlBlockText, tagText } from './markdown-html';
import type { Reader, ReadResult } from './types';
import { collapseWhitespace } from '../../text/normalise';

export const markdownReader = {
  name: 'markdown',
  // 2: parsed as CommonMark (markdown-it); HTML reduced to its text; setext headings; title from the first heading of any level.
  version: 2,
  read(bytes) {
    return parseMarkdown(decodeText(bytes));
  },
} satisfies Reader;

// CommonMark with GFM tables and strikethrough; raw HTML recognised so that it can be removed.
// markdown-it rather than mdast-util-from-markdown: on the Rust book it parses about 10-35 MB/s
// against 0.9 MB/s, which at a hundred thousand notes is minutes of import.
const parser = new MarkdownIt('commonmark', { html: true }).enable(['table', 'strikethrough']);

/**
 * Reads a Markdown file as CommonMark defines it, for the chunkers, which read ATX headings and
 * fences line by line: YAML (`---`) or TOML (`+++`) front matter is stripped and gives the title;
 * setext headings are rewritten as ATX headings; HTML (blocks, inline tags, comments) is reduced to
 * the text people read. Every line keeps its number, so citations point at the file's own lines.
 * The title is the front matter's, else the first `#` heading, else the first heading of any level.
 */
export function parseMarkdown(source: string): ReadResult {
  const lines = source.split('\n');
  const bodyStart = frontMatterEnd(lines);
  const frontTitle = bodyStart > 0 ? frontMatterTitle(lines.slice(1, bodyStart - 1)) : null;
  const body = lines.slice(bodyStart);
  const { text, firstH1, firstHeading } = rewrite(body);
  return { text, title: frontTitle ?? firstH1 ?? firstHeading, firstLine: bodyStart + 1 };
}

/**
 * The index of the first line after YAML (`---`, closed by `---` or `...`) or TOML (`+++`) front
 * matter, else 0: where the body begins (MDX's reader skips the same lines).
 */
export function frontMatterEnd(lines: readonly string[]): number {
  const fence = lines[0]?.trimEnd();
  if (fence !== '---' && fence !== '+++') return 0;
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === fence || (fence === '---' && l.trimEnd() === '...')));
  return end > 0 ? end + 1 : 0;
}

interface Rewritten {
  text: string;
  firstH1: string | null;
  firstHeading: string | null;
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
      const name = inline ? plainText(inline) : '';
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
  return { text: out.join('\n'), firstH1, firstHeading };
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

function frontMatterTitle(lines: string[]): string | null {
  for (const line of lines) {
    const m = /^title\s*[:=]\s*(.*)$/.exec(line);
    if (!m) continue;
    const value = unquote((m[1] ?? '').trim());
    return value.length > 0 ? value : null;
  }
  return null;
}

function unquote(v: string): string {
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.at(-1) === v[0]) {
    const inner = v.slice(1, -1);
    return v[0] === '"' ? inner.replace(/\\"/g, '"') : inner.replace(/''/g, "'");
  }
  return v;
}
