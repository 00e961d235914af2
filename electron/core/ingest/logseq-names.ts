import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * How a Logseq graph writes a page's name as its file's name, so a page titled by its file name
 * reads as Logseq shows it. Logseq's docs ("Filename format", logseq/docs) and its graph parser
 * (graph_parser/extract.cljs, title-parsing) define two formats, chosen per graph by
 * `:file/name-format` in `logseq/config.edn`:
 *
 * - `:triple-lowbar`, the default for graphs made since Logseq 0.8.9: `___` stands for `/`
 *   (`a___b.md` is the page "a/b"), other characters a file name cannot hold are percent-encoded
 *   (`What%3F.md` is "What?"), and empty namespace parts are dropped.
 * - `:legacy`, a graph whose config names no format (made before 0.8.9): the whole name is
 *   percent-decoded (`a%2Fb.md` is "a/b"), and, for files of Logseq's earliest versions, a `.`
 *   stands for `/` too (`a.b.md` is "a/b"). Logseq wrote a `title::` property into any page whose
 *   name it encoded, which Quire reads first (readers/front-matter.ts); the file name is the rule
 *   for the pages without one.
 *
 * A folder is a Logseq graph when it, or the folder holding it (a graph's `pages/` imported alone),
 * has `logseq/config.edn`. Other folders' file names are titles as they stand.
 */
export type LogseqNameFormat = 'triple-lowbar' | 'legacy';

/** The graph's file-name format; null when the folder is not in a Logseq graph. */
export async function logseqNameFormat(root: string): Promise<LogseqNameFormat | null> {
  for (const dir of [root, path.dirname(root)]) {
    let config: string;
    try {
      config = await fs.readFile(path.join(dir, 'logseq', 'config.edn'), 'utf8');
    } catch {
      continue;
    }
    // EDN comments run from `;` to the end of the line; the stock config holds commented examples.
    const format = /:file\/name-format\s+:([\w-]+)/.exec(config.replace(/;[^\n]*/g, ''))?.[1];
    return format === 'triple-lowbar' ? 'triple-lowbar' : 'legacy';
  }
  return null;
}

/** Logseq's page name for a file's name without its extension. */
export function logseqPageName(fileBody: string, format: LogseqNameFormat): string {
  if (format === 'legacy') {
    const title = fileBody.replaceAll('.', '/');
    try {
      return decodeURIComponent(title);
    } catch {
      return title;
    }
  }
  const decoded = fileBody.replaceAll('___', '/').replace(/%[0-9a-f]{2}/gi, (token) => {
    // Each escape alone: one byte of a longer UTF-8 sequence does not decode, and stays as written.
    try {
      return decodeURIComponent(token);
    } catch {
      return token;
    }
  });
  return decoded
    .split('/')
    .filter((part) => part !== '')
    .join('/');
}
