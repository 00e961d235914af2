import { useCallback, useEffect, useRef } from 'react';
import { describeError } from '../../api/messages';
import { applyAskEvent, historyOf, newTurn, type Turn } from './turn';
import { useClient, useJobs } from '../../app/client';
import { useThrottledState } from '../../common/throttle';

export interface Conversation {
  turns: Turn[];
  running: boolean;
  ask(question: string): Promise<void>;
  cancel(): void;
  clear(): void;
}

/**
 * The conversation: each question becomes an `ask` job whose events stream into its turn.
 * Tokens re-render at most ~30 times a second; other events render at once. Follow-ups send the
 * earlier exchanges as history.
 */
export function useConversation(): Conversation {
  const client = useClient();
  const jobs = useJobs();
  const [turns, setThrottled, setNow] = useThrottledState<Turn[]>([], 33);
  const ref = useRef<Turn[]>([]);
  const nextId = useRef(1);
  const unwatch = useRef(new Map<number, () => void>());
  const cancelWanted = useRef(new Set<number>());

  const update = useCallback(
    (id: number, fn: (t: Turn) => Turn, now: boolean) => {
      ref.current = ref.current.map((t) => (t.id === id ? fn(t) : t));
      (now ? setNow : setThrottled)(ref.current);
    },
    [setNow, setThrottled],
  );

  useEffect(() => {
    const subs = unwatch.current;
    return () => {
      for (const u of subs.values()) u();
      subs.clear();
    };
  }, []);

  const ask = useCallback(
    async (question: string) => {
      const q = question.trim();
      if (!q || ref.current.some((t) => t.running)) return;
      const id = nextId.current++;
      const history = historyOf(ref.current);
      ref.current = [...ref.current, newTurn(id, q)];
      setNow(ref.current);
      let jobId: string;
      try {
        ({ jobId } = await client.ask(history.length > 0 ? { question: q, history } : { question: q }));
      } catch (e) {
        update(id, (t) => ({ ...t, running: false, error: describeError(e) }), true);
        return;
      }
      update(id, (t) => ({ ...t, jobId }), true);
      const stop = jobs.watch(jobId, (ev) => {
        if (ev.type !== 'ask') return;
        const final = ev.event.type === 'done' || ev.event.type === 'error';
        update(id, (t) => applyAskEvent(t, ev.event), ev.event.type !== 'token');
        if (final) {
          unwatch.current.get(id)?.();
          unwatch.current.delete(id);
        }
      });
      if (ref.current.find((t) => t.id === id)?.running) unwatch.current.set(id, stop);
      else stop();
      if (cancelWanted.current.delete(id)) void client.cancel({ jobId }).catch(() => {});
    },
    [client, jobs, setNow, update],
  );

  const cancel = useCallback(() => {
    const t = ref.current.find((x) => x.running);
    if (!t) return;
    if (t.jobId) void client.cancel({ jobId: t.jobId }).catch(() => {});
    else cancelWanted.current.add(t.id);
  }, [client]);

  const clear = useCallback(() => {
    if (ref.current.some((t) => t.running)) return;
    ref.current = [];
    setNow([]);
  }, [setNow]);

  return { turns, running: turns.some((t) => t.running), ask, cancel, clear };
}
