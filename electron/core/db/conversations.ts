import type { HistoryTurn } from '../../../shared/answer';
import { TITLE_MAX, TURN_STATUSES, type ConversationSummary, type StoredConversation, type TurnScopePart } from '../../../shared/conversations';
import { QuireError } from '../../../shared/errors';
import type { Db } from './open';
import { storedResult } from './runs';
import { stmt } from './statements';

/**
 * Stored conversations (migration 0008): a title and its turns, each turn pointing at the run that
 * answered it. The answers themselves live only in `runs`, so that deleting a run (forgetting a
 * folder it quoted) removes the text everywhere; the turn then shows as removed.
 */

const SUMMARY = `SELECT c.id, c.title, c.created_at AS createdAt, c.updated_at AS updatedAt,
                          (SELECT count(*) FROM conversation_turns t WHERE t.conversation_id = c.id) AS turnCount
                     FROM conversations c`;

/** A title from the first question: one line, cut at a word past TITLE_MAX characters. */
export function titleFrom(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  if (line.length <= TITLE_MAX) return line;
  const cut = line.slice(0, TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > TITLE_MAX / 2 ? cut.slice(0, space) : cut}…`;
}

/** Conversations, newest first; with `query`, those whose title contains it (case-insensitive for ASCII). */
export function listConversations(db: Db, query?: string): ConversationSummary[] {
  const q = query?.trim() ?? '';
  // LIKE's wildcards in what a person typed are matched as themselves.
  const pattern = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return stmt(db, `${SUMMARY} WHERE @q = '' OR c.title LIKE @pattern ESCAPE '\\' ORDER BY c.updated_at DESC, c.id DESC`).all({ q, pattern }) as ConversationSummary[];
}

function summary(db: Db, id: number): ConversationSummary {
  const row = stmt(db, `${SUMMARY} WHERE c.id = ?`).get(id) as ConversationSummary | undefined;
  if (!row) throw new QuireError('CONVERSATION_NOT_FOUND', `There is no conversation ${id}.`);
  return row;
}

/** Throws CONVERSATION_NOT_FOUND unless the conversation exists. */
export function requireConversation(db: Db, id: number): void {
  summary(db, id);
}

/** A conversation with its turns, each with its stored answer (null where the run is gone). */
export function getConversation(db: Db, id: number): StoredConversation {
  // Read without a transaction (which would take the write lock): in this process nothing runs
  // between these statements, and another process's change at worst shows a turn as removed.
  const head = summary(db, id);
  const turns = stmt(db, 'SELECT ordinal, question, asked_at AS askedAt, run_id AS runId, scope FROM conversation_turns WHERE conversation_id = ? ORDER BY ordinal').all(id) as Array<{
    ordinal: number;
    question: string;
    askedAt: string;
    runId: number;
    scope: string | null;
  }>;
  return { ...head, turns: turns.map((t) => ({ ...t, scope: turnScope(t.scope), result: storedResult(db, t.runId) })) };
}

/**
 * The history a follow-up in this conversation sends: its answered (or refused) turns, the last
 * `max` of them. Removed turns are left out, as the Ask view leaves them out, and so are the failed
 * or stopped turns an older Quire stored (it kept every ask as a turn; see TURN_STATUSES).
 */
export function conversationHistory(db: Db, id: number, max = 50): HistoryTurn[] {
  const rows = stmt(
    db,
    `SELECT t.question, r.answer FROM conversation_turns t JOIN runs r ON r.id = t.run_id
      WHERE t.conversation_id = ? AND r.status IN (SELECT value FROM json_each(?)) ORDER BY t.ordinal DESC LIMIT ?`,
  ).all(id, JSON.stringify([...TURN_STATUSES]), max) as Array<{ question: string; answer: string | null }>;
  return rows.reverse().map((r) => ({ question: r.question, answer: r.answer ?? '' }));
}

/**
 * The folders the conversation's last question was asked of (whole folders with path ''): what a
 * follow-up that names none is asked of, so a question about "it" stays where "it" was found.
 * Empty when it was asked of every folder (or nothing was asked yet). Read from the turn's own copy
 * (migration 0015), which outlives its run; null when not known: a turn from before that migration
 * whose run was already deleted.
 */
export function conversationScope(db: Db, id: number): TurnScopePart[] | null {
  const scope = stmt(db, 'SELECT scope FROM conversation_turns WHERE conversation_id = ? ORDER BY ordinal DESC LIMIT 1').pluck().get(id) as string | null | undefined;
  return scope === undefined ? [] : turnScope(scope);
}

/** A turn's stored `scope` column (the answer's `{ id, name, path }` parts, as JSON): null stays not known. */
function turnScope(stored: string | null): TurnScopePart[] | null {
  if (stored === null) return null;
  const parts = stored ? (JSON.parse(stored) as Array<{ id: string; path?: string }>) : [];
  return parts.map((p) => ({ collectionId: p.id, path: p.path ?? '' }));
}

/**
 * Records a turn answered by run `runId`: in conversation `id`, or in a new one titled by the
 * question when `id` is null. Only for an answered run (`keepsTurn` in shared/conversations.ts). Returns the conversation's id, or null when `id` was deleted while
 * the answer streamed (it is not brought back).
 */
export function recordTurn(db: Db, id: number | null, question: string, runId: number, scope: ReadonlyArray<{ id: string; path: string }>): number | null {
  return db
    .transaction(() => {
      const now = new Date().toISOString();
      let conversationId = id;
      if (conversationId === null) {
        conversationId = Number(stmt(db, 'INSERT INTO conversations (title, created_at, updated_at) VALUES (?, ?, ?)').run(titleFrom(question), now, now).lastInsertRowid);
      } else if (stmt(db, 'UPDATE conversations SET updated_at = ? WHERE id = ?').run(now, conversationId).changes === 0) {
        return null;
      }
      stmt(
        db,
        `INSERT INTO conversation_turns (conversation_id, ordinal, run_id, question, asked_at, scope)
         VALUES (@c, (SELECT coalesce(max(ordinal), 0) + 1 FROM conversation_turns WHERE conversation_id = @c), @run, @q, @now, @scope)`,
      ).run({ c: conversationId, run: runId, q: question, now, scope: JSON.stringify(scope) });
      return conversationId;
    })
    .immediate();
}

export function renameConversation(db: Db, id: number, title: string): string {
  const t = titleFrom(title);
  if (!t) throw new QuireError('INVALID_ARGUMENT', 'A conversation needs a title.');
  const changed = stmt(db, 'UPDATE conversations SET title = ? WHERE id = ?').run(t, id).changes;
  if (changed === 0) throw new QuireError('CONVERSATION_NOT_FOUND', `There is no conversation ${id}.`);
  return t;
}

/** Deletes a conversation, its turns and the runs that answered them; returns the runs deleted. */
export function deleteConversation(db: Db, id: number): number {
  return db
    .transaction(() => {
      requireConversation(db, id);
      const runs = stmt(db, 'DELETE FROM runs WHERE id IN (SELECT run_id FROM conversation_turns WHERE conversation_id = ?)').run(id).changes;
      // Its turns go with it (ON DELETE CASCADE).
      stmt(db, 'DELETE FROM conversations WHERE id = ?').run(id);
      return runs;
    })
    .immediate();
}
