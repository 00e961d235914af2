import path from 'node:path';
import { asciidocReader } from './asciidoc';
import { docxReader } from './docx';
import { htmlReader } from './html';
import { markdownReader } from './markdown';
import { mdxReader } from './mdx';
import { notebookReader } from './notebook';
import { orgReader } from './org';
import { pdfReader } from './pdf';
import { rstReader } from './rst';
import { textReader } from './text';
import type { Reader } from './types';

export type { Reader, ReadResult } from './types';

const READERS: readonly Reader[] = [markdownReader, mdxReader, rstReader, asciidocReader, orgReader, notebookReader, textReader, pdfReader, docxReader, htmlReader];

const BY_EXTENSION = new Map<string, Reader>(READERS.flatMap((r) => r.extensions.map((ext) => [ext, r] as const)));

/** The reader for a file name, or null when Quire does not read that type. */
export function readerFor(fileName: string): Reader | null {
  return BY_EXTENSION.get(path.extname(fileName).toLowerCase()) ?? null;
}

export function supportedExtensions(): string[] {
  return [...BY_EXTENSION.keys()];
}
