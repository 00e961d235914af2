import { decodeText } from './decode';
import type { Reader, ReadResult } from './types';

export const markdownReader = {
  name: 'markdown',
  version: 1,
  extensions: ['.md', '.markdown'],
  read(bytes) {
    return parseMarkdown(decodeText(bytes));
  },
} satisfies Reader;

/**
 * Strips YAML (`---`) or TOML (`+++`) front matter and takes its `title`; otherwise the first
 * `# ` heading outside a code fence is the title. The body keeps its own line numbering offset.
 */
export function parseMarkdown(source: string): ReadResult {
  const lines = source.split('\n');
  const fence = lines[0]?.trimEnd();
  let title: string | null = null;
  let bodyStart = 0;
  if (fence === '---' || fence === '+++') {
    const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === fence || (fence === '---' && l.trimEnd() === '...')));
    if (end > 0) {
      title = frontMatterTitle(lines.slice(1, end));
      bodyStart = end + 1;
    }
  }
  const text = lines.slice(bodyStart).join('\n');
  return { text, title: title ?? firstH1(lines.slice(bodyStart)), firstLine: bodyStart + 1 };
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

function firstH1(lines: string[]): string | null {
  let inFence: string | null = null;
  for (const line of lines) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      const marker = f[1] ?? '';
      if (inFence === null) inFence = marker;
      else if (marker[0] === inFence[0] && marker.length >= inFence.length) inFence = null;
      continue;
    }
    if (inFence !== null) continue;
    const h = /^ {0,3}#[ \t]+(.*?)[ \t#]*$/.exec(line);
    if (h && (h[1] ?? '').length > 0) return stripInlineMarkup(h[1] ?? '');
  }
  return null;
}

function stripInlineMarkup(s: string): string {
  return s.replace(/[*_`]/g, '').trim();
}
