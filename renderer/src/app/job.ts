import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobDoneEvent, JobKind, JobProgress, JobResult } from '../../../shared/contract';
import { describeError, type DescribedError } from '../api/messages';
import { useThrottledState } from '../common/throttle';
import { useClient, useJobs } from './client';

/** An error as the engine sends it: { code, message }. */
type EngineError = NonNullable<JobDoneEvent['error']>;

/** How a job ended, as its `job.done` said (or as its owner settled it without one). */
export interface JobEnd<K extends JobKind> {
  jobId: string;
  result: JobResult<K> | null;
  error: EngineError | null;
}

export interface JobOptions<K extends JobKind> {
  /** Each progress event of the running job, as it arrives (unthrottled). */
  onProgress?: (progress: JobProgress<K>, jobId: string) => void;
  /** The job's `job.done`; also when it comes after `settle` ended the job here. */
  onDone?: (end: JobEnd<K>) => void;
  /** `progress` renders at most once per this many ms (the callbacks are not throttled). */
  throttleMs?: number;
}

export type JobStart = { started: true; jobId: string } | { started: false; error: DescribedError };

export interface Job<K extends JobKind> {
  /** The job followed (null before the first start, and while a start waits for its id). */
  jobId: string | null;
  /** From start until the job ends (or its start fails). */
  running: boolean;
  startedAt: number | null;
  finishedAt: number | null;
  /** The last progress of the running job; null before the first and once it has ended. */
  progress: JobProgress<K> | null;
  /** The result of the job that ended last. */
  result: JobResult<K> | null;
  /** Why the start failed, or the error the job ended with. */
  error: DescribedError | null;
  /**
   * Starts a job with `call` (importFolder, ask, pullModel, …: anything that answers with the job's
   * id) and follows it. Refused while a job runs.
   */
  start(call: () => Promise<{ jobId: string }>): Promise<JobStart>;
  /** Follows a job started elsewhere; `progress` is what is known of it so far. */
  track(jobId: string, known?: { startedAt?: number; progress?: JobProgress<K> | null }): void;
  /** Ends the running job here without its event (e.g. it was found finished some other way); its `job.done`, if it comes, still counts. */
  settle(end: Omit<JobEnd<K>, 'jobId'>): void;
  /** Asks the engine to cancel the running job; before its id has arrived, once it does. */
  cancel(): void;
  /** Forgets the last job (not allowed while one runs). */
  reset(): void;
  /** The job as it is now, before React renders it: for callbacks that run between renders. */
  current(): { jobId: string | null; running: boolean; startedAt: number | null };
}

interface Current {
  id: string | null;
  running: boolean;
  startedAt: number | null;
  /** The job's job.done has been received. */
  ended: boolean;
  cancelWanted: boolean;
  stop: (() => void) | null;
  /** Counts starts, so a start overtaken by another one is ignored. */
  generation: number;
}

/**
 * One job of kind `kind` at a time: starts it, follows its `job.progress` events (state throttled
 * to ~10 renders a second), and ends it on its `job.done`. Events that arrive before the start
 * call returns the job's id are not lost: the job hub keeps them and replays them when the job is
 * watched. Stops following when the component unmounts.
 */
export function useJob<K extends JobKind>(kind: K, options: JobOptions<K> = {}): Job<K> {
  const client = useClient();
  const jobs = useJobs();
  const [jobId, setJobId] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [finishedAt, setFinishedAt] = useState<number | null>(null);
  const [result, setResult] = useState<JobResult<K> | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [progress, setProgress, setProgressNow] = useThrottledState<JobProgress<K> | null>(null, options.throttleMs ?? 100);
  const cur = useRef<Current>({ id: null, running: false, startedAt: null, ended: false, cancelWanted: false, stop: null, generation: 0 });
  const opts = useRef(options);
  useEffect(() => {
    opts.current = options;
  });

  const unwatch = useCallback(() => {
    cur.current.stop?.();
    cur.current.stop = null;
  }, []);
  useEffect(() => unwatch, [unwatch]);

  const end = useCallback(
    (e: Omit<JobEnd<K>, 'jobId'>) => {
      cur.current.running = false;
      setRunning(false);
      setFinishedAt(Date.now());
      setProgressNow(null);
      setResult(e.result);
      setError(e.error ? describeError(e.error) : null);
    },
    [setProgressNow],
  );

  /** Follows job `id`: its buffered events first, then the live ones. */
  const follow = useCallback(
    (id: string) => {
      unwatch();
      const c = cur.current;
      c.id = id;
      c.ended = false;
      setJobId(id);
      let done = false;
      const stop = jobs.watch(id, (e) => {
        if (e.kind !== kind || cur.current.id !== id || cur.current.ended) return;
        if (e.type === 'job.progress') {
          if (!cur.current.running) return;
          const p = e.progress as JobProgress<K>;
          setProgress(p);
          opts.current.onProgress?.(p, id);
        } else {
          const ending = { result: e.result as JobResult<K> | null, error: e.error };
          cur.current.ended = true;
          done = true;
          unwatch();
          end(ending);
          opts.current.onDone?.({ jobId: id, ...ending });
        }
      });
      if (done) stop();
      else c.stop = stop;
      if (c.cancelWanted && c.running) void client.cancel({ jobId: id }).catch(() => {});
      c.cancelWanted = false;
    },
    [client, jobs, kind, unwatch, end, setProgress],
  );

  const begin = useCallback(
    (at: number, known: JobProgress<K> | null) => {
      const c = cur.current;
      c.running = true;
      c.startedAt = at;
      c.cancelWanted = false;
      setRunning(true);
      setStartedAt(at);
      setFinishedAt(null);
      setResult(null);
      setError(null);
      setProgressNow(known);
    },
    [setProgressNow],
  );

  const start = useCallback(
    async (call: () => Promise<{ jobId: string }>): Promise<JobStart> => {
      const c = cur.current;
      if (c.running) return { started: false, error: describeError({ code: 'JOB_RUNNING', message: 'A job of this kind is already running here.' }) };
      unwatch();
      c.id = null;
      c.generation++;
      const generation = c.generation;
      setJobId(null);
      begin(Date.now(), null);
      let id: string;
      try {
        ({ jobId: id } = await call());
      } catch (e) {
        const described = describeError(e);
        if (cur.current.generation === generation) {
          cur.current.running = false;
          cur.current.cancelWanted = false;
          setRunning(false);
          setError(described);
        }
        return { started: false, error: described };
      }
      if (cur.current.generation === generation) follow(id);
      return { started: true, jobId: id };
    },
    [begin, follow, unwatch],
  );

  const track = useCallback(
    (id: string, known: { startedAt?: number; progress?: JobProgress<K> | null } = {}) => {
      cur.current.generation++;
      begin(known.startedAt ?? Date.now(), known.progress ?? null);
      follow(id);
    },
    [begin, follow],
  );

  const settle = useCallback(
    (e: Omit<JobEnd<K>, 'jobId'>) => {
      if (cur.current.running) end(e);
    },
    [end],
  );

  const cancel = useCallback(() => {
    const c = cur.current;
    if (!c.running) return;
    if (c.id) void client.cancel({ jobId: c.id }).catch(() => {});
    else c.cancelWanted = true;
  }, [client]);

  const reset = useCallback(() => {
    const c = cur.current;
    if (c.running) return;
    unwatch();
    c.id = null;
    c.startedAt = null;
    setJobId(null);
    setStartedAt(null);
    setFinishedAt(null);
    setResult(null);
    setError(null);
    setProgressNow(null);
  }, [unwatch, setProgressNow]);

  const current = useCallback(() => ({ jobId: cur.current.id, running: cur.current.running, startedAt: cur.current.startedAt }), []);

  return { jobId, running, startedAt, finishedAt, progress, result, error, start, track, settle, cancel, reset, current };
}
