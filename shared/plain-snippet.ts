/**
 * A Markdown passage as the words a person reads, for a search result's few lines: no `##`,
 * `**`, backticks, link targets or fences. Not a Markdown parser (the answer view has one); a
 * snippet is a cut-off piece that a parser would often misread anyway, so line by line and
 * conservatively: what is not clearly syntax stays as written.
 */
export function plainSnippet(markdown: string): string {
  const lines: string[] = [];
  for (const raw of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) continue; // a code fence, not its code
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(raw) && raw.includes('|')) continue; // a table's rule
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(raw)) continue; // a thematic break
    let line = raw
      .replace(/^\s{0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/, '$1')
      .replace(/^(\s*>)+\s?/, '')
      // A task keeps whether it is done, which is what a person searching a to-do list asks.
      .replace(/^(\s*)(?:[-*+]|(\d{1,9}[.)]))\s+\[([ xX])\]\s+/, (_, indent: string, number: string | undefined, mark: string) => `${indent}${number ? `${number} ` : ''}${mark === ' ' ? '☐' : '☑'} `)
      .replace(/^(\s*)[-*+]\s+/, '$1• ');
    if (/^\s*\|.*\|\s*$/.test(line)) line = line.trim().slice(1, -1).split('|').map((c) => c.trim()).join(' · ');
    lines.push(inline(line));
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

function inline(text: string): string {
  return (
    text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
      .replace(/(`+)(.+?)\1/g, (_, _ticks: string, code: string) => code.trim())
      .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
      // Single * or _ only around words, so snake_case and 2 * 3 stay as written.
      .replace(/(^|[^\w*\\])\*(?=[^\s*])([^*]*?[^\s*\\])\*(?![\w*])/g, '$1$2')
      .replace(/(^|[^\w\\])_(?=[^\s_])([^_]*?[^\s_\\])_(?!\w)/g, '$1$2')
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
  );
}
