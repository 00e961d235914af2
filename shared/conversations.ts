import { z } from 'zod';
import { AnswerResultSchema, type AnswerResult } from './answer';

/** A stored conversation as the sidebar lists it. */
export const ConversationSummarySchema = z.object({
  id: z.number(),
  /** The first question, unless renamed. */
  title: z.string(),
  createdAt: z.string(),
  /** When its last turn was asked (or when it was renamed): the list is newest first by this. */
  updatedAt: z.string(),
  turnCount: z.number(),
});

/** A folder a question was asked of: an imported folder ('' for all of it) or a folder inside it. */
export const TurnScopePartSchema = z.object({ collectionId: z.string(), path: z.string() });

export const ConversationTurnSchema = z.object({
  ordinal: z.number(),
  question: z.string(),
  askedAt: z.string(),
  runId: z.number(),
  /**
   * The folders this question was asked of ([]: every folder), as the turn keeps them (outliving its
   * run); null when not known (a turn from before they were kept whose run is gone). Folders gone
   * since are still named: the reader drops them, as a follow-up does.
   */
  scope: z.array(TurnScopePartSchema).nullable(),
  /** The stored answer; null when its run was deleted (e.g. with a forgotten folder it quoted). */
  result: AnswerResultSchema.nullable(),
});

export const ConversationSchema = ConversationSummarySchema.extend({ turns: z.array(ConversationTurnSchema) });

/**
 * A question becomes a turn of its conversation only when it was answered: by the model, or by
 * Quire's own "Not in the documents." A failed or stopped ask (Ollama gone, Ctrl-C, a prompt that
 * does not fit) is kept as a run, the trace of what happened, but never as a turn, so no
 * conversation lists, reopens or sends as history an answer that never was, whichever shell asked.
 * A stopped answer's text is incomplete, so it is not kept either.
 */
export const TURN_STATUSES: ReadonlySet<AnswerResult['status']> = new Set(['answered', 'refused']);

export function keepsTurn(result: Pick<AnswerResult, 'status'>): boolean {
  return TURN_STATUSES.has(result.status);
}

/** How long a title may be; a first question longer than this is cut at a word. */
export const TITLE_MAX = 120;

export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;
export type TurnScopePart = z.infer<typeof TurnScopePartSchema>;
export type ConversationTurn = z.infer<typeof ConversationTurnSchema>;
export type StoredConversation = z.infer<typeof ConversationSchema>;
