import { decodeText } from './decode';
import { asTextLine, atxHeading, fenceFor } from './markdown-lines';
import type { ReaderModule, ReadResult } from './types';

export const asciidocReader = {
  name: 'asciidoc',
  read(bytes) {
    return parseAsciidoc(decodeText(bytes));
  },
} satisfies ReaderModule;

/**
 * AsciiDoc (Asciidoctor documentation) read into the Markdown the chunkers know, line for line, so
 * citations point at the file's own lines:
 * - `= Title` is the document title (else the first section title is) and `==` … `======` section
 *   titles (or Markdown-style `##` …) become ATX headings one level up (`== Install` is `# Install`),
 *   as Asciidoctor nests them under the title;
 * - listing (`----`), literal (`....`) and Markdown-style (```` ``` ````) blocks become fences, their
 *   `[source,lang]` line giving the language (a `[source]` paragraph is fenced on that line and the
 *   blank line after it); passthrough (`++++`) and comment (`////`) blocks and
 *   `//` comment lines go blank, as do block anchors and attribute lines (`[[id]]`, `[NOTE]`; a
 *   quotation's attribution stays, and `.Title` stays: it is a caption people read) and the
 *   delimiters of example, sidebar, quote and open blocks (`====`, `****`, `____`, `--`);
 * - attribute entries (`:product: Quire`) go blank and `{product}` reads as their value;
 * - `https://x[text]`, `link:x[text]` become `[text](x)` (keyword search leaves the address out),
 *   `xref:file.adoc#id[text]` and `<<id,text>>` show their text;
 * - any other line that would read as a heading or a fence is escaped (markdown-lines.ts).
 * Not a full parser: what sections, code and citations need.
 */
export function parseAsciidoc(source: string): ReadResult {
  const lines = source.split('\n');
  let title: string | null = null;
  let firstHeading: string | null = null;
  let block: { delimiter: string; kind: 'code' | 'hidden'; fence: string } | null = null;
  let language = '';
  const attributes = new Map<string, string>();
  const inline = (text: string) => inlineAsMarkdown(substituteAttributes(text, attributes));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trimEnd();
    if (block !== null) {
      if (trimmed === block.delimiter) {
        lines[i] = block.kind === 'code' ? block.fence : '';
        block = null;
      } else if (block.kind === 'hidden') lines[i] = '';
      continue;
    }
    // Listing, literal, passthrough and comment blocks; Asciidoctor also takes a Markdown fence.
    const delimiter = /^(?:(-{4,}|\.{4,}|\+{4,}|\/{4,})|```([\w+#-]*))$/.exec(trimmed);
    if (delimiter) {
      const close = delimiter[1] ?? '```';
      const kind = close[0] === '-' || close[0] === '.' || close[0] === '`' ? 'code' : 'hidden';
      let fence = '';
      if (kind === 'code') {
        let end = i + 1;
        while (end < lines.length && lines[end]!.trimEnd() !== close) end++;
        fence = fenceFor(lines.slice(i + 1, end));
      }
      block = { delimiter: close, kind, fence };
      lines[i] = kind === 'code' ? fence + (delimiter[2] || language) : '';
      language = '';
      continue;
    }
    // A block title (`.Title`) may stand between `[source,lang]` and its delimiter.
    if (!/^\.[^.\s]/.test(trimmed)) language = '';
    const style = /^\[(?:source|listing|literal)(?:,\s*([\w+#-]+))?[^\]]*\]$/.exec(trimmed);
    if (style) {
      language = style[1] ?? '';
      lines[i] = '';
      // Without delimiters the style makes the next paragraph code: fenced from this line to the blank after it.
      const next = lines[i + 1]?.trimEnd() ?? '';
      // (A block title or another attribute line between the style and its delimiters is no paragraph.)
      if (next !== '' && !/^(?:-{4,}|\.{4,}|```[\w+#-]*)$/.test(next) && !/^(?:\.[^.\s]|\[)/.test(next)) {
        let end = i + 1;
        while (end < lines.length && lines[end]!.trim() !== '') end++;
        const fence = fenceFor(lines.slice(i + 1, end));
        lines[i] = fence + language;
        if (end < lines.length) lines[end] = fence;
        language = '';
        i = end;
      }
      continue;
    }
    // An attribute entry is never shown, but its value is, wherever `{name}` refers to it.
    // `:name: value`; `:name!:` and `:!name:` unset it.
    const entry = /^:(!?)([\w-]+)(!?):(?:\s+(.*))?$/.exec(trimmed);
    if (entry) {
      if (entry[1] || entry[3]) attributes.delete(entry[2]!);
      else attributes.set(entry[2]!, entry[4] ?? '');
      lines[i] = '';
      continue;
    }
    // A quotation's or verse's attribution is read (`[quote, Ada Lovelace, Notes]`).
    const quote = /^\[(?:quote|verse)\s*,\s*([^\]]*)\]$/.exec(trimmed);
    if (quote) {
      lines[i] = inline(quote[1]!.split(',').map((p) => p.trim().replace(/^"(.*)"$/, '$1')).filter(Boolean).join(', '));
      continue;
    }
    // Comment lines, anchors, block attribute lines and the delimiters of example, sidebar, quote
    // and open blocks: never shown as written.
    if (/^\/\/(?!\/)/.test(trimmed) || /^\[\[[^\]]*\]\]$/.test(trimmed) || /^\[[\w#.%,="' -]*\]$/.test(trimmed) || /^(?:={4,}|\*{4,}|_{4,}|--)$/.test(trimmed)) {
      lines[i] = '';
      continue;
    }
    // `= Title`, `== Section` …, or Markdown's `#`, `##` … which Asciidoctor reads the same way.
    const heading = /^(={1,6}|#{1,6})[ \t]+(\S.*)$/.exec(trimmed);
    if (heading) {
      const text = inline(withoutClosingMarks(heading[2]!, heading[1]![0]!));
      const level = heading[1]!.length;
      if (level === 1) title ??= text;
      firstHeading ??= text;
      lines[i] = atxHeading(level - 1, text);
      continue;
    }
    lines[i] = asTextLine(inline(line));
  }
  return { text: lines.join('\n'), title: title ?? firstHeading, firstLine: 1 };
}

/** `Title ==` as `Title`: a symmetric title's closing marks are not its text. Scanned, not matched: linear on any line. */
function withoutClosingMarks(text: string, mark: string): string {
  const t = text.trimEnd();
  let end = t.length;
  while (end > 0 && t[end - 1] === mark) end--;
  return end < t.length && end > 0 && /\s/.test(t[end - 1]!) ? t.slice(0, end).trimEnd() : t;
}

/** `{name}` as the value an attribute entry above gave it; a name never set stays as written. */
function substituteAttributes(line: string, attributes: ReadonlyMap<string, string>): string {
  if (attributes.size === 0 || !line.includes('{')) return line;
  return line.replace(/\{([\w-]+)\}/g, (whole, name: string) => attributes.get(name) ?? whole);
}

/**
 * Links as Markdown links, cross references as their text. Each pattern's scan stops at the next
 * bracket, and an address is consumed whether or not a `[text]` follows it, so no line, however
 * long or unbalanced, is scanned more than a few times over.
 */
function inlineAsMarkdown(line: string): string {
  if (!line.includes('[') && !line.includes('<<')) return line;
  const link = (whole: string, address: string, text: string | undefined) => (text === undefined ? whole : `[${text.split(',')[0] || address}](${address})`);
  return line
    .replace(/\b(?:link:)?((?:https?|ftp|mailto):[^\s[\]]+)(?:\[([^\][]*)\])?/g, (whole, address: string, text: string | undefined) => link(whole, address, text))
    .replace(/\blink:([^\s[\]]+)(?:\[([^\][]*)\])?/g, (whole, address: string, text: string | undefined) => link(whole, address, text))
    .replace(/\bxref:([^\s[\]]+)(?:\[([^\][]*)\])?/g, (whole, target: string, text: string | undefined) => (text === undefined ? whole : text || target))
    .replace(/<<([^,<>]+)(?:,\s*([^<>]+))?>>/g, (_, target: string, text: string | undefined) => text ?? target);
}
