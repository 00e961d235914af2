import type { z } from 'zod';
import type {
  AnswerResultSchema,
  AskEventSchema,
  AskStepSchema,
  BudgetSchema,
  CandidateSchema,
  CitationSchema,
  ImportProgressSchema,
  ImportReportSchema,
} from '../../../shared/contract';

/** The shapes as they cross the API (from the contract's schemas), which is what the renderer receives. */
export type ImportProgress = z.infer<typeof ImportProgressSchema>;
export type ImportReport = z.infer<typeof ImportReportSchema>;
export type AskEvent = z.infer<typeof AskEventSchema>;
export type AskStep = z.infer<typeof AskStepSchema>;
export type AnswerResult = z.infer<typeof AnswerResultSchema>;
export type AnswerFlag = AnswerResult['flags'][number];
export type Budget = z.infer<typeof BudgetSchema>;
export type Candidate = z.infer<typeof CandidateSchema>;
export type Citation = z.infer<typeof CitationSchema>;
export interface HistoryTurn {
  question: string;
  answer: string;
}
