// Chunking entry point. Three chunkers behind one signature; see each file for its rules. Every
// chunk's text is a substring of the input (so it can be shown and highlighted in place), its
// lines are where that substring sits in the original file, and its tokenCount is the BPE count
// of contextualText(chunk), the most an embedding model is sent for it (see embedding-input.ts).
import { fixedChunks } from './fixed';
import { headingChunks } from './heading';
import { recursiveChunks } from './recursive';
import { formatChunkerSpec, validateChunkerConfig } from './spec';
import { TOKENIZER_NAME } from '../../text/tokenizer';
import { DEFAULT_CHUNKER, type Chunk, type ChunkInput, type ChunkerConfig } from './types';

export { formatChunkerSpec, parseChunkerSpec, validateChunkerConfig } from './spec';
export { DEFAULT_CHUNKER } from './types';
export type { Chunk, ChunkInput, ChunkerConfig } from './types';

/**
 * Bump when any chunker's output changes for the same input and settings (rules, tokenizer):
 * documents cut by an older recipe are then re-cut on the next import.
 */
export const CHUNKER_RECIPE_VERSION = 4; // 2: chunks carry injection flags; 3: a first heading of any level equal to the title is not repeated in paths; 4: a fence on a list item's marker line is code (columns counted as CommonMark does: tabs to their stop, 5+ after the marker is indented code), and chunks are embedded as read (embedding-input.ts), so every vector is remade once

/** What a document records as "how it was cut": the settings plus the recipe and tokenizer. */
export function chunkerRecipe(config: ChunkerConfig): string {
  return `${formatChunkerSpec(config)}@v${CHUNKER_RECIPE_VERSION}+${TOKENIZER_NAME}`;
}

export function chunkDocument(input: ChunkInput, config: ChunkerConfig = DEFAULT_CHUNKER): Chunk[] {
  validateChunkerConfig(config);
  if (!/\S/.test(input.text)) return [];
  switch (config.kind) {
    case 'heading':
      return headingChunks(input, config.maxTokens);
    case 'recursive':
      return recursiveChunks(input, config.chunkSize, config.overlap);
    case 'fixed':
      return fixedChunks(input, config.windowTokens, config.overlap);
  }
}

/** What a chunk's size counts: the heading path, a blank line, the chunk's text. */
export function contextualText(chunk: Pick<Chunk, 'headingPath' | 'text'>): string {
  return `${chunk.headingPath}\n\n${chunk.text}`;
}
