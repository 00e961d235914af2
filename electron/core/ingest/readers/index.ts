import { READ_EXTENSIONS, documentTypeOf, type DocumentType } from '../../../../shared/document-types';
import { asciidocReader } from './asciidoc';
import { docxReader } from './docx';
import { epubReader } from './epub';
import { htmlReader } from './html';
import { latexReader } from './latex';
import { markdownReader } from './markdown';
import { mdxReader } from './mdx';
import { notebookReader } from './notebook';
import { odtReader } from './odt';
import { orgReader } from './org';
import { pdfReader } from './pdf';
import { rstReader } from './rst';
import { textReader } from './text';
import type { Reader } from './types';

export type { Reader, ReadResult } from './types';

/** The reader of each document type; which files each reads is the type's extensions in shared/document-types.ts. */
export const READERS: Readonly<Record<DocumentType, Reader>> = {
  markdown: markdownReader,
  mdx: mdxReader,
  rst: rstReader,
  asciidoc: asciidocReader,
  org: orgReader,
  notebook: notebookReader,
  latex: latexReader,
  text: textReader,
  pdf: pdfReader,
  docx: docxReader,
  odt: odtReader,
  epub: epubReader,
  html: htmlReader,
};

/** The reader for a file name, or null when Quire does not read that type. */
export function readerFor(fileName: string): Reader | null {
  const type = documentTypeOf(fileName);
  return type === null ? null : READERS[type];
}

export function supportedExtensions(): string[] {
  return [...READ_EXTENSIONS];
}
