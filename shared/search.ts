import { z } from 'zod';
import { Lines, Pages } from './common-schemas';

export const SEARCH_MODES = ['lexical', 'dense', 'hybrid'] as const;

/** How deep each list goes before hybrid fusion: enough that a chunk ranked low in one list can still surface. */
export const LIST_DEPTH = 50;
export type SearchMode = (typeof SEARCH_MODES)[number];
export const SearchModeSchema = z.enum(SEARCH_MODES);

/**
 * Each mode as a person reads it, with the name the CLI, an evaluation's table and a retrieval
 * trace use in brackets, so "lexical" in a report is recognisable in Settings.
 */
export const SEARCH_MODE_LABELS: Readonly<Record<SearchMode, string>> = {
  hybrid: 'Keyword and meaning (hybrid)',
  lexical: 'Keyword only (lexical)',
  dense: 'Meaning only (dense)',
};

export const SearchResultSchema = z.object({
  chunkId: z.string(),
  documentId: z.string(),
  /** Relative to the imported folder, '/'-separated. */
  path: z.string(),
  /** The collection (imported folder) the document belongs to. */
  root: z.string(),
  heading: z.string(),
  /** 1-based inclusive line range in the source file: the whole passage. */
  lines: Lines,
  /** The pages the whole passage spans, for PDFs; null for formats without pages. */
  pages: Pages,
  /**
   * The passage: the matched chunk with its neighbours in the same section (small-to-big), so a
   * detail arrives with the sentences that say what it is about.
   */
  text: z.string(),
  /** The chunks the passage joins, in document order; chunkId (the one that matched) is among them. */
  chunkIds: z.array(z.string()),
  /** Where the matched chunk sits in the passage: its lines in the file and its character range in `text`. */
  hit: z.object({ lines: Lines, pages: Pages, start: z.number().int(), end: z.number().int() }),
  /**
   * Each of chunkIds' character range in `text`, lines and pages, in the same order: a whole section
   * can be many chunks, and the budget then sends the hit with a neighbour or two of them.
   */
  chunkSpans: z.array(z.object({ start: z.number().int(), end: z.number().int(), lines: Lines, pages: Pages })).optional(),
  /** The fusion's score (also in single-list modes, so scores compare across modes). */
  score: z.number(),
  lexicalRank: z.number().nullable(),
  denseRank: z.number().nullable(),
  /** L2 distance to the query for dense candidates (unit vectors: 0 = same direction). */
  distance: z.number().nullable(),
  /** Injection flags found in the chunk at import (empty when clean). */
  flags: z.array(z.string()),
});

export const SearchResponseSchema = z.object({
  /** The mode actually used. */
  mode: SearchModeSchema,
  /** The mode asked for, when it could not be honoured, and why. */
  fallback: z.object({ requested: SearchModeSchema, reason: z.string(), code: z.string() }).optional(),
  /** The embedding model whose table was queried, if any. */
  embedModel: z.string().nullable(),
  embedDigest: z.string().nullable(),
  results: z.array(SearchResultSchema),
  ms: z.number(),
  /** The folders searched, as the engine resolved them (as an answer's `scope`); empty: every folder. */
  scope: z.array(z.object({ id: z.string(), name: z.string(), path: z.string() })).optional(),
});

export type SearchResult = z.infer<typeof SearchResultSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
