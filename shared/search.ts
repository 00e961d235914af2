import type { z } from 'zod';
import type { SearchResponseSchema, SearchResultSchema } from './contract';

export const SEARCH_MODES = ['lexical', 'dense', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Shapes declared once, as schemas in the contract (see the field comments there). */
export type SearchResult = z.infer<typeof SearchResultSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
