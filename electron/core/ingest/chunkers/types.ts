/** What a reader hands to a chunker: normalised text ('\n' line endings) and where it sits in the file. */
export interface ChunkInput {
  /** Body text after any front matter, lines separated by '\n'. */
  text: string;
  /** Document title (front matter `title`, else first `# ` heading, else file name). */
  title: string;
  /** 1-based line number in the original file of the first line of `text`. */
  firstLine: number;
}

// A chunk is what the database stores; its shape lives with the data model (db may not import ingest).
export type { Chunk } from '../../db/chunk';

export type ChunkerConfig =
  | { kind: 'heading'; maxTokens: number }
  | { kind: 'recursive'; chunkSize: number; overlap: number }
  | { kind: 'fixed'; windowTokens: number; overlap: number };

export const DEFAULT_CHUNKER: ChunkerConfig = { kind: 'heading', maxTokens: 256 };
