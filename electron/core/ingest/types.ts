import type { z } from 'zod';
import type { ImportProgressSchema, ImportReportSchema } from '../../../shared/contract';

/** Shapes declared once, as schemas in the contract. */
export type ImportProgress = z.infer<typeof ImportProgressSchema>;
export type ImportReport = z.infer<typeof ImportReportSchema>;
export type SkipReason = ImportReport['skipped'][number]['reason'];
export type EmbeddingOutcome = ImportReport['embedding'];
