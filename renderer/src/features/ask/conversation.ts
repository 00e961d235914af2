import { useCallback, useRef } from 'react';
import { describeError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useJob } from '../../app/job';
import { useThrottledState } from '../../common/throttle';
import { applyAskStep, finishTurn, historyOf, newTurn, type Turn } from './turn';
import { scopeInput } from './scope';

export interface Conversation {
  turns: Turn[];
  running: boolean;
  ask(question: string): Promise<void>;
  cancel(): void;
  clear(): void;
}

/**
 * The conversation: each question becomes an `ask` job whose steps stream into its turn, and
 * whose result ends it. Tokens re-render at most ~30 times a second; other steps render at once.
 * Follow-ups send the earlier exchanges as history.
 */
export function useConversation(): Conversation {
  const client = useClient();
  const [turns, setThrottled, setNow] = useThrottledState<Turn[]>([], 33);
  const ref = useRef<Turn[]>([]);
  const nextId = useRef(1);
  /** The turn the running job answers. */
  const asking = useRef<number | null>(null);

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
      const started = await start(() => client.ask({ question: q, ...(history.length > 0 ? { history } : {}), ...scopeInput() }));
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

  const clear = useCallback(() => {
    if (ref.current.some((t) => t.running)) return;
    ref.current = [];
    setNow([]);
  }, [setNow]);

  return { turns, running: turns.some((t) => t.running), ask, cancel, clear };
}
