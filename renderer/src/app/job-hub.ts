import type { ApiEvent, Client, JobEvent } from '../../../shared/contract';

export interface JobHub {
  /** Events of one job, including those that arrived before the job id did (replayed first). */
  watch(jobId: string, listener: (e: JobEvent) => void): () => void;
  /** Every event. */
  onEvent(listener: (e: ApiEvent) => void): () => void;
  /** Starts listening to the client's events; returns the function that stops it. */
  connect(): () => void;
}

const MAX_JOBS_BUFFERED = 32;
const MAX_EVENTS_PER_JOB = 5000;
const BUFFER_MS = 30_000;

/**
 * One subscription to the client's event stream, fanned out by job id. Over HTTP the first events
 * of a job can arrive on the event stream before the POST that started it returns its id, so
 * events of jobs nobody watches yet are kept for a while and replayed to the first watcher.
 */
export function createJobHub(client: Client, now: () => number = Date.now): JobHub {
  const watchers = new Map<string, Set<(e: JobEvent) => void>>();
  const all = new Set<(e: ApiEvent) => void>();
  const pending = new Map<string, { at: number; events: JobEvent[] }>();

  function prune(): void {
    const cutoff = now() - BUFFER_MS;
    for (const [id, b] of pending) if (b.at < cutoff) pending.delete(id);
    while (pending.size > MAX_JOBS_BUFFERED) pending.delete(pending.keys().next().value as string);
  }

  const route = (event: ApiEvent) => {
    if ('jobId' in event) {
      const set = watchers.get(event.jobId);
      if (set && set.size > 0) {
        for (const l of [...set]) l(event);
      } else {
        let b = pending.get(event.jobId);
        if (!b) {
          b = { at: now(), events: [] };
          pending.set(event.jobId, b);
          prune();
        }
        if (b.events.length < MAX_EVENTS_PER_JOB) b.events.push(event);
      }
    }
    for (const l of [...all]) l(event);
  };

  return {
    watch(jobId, listener) {
      let set = watchers.get(jobId);
      if (!set) watchers.set(jobId, (set = new Set()));
      set.add(listener);
      const buffered = pending.get(jobId);
      if (buffered) {
        pending.delete(jobId);
        for (const e of buffered.events) listener(e);
      }
      return () => {
        set.delete(listener);
        if (set.size === 0) watchers.delete(jobId);
      };
    },
    onEvent(listener) {
      all.add(listener);
      return () => all.delete(listener);
    },
    connect() {
      const unsubscribe = client.onEvent(route);
      return () => {
        unsubscribe();
        pending.clear();
      };
    },
  };
}
