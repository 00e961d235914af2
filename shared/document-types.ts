/**
 * The types of document Quire reads and the file extensions each is read from, declared once: the
 * readers are chosen by this table (electron/core/ingest/readers/index.ts maps each type to its
 * reader, and the compiler holds it to every type), and every list of what Quire reads is written
 * from it (skip-reasons.ts, the CLI's help and import report). No runtime and no zod, so shared/
 * and `quire --help` can read it.
 */
export const DOCUMENT_TYPES = ['markdown', 'mdx', 'rst', 'asciidoc', 'org', 'notebook', 'latex', 'text', 'pdf', 'docx', 'odt', 'epub', 'html'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Each format as people name it (the library, the import summary, the CLI). */
export const DOCUMENT_TYPE_LABELS: Readonly<Record<DocumentType, string>> = { markdown: 'Markdown', mdx: 'MDX', rst: 'reStructuredText', asciidoc: 'AsciiDoc', org: 'Org', notebook: 'Notebook', latex: 'LaTeX', text: 'Text', pdf: 'PDF', docx: 'Word', odt: 'OpenDocument', epub: 'EPUB', html: 'HTML' };

/** The extensions (lower case, with the dot) each type is read from. */
export const DOCUMENT_EXTENSIONS: Readonly<Record<DocumentType, readonly string[]>> = {
  markdown: ['.md', '.markdown'],
  mdx: ['.mdx'],
  rst: ['.rst'],
  asciidoc: ['.adoc', '.asciidoc'],
  org: ['.org'],
  notebook: ['.ipynb'],
  latex: ['.tex'],
  text: ['.txt'],
  pdf: ['.pdf'],
  docx: ['.docx'],
  odt: ['.odt'],
  epub: ['.epub'],
  html: ['.html', '.htm'],
};

/** Every extension Quire reads, in the types' order. */
export const READ_EXTENSIONS: readonly string[] = DOCUMENT_TYPES.flatMap((t) => DOCUMENT_EXTENSIONS[t]);

const TYPE_BY_EXTENSION = new Map<string, DocumentType>(DOCUMENT_TYPES.flatMap((t) => DOCUMENT_EXTENSIONS[t].map((ext) => [ext, t] as const)));

/**
 * The type a file is read as, by its extension as Node's path.extname finds it (case aside; a
 * name's leading dot starts no extension, so `.md` is not Markdown and `..md` is), or null when
 * Quire does not read it. One rule for the readers and for the renderer, which has no path module.
 */
export function documentTypeOf(fileName: string): DocumentType | null {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? (TYPE_BY_EXTENSION.get(base.slice(dot).toLowerCase()) ?? null) : null;
}

/** The extensions as a list in words: ".md, .markdown, … and .htm" (or "… or .htm"), or comma-separated with ','. */
export function extensionList(joiner: 'and' | 'or' | ','): string {
  if (joiner === ',') return READ_EXTENSIONS.join(', ');
  return `${READ_EXTENSIONS.slice(0, -1).join(', ')} ${joiner} ${READ_EXTENSIONS.at(-1)}`;
}
