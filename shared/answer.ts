import type { z } from 'zod';
import type { AnswerResultSchema, AskEventSchema, BudgetSchema, CandidateSchema, CitationSchema } from './contract';

/** Shapes declared once, as schemas in the contract (see the field comments there). */
export type Candidate = z.infer<typeof CandidateSchema>;
export type Budget = z.infer<typeof BudgetSchema>;
export type BudgetBreakdown = Budget['breakdown'];
export type Citation = z.infer<typeof CitationSchema>;
export type CitationCheck = Citation['check'];
export type AnswerResult = z.infer<typeof AnswerResultSchema>;
export type AnswerFlag = AnswerResult['flags'][number];
export type AskEvent = z.infer<typeof AskEventSchema>;

export interface HistoryTurn {
  question: string;
  answer: string;
}
