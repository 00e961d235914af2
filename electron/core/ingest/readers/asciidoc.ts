import { decodeText } from './decode';
import type { Reader, ReadResult } from './types';

export const asciidocReader = {
  name: 'asciidoc',
  version: 1,
  read(bytes) {
    return parseAsciidoc(decodeText(bytes));
  },
} satisfies Reader;

/**
 * AsciiDoc (Asciidoctor documentation) read into the Markdown the chunkers know, line for line, so
 * citations point at the file's own lines:
 * - `= Title` is the document title (else the first section title is) and `==` … `======` section titles become ATX headings one level
 *   up (`== Install` is `# Install`), as Asciidoctor nests them under the title;
 * - listing (`----`) and literal (`....`) blocks become fences, their `[source,lang]` line giving
 *   the language; passthrough (`++++`) and comment (`////`) blocks and `//` comment lines go blank, as
 *   do attribute entries (`:toc:`), block anchors and attribute lines (`[[id]]`, `[NOTE]`, `.Title` stays:
 *   it is a caption people read);
 * - `https://x[text]`, `link:x[text]` become `[text](x)` (keyword search leaves the address out),
 *   `xref:file.adoc#id[text]` and `<<id,text>>` show their text.
 * Not a full parser: what sections, code and citations need.
 */
export function parseAsciidoc(source: string): ReadResult {
  const lines = source.split('\n');
  let title: string | null = null;
  let firstHeading: string | null = null;
  let block: { delimiter: string; kind: 'code' | 'hidden' } | null = null;
  let language = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trimEnd();
    if (block !== null) {
      if (trimmed === block.delimiter) {
        lines[i] = block.kind === 'code' ? '```' : '';
        block = null;
      } else if (block.kind === 'hidden') lines[i] = '';
      continue;
    }
    const delimiter = /^(-{4,}|\.{4,}|\+{4,}|\/{4,})$/.exec(trimmed);
    if (delimiter) {
      const kind = delimiter[1]![0] === '-' || delimiter[1]![0] === '.' ? 'code' : 'hidden';
      block = { delimiter: delimiter[1]!, kind };
      lines[i] = kind === 'code' ? '```' + language : '';
      language = '';
      continue;
    }
    language = '';
    const style = /^\[(?:source|listing)(?:,\s*([\w+#-]+))?[^\]]*\]$/.exec(trimmed);
    if (style) {
      language = style[1] ?? '';
      lines[i] = '';
      continue;
    }
    // Attribute entries, comment lines, anchors and block attribute lines: never shown as written.
    if (/^:[\w-]+!?:/.test(trimmed) || /^\/\/(?!\/)/.test(trimmed) || /^\[\[[^\]]*\]\]$/.test(trimmed) || /^\[[\w#.%,="' -]*\]$/.test(trimmed)) {
      lines[i] = '';
      continue;
    }
    const heading = /^(={1,6})\s+(\S.*)$/.exec(trimmed);
    if (heading) {
      const text = inlineAsMarkdown(heading[2]!.replace(/\s+=+$/, ''));
      const level = heading[1]!.length;
      if (level === 1) title ??= text;
      firstHeading ??= text;
      lines[i] = `${'#'.repeat(Math.max(1, level - 1))} ${text}`;
      continue;
    }
    lines[i] = inlineAsMarkdown(line);
  }
  return { text: lines.join('\n'), title: title ?? firstHeading, firstLine: 1 };
}

/** Links as Markdown links, cross references as their text. */
function inlineAsMarkdown(line: string): string {
  if (!line.includes('[') && !line.includes('<<')) return line;
  return line
    .replace(/\b(?:link:)?((?:https?|ftp|mailto):[^\s[\]]+)\[([^\]]*)\]/g, (_, address: string, text: string) => `[${text.split(',')[0] || address}](${address})`)
    .replace(/\blink:([^\s[\]]+)\[([^\]]*)\]/g, (_, address: string, text: string) => `[${text.split(',')[0] || address}](${address})`)
    .replace(/\bxref:([^\s[\]]+)\[([^\]]*)\]/g, (_, target: string, text: string) => text || target)
    .replace(/<<([^,>]+)(?:,\s*([^>]+))?>>/g, (_, target: string, text: string | undefined) => text ?? target);
}
