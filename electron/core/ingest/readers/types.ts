import type { DocumentType } from '../../../../shared/document-types';

export interface ReadResult {
  /** Normalised body text ('\n' line endings), front matter removed. */
  text: string;
  /** A title the format declares (front matter, first H1), or null to fall back to the file name. */
  title: string | null;
  /**
   * The title is the document's first heading, not one it declares (front matter, a Logseq
   * `title::`, Org's `#+TITLE:`): in a Logseq graph, where a page is named by its file, it is not the name.
   */
  titleIsHeading?: boolean;
  /** 1-based line in the file where `text` begins. */
  firstLine: number;
  /**
   * Paged formats (PDF): the line of `text` (numbered like chunk lines, from firstLine) on which
   * each page begins, page 1 first. A page without text starts where the next text does.
   */
  pages?: readonly number[];
}

/** What a reader's module exports: the format's parse. Its version is kept in the registry (index.ts). */
export interface ReaderModule {
  /** Its document type, stored on the document; the extensions it reads are that type's (shared/document-types.ts). */
  name: DocumentType;
  /** Formats parsed by a library (PDF, DOCX) answer asynchronously. */
  read(bytes: Uint8Array): ReadResult | Promise<ReadResult>;
}

/** A reader as the registry hands it out: its name and version known at once, its module loaded by the first read. */
export interface Reader {
  name: DocumentType;
  /** Bump when output changes for the same bytes: documents read by an older version are re-read. */
  version: number;
  read(bytes: Uint8Array): Promise<ReadResult>;
}
