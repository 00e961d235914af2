import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useJob } from '../../app/job';
import { useThrottledState } from '../../common/throttle';
import { applyAskStep, finishTurn, historyOf, newTurn, unanswered, type Turn } from './turn';
import { followConversationScope, restoreChosenScope, scopeInput } from './scope';
import { readOpenConversation, rememberOpenConversation } from '../conversations/open-conversation';
import { turnsOf } from '../conversations/stored-turns';

export interface Conversation {
  turns: Turn[];
  running: boolean;
  /** The stored conversation shown (null: a new one, stored when its first answer ends). */
  id: number | null;
  /** Changes whenever a turn is stored, so lists of conversations know to look again. */
  savedTick: number;
  /** Why the stored conversation could not be opened. */
  openError: DescribedError | null;
  ask(question: string): Promise<void>;
  /** Asks a question that got no answer again, in its place (it was never a turn of the stored conversation). */
  retry(turnId: number): Promise<void>;
  cancel(): void;
  clear(): void;
  /** Shows a stored conversation as it was; follow-ups continue it. */
  open(id: number): Promise<void>;
}

/**
 * The conversation: each question becomes an `ask` job whose steps stream into its turn, and
 * whose result ends it. Tokens re-render at most ~30 times a second; other steps render at once.
 * Follow-ups send the earlier exchanges as history, and the stored conversation's id (the engine
 * stores every answer as a turn of it); a reload reopens the conversation that was open.
 */
export function useConversation(): Conversation {
  const client = useClient();
  const [turns, setThrottled, setNow] = useThrottledState<Turn[]>([], 33);
  const ref = useRef<Turn[]>([]);
  const nextId = useRef(1);
  /** The turn the running job answers. */
  const asking = useRef<number | null>(null);
  const [id, setIdState] = useState<number | null>(null);
  const idRef = useRef<number | null>(null);
  const [savedTick, setSavedTick] = useState(0);
  const [openError, setOpenError] = useState<DescribedError | null>(null);
  const setId = useCallback((next: number | null) => {
    idRef.current = next;
    setIdState(next);
    rememberOpenConversation(next);
  }, []);

  const update = useCallback(
    (id: number, fn: (t: Turn) => Turn, now: boolean) => {
      ref.current = ref.current.map((t) => (t.id === id ? fn(t) : t));
      (now ? setNow : setThrottled)(ref.current);
    },
    [setNow, setThrottled],
  );

  const job = useJob('ask', {
    onProgress: (step) => {
      const id = asking.current;
      if (id !== null) update(id, (t) => applyAskStep(t, step), step.type !== 'token');
    },
    onDone: ({ result, error }) => {
      const id = asking.current;
      asking.current = null;
      if (id !== null) update(id, (t) => finishTurn(t, result, error ? describeError(error) : null), true);
      if (result?.conversationId !== undefined) {
        setId(result.conversationId);
        setSavedTick((n) => n + 1);
      }
    },
  });
  const { start, cancel } = job;

  const ask = useCallback(
    async (question: string) => {
      const q = question.trim();
      if (!q || ref.current.some((t) => t.running)) return;
      const id = nextId.current++;
      const history = historyOf(ref.current);
      ref.current = [...ref.current, newTurn(id, q)];
      setNow(ref.current);
      asking.current = id;
      const conversationId = idRef.current;
      const started = await start(() => client.ask({ question: q, ...(history.length > 0 ? { history } : {}), ...(conversationId !== null ? { conversationId } : {}), ...scopeInput() }));
      if (started.started) {
        const { jobId } = started;
        update(id, (t) => ({ ...t, jobId }), true);
      } else {
        if (asking.current === id) asking.current = null;
        update(id, (t) => ({ ...t, running: false, error: started.error }), true);
      }
    },
    [client, start, setNow, update],
  );

  const retry = useCallback(
    async (turnId: number) => {
      const failed = ref.current.find((t) => t.id === turnId);
      if (!failed || !unanswered(failed) || ref.current.some((t) => t.running)) return;
      ref.current = ref.current.filter((t) => t.id !== turnId);
      await ask(failed.question);
    },
    [ask],
  );

  const clear = useCallback(() => {
    if (ref.current.some((t) => t.running)) return;
    ref.current = [];
    setNow([]);
    setId(null);
    setOpenError(null);
    restoreChosenScope();
  }, [setNow, setId]);

  const open = useCallback(
    async (conversationId: number) => {
      if (ref.current.some((t) => t.running)) return;
      try {
        const stored = await client.conversation({ id: conversationId });
        ref.current = turnsOf(stored, nextId.current);
        nextId.current += stored.turns.length;
        setNow(ref.current);
        setId(conversationId);
        setOpenError(null);
        // A follow-up is asked of what the picker shows: the folders of the last question (the picker drops those gone since).
        followConversationScope(stored.turns.at(-1)?.scope ?? null);
      } catch (e) {
        // Deleted meanwhile (or elsewhere): start afresh, saying why.
        ref.current = [];
        setNow([]);
        setId(null);
        setOpenError(describeError(e));
        restoreChosenScope();
      }
    },
    [client, setNow, setId],
  );

  // After a reload: the conversation that was open.
  useEffect(() => {
    const remembered = readOpenConversation();
    if (remembered !== null) void open(remembered);
  }, [open]);

  return { turns, running: turns.some((t) => t.running), id, savedTick, openError, ask, retry, cancel, clear, open };
}
