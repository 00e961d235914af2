import { newCounter, parseInline, type CiteNode, type Inline } from './markdown-inline';

export type { CiteNode, Inline };

export type Block =
  | { t: 'p'; c: Inline[] }
  | { t: 'h'; level: number; c: Inline[] }
  | { t: 'code'; lang: string; v: string }
  | { t: 'list'; ordered: boolean; start: number; items: Inline[][] }
  | { t: 'quote'; c: Inline[] }
  | { t: 'hr' };

export interface ParsedMarkdown {
  blocks: Block[];
  /** Every citation marker, in order. */
  cites: CiteNode[];
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const HR = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const ITEM = /^\s{0,8}([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

const blank = (l: string) => l.trim() === '';
const startsBlock = (l: string) => FENCE.test(l) || HEADING.test(l) || HR.test(l) || ITEM.test(l) || QUOTE.test(l);

/**
 * A deliberately small Markdown reader for answers: paragraphs, headings, lists, block quotes,
 * fenced code and the inline forms in markdown-inline.ts. Tolerant of half-written input, since
 * it re-reads the answer as tokens stream in.
 */
export function parseMarkdown(text: string): ParsedMarkdown {
  const counter = newCounter();
  const inline = (s: string) => parseInline(s, counter);
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1] as string;
      const body: string[] = [];
      i++;
      while (i < lines.length && !new RegExp(`^\\s{0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}\\s*$`).test(lines[i] as string)) body.push(lines[i++] as string);
      i++;
      blocks.push({ t: 'code', lang: fence[2] ?? '', v: body.join('\n') });
      continue;
    }
    if (blank(line)) {
      i++;
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      blocks.push({ t: 'h', level: (h[1] as string).length, c: inline(h[2] ?? '') });
      i++;
      continue;
    }
    if (HR.test(line)) {
      blocks.push({ t: 'hr' });
      i++;
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1] as string);
      const start = ordered ? parseInt(item[1] as string, 10) : 1;
      const items: string[] = [];
      while (i < lines.length) {
        const l = lines[i] as string;
        const m = ITEM.exec(l);
        if (m && /\d/.test(m[1] as string) === ordered) {
          items.push(m[2] ?? '');
        } else if (m || blank(l)) {
          const next = lines.slice(i + 1).find((x) => !blank(x));
          const nm = next ? ITEM.exec(next) : null;
          if (m || !nm || /\d/.test(nm[1] as string) !== ordered) break;
        } else if (startsBlock(l)) {
          break;
        } else {
          items[items.length - 1] += '\n' + l.trim();
        }
        i++;
      }
      blocks.push({ t: 'list', ordered, start, items: items.map(inline) });
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] as string)) body.push(QUOTE.exec(lines[i++] as string)![1] ?? '');
      blocks.push({ t: 'quote', c: inline(body.join('\n')) });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !blank(lines[i] as string) && (para.length === 0 || !startsBlock(lines[i] as string))) para.push(lines[i++] as string);
    blocks.push({ t: 'p', c: inline(para.join('\n')) });
  }
  return { blocks, cites: counter.all };
}
