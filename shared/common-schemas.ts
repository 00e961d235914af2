import { z } from 'zod';

/** Schemas several contract files build on; a leaf, so shared/ imports never go round in a circle. */

export const ErrorShape = z.object({ code: z.string(), message: z.string() });

/** 1-based inclusive [first, last] line range in a source file. */
export const Lines = z.tuple([z.number().int(), z.number().int()]);

/** 1-based inclusive [first, last] page range in a paged file (PDF); null where a format has no pages. */
export const Pages = z.tuple([z.number().int(), z.number().int()]).nullable();
