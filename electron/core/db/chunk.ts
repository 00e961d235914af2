/** One stored chunk of a document, as a chunker makes it and the database keeps it. */
export interface Chunk {
  ordinal: number;
  /** `Title > Section > Subsection`; at least the title. */
  headingPath: string;
  /** The chunk's own text, exactly as it appears in the source lines (no prefix). */
  text: string;
  /** Tokens of `contextualText(chunk)`, i.e. with the heading-path prefix, counted by the BPE tokenizer. */
  tokenCount: number;
  /** 1-based, inclusive, in the original file's line numbering. */
  startLine: number;
  endLine: number;
  /** Paged formats (PDF): the 1-based first and last page the text comes from; absent otherwise. */
  pages?: readonly [number, number] | null;
}
