/** What a reader hands to a chunker: normalised text ('\n' line endings) and where it sits in the file. */
export interface ChunkInput {
  /** Body text after any front matter, lines separated by '\n'. */
  text: string;
  /** Document title (front matter `title`, else first `# ` heading, else file name). */
  title: string;
  /** 1-based line number in the original file of the first line of `text`. */
  firstLine: number;
}

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
}

export type ChunkerConfig =
  | { kind: 'heading'; maxTokens: number }
  | { kind: 'recursive'; chunkSize: number; overlap: number }
  | { kind: 'fixed'; windowTokens: number; overlap: number };

export const DEFAULT_CHUNKER: ChunkerConfig = { kind: 'heading', maxTokens: 256 };
