import { READ_EXTENSIONS, documentTypeOf, type DocumentType } from '../../../../shared/document-types';
import type { Reader, ReaderModule } from './types';

export type { Reader, ReadResult } from './types';

interface LazyReader extends Reader {
  load(): Promise<ReaderModule>;
}

/**
 * A reader whose module is imported by its first read, not with the registry: the parsers
 * (mammoth, jszip, pdf.js, micromark, markdown-it, htmlparser2) were most of the start-up of a
 * command that reads no file, such as `quire search`. Its name and version, which an import
 * compares with the stored document's, need no parser.
 */
function lazyReader(name: DocumentType, version: number, importModule: () => Promise<ReaderModule>): LazyReader {
  let module: Promise<ReaderModule> | undefined;
  const load = () => (module ??= importModule());
  return { name, version, load, read: async (bytes) => (await load()).read(bytes) };
}

/**
 * The reader of each document type; which files each reads is the type's extensions in
 * shared/document-types.ts. Bump a reader's version when its output changes for the same bytes:
 * documents read by an older version are read again.
 */
const LAZY_READERS: Readonly<Record<DocumentType, LazyReader>> = {
  // 2: parsed as CommonMark (markdown-it); HTML reduced to its text; setext headings; title from the first heading of any level.
  // 3: front matter's aliases and tags read as text; wikilinks, embeds and callouts as the words notes apps show;
  // a Logseq page's title:: property is its title; Obsidian's %% block comments (plugins' data) left out.
  markdown: lazyReader('markdown', 3, async () => (await import('./markdown')).markdownReader),
  // 2: brackets counted in one pass (a run of backslashes in a string backtracked exponentially); a
  // line starting `import` that continues a paragraph is prose; text after a comment's `*/}` is read.
  // 3: the Markdown reader's 3 (front matter's aliases and tags; wikilinks and callouts as text).
  // 4: parsed by MDX's own parser where it accepts the file: a tag over several lines, an attribute
  // holding `>` or an element, an export's template literal no longer read as text.
  mdx: lazyReader('mdx', 4, async () => (await import('./mdx')).mdxReader),
  // 2: inline patterns linear on any line; lines that would read as headings or fences escaped;
  // fences longer than the code's backtick runs; a short underline of four or more makes a title;
  // a code block's caption shown.
  // 3: directives shown as a page shows them (admonition and version labels, object descriptions as
  // headings below their section; toctree, contents and options left out; bodies dedented),
  // `parsed-literal` fenced, references, wrapped roles and defined substitutions as their text, a
  // role's `<LANG>` kept unless a space sets it off as the target, titles of one or two characters.
  rst: lazyReader('rst', 3, async () => (await import('./rst')).rstReader),
  // 2: attribute references read as their values; Markdown-style titles and fences; fences longer
  // than the code's backtick runs; example, sidebar, quote and open block delimiters left out.
  asciidoc: lazyReader('asciidoc', 2, async () => (await import('./asciidoc')).asciidocReader),
  // 2: a block ends at its own #+END_; fences longer than the code's backtick runs; switches are no
  // language; comma-escaped code lines unescaped; lines that would read as headings or fences escaped;
  // captions, subtitle, author and description shown.
  org: lazyReader('org', 2, async () => (await import('./org')).orgReader),
  // 2: its Markdown cells read by the Markdown reader's 3 (wikilinks and callouts as text).
  // 3: a Markdown cell's unclosed fence ends with the cell.
  notebook: lazyReader('notebook', 3, async () => (await import('./notebook')).notebookReader),
  latex: lazyReader('latex', 1, async () => (await import('./latex')).latexReader),
  text: lazyReader('text', 1, async () => (await import('./text')).textReader),
  pdf: lazyReader('pdf', 1, async () => (await import('./pdf')).pdfReader),
  // 2: the document's highest heading is `#` (promoteHeadings), as for HTML; nested lists indented.
  docx: lazyReader('docx', 2, async () => (await import('./docx')).docxReader),
  odt: lazyReader('odt', 1, async () => (await import('./odt')).odtReader),
  // 2: html-text.ts sets two listings in one <pre> on lines of their own, indents nested lists and
  // writes inline code as code spans.
  epub: lazyReader('epub', 2, async () => (await import('./epub')).epubReader),
  // 2: a heading's permalink ("#", "¶") left out; the site's name left out of the title.
  // 3: two listings in one <pre> (Node's ESM and CommonJS examples) on lines of their own;
  // the page's highest heading is `#` (promoteHeadings); nested lists indented; inline code as code spans.
  // 4: a title whose part is a name the page shows alone (mdBook's book, a Docusaurus site) is the page's h1.
  html: lazyReader('html', 4, async () => (await import('./html')).htmlReader),
};

export const READERS: Readonly<Record<DocumentType, Reader>> = LAZY_READERS;

/** The reader for a file name, or null when Quire does not read that type. */
export function readerFor(fileName: string): Reader | null {
  const type = documentTypeOf(fileName);
  return type === null ? null : READERS[type];
}

export function supportedExtensions(): string[] {
  return [...READ_EXTENSIONS];
}

/** Loads every reader now (the parse worker, as it starts), so that no file's read pays for loading its parser. */
export async function loadReaders(): Promise<void> {
  await Promise.all(Object.values(LAZY_READERS).map((r) => r.load()));
}
