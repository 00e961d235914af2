/**
 * How many texts go in one /api/embed request: the default and the bounds, for the embedder, the
 * contract's `batch` inputs and the CLI's `--batch` help. No runtime and no zod, so `quire --help`
 * can read it without loading anything else.
 */
export const EMBED_BATCH = { fallback: 32, min: 1, max: 4096 } as const;
