export const SEARCH_MODES = ['lexical', 'dense', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface SearchResult {
  chunkId: string;
  documentId: string;
  /** Relative to the imported folder, '/'-separated. */
  path: string;
  /** The collection (imported folder) the document belongs to. */
  root: string;
  heading: string;
  /** 1-based inclusive line range in the source file. */
  lines: [number, number];
  text: string;
  /** Reciprocal-rank-fusion score (also in single-list modes, so scores compare across modes). */
  score: number;
  lexicalRank: number | null;
  denseRank: number | null;
  /** L2 distance to the query for dense candidates (unit vectors: 0 = same direction). */
  distance: number | null;
  /** Injection flags found in the chunk at import (empty when clean). */
  flags: string[];
}

export interface SearchResponse {
  /** The mode actually used. */
  mode: SearchMode;
  /** The mode asked for, when it could not be honoured, and why. */
  fallback?: { requested: SearchMode; reason: string; code: string };
  /** The embedding model whose table was queried, if any. */
  embedModel: string | null;
  embedDigest: string | null;
  results: SearchResult[];
  ms: number;
}
