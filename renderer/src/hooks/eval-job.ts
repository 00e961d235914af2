import { useCallback, useEffect, useRef, useState } from 'react';
import type { Input } from '../../../shared/contract';
import { describeError, type DescribedError } from '../api/messages';
import { useClient, useJobs } from './client';
import { useThrottledState } from './throttle';

export interface EvalProgress {
  done: number;
  total: number;
  label: string;
}

export interface EvalJob {
  jobId: string | null;
  running: boolean;
  startedAt: number | null;
  progress: EvalProgress | null;
  /** Why the last start was refused (shown by the Run button). */
  startError: DescribedError | null;
  /** The report written by the last finished run. */
  reportId: number | null;
  error: DescribedError | null;
  cancelled: boolean;
  /** Counts every finished run, so lists of reports know to reload. */
  finishedRuns: number;
  /** startEval(input); resolves true when the run started. */
  start(input: Input<'startEval'>): Promise<boolean>;
  cancel(): void;
}

/**
 * An Evaluate run: progress at most ~10 renders a second, then the id of its report. Held by the
 * App, so a run goes on (and is shown again) while the person looks at other views.
 */
export function useEvalJob(onDone?: (reportId: number | null) => void): EvalJob {
  const client = useClient();
  const jobs = useJobs();
  const [jobId, setJobId] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [reportId, setReportId] = useState<number | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [startError, setStartError] = useState<DescribedError | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [finishedRuns, setFinishedRuns] = useState(0);
  const [progress, setProgress, setProgressNow] = useThrottledState<EvalProgress | null>(null, 100);
  const runningRef = useRef(false);
  const cancelWanted = useRef(false);
  const jobRef = useRef<string | null>(null);
  const doneRef = useRef(onDone);
  useEffect(() => {
    doneRef.current = onDone;
  }, [onDone]);

  useEffect(() => {
    if (!jobId) return;
    return jobs.watch(jobId, (e) => {
      if (e.type === 'eval.progress') setProgress({ done: e.done, total: e.total, label: e.label });
      else if (e.type === 'eval.done') {
        runningRef.current = false;
        setRunning(false);
        setProgressNow(null);
        setReportId(e.reportId);
        const wasCancelled = e.error?.code === 'CANCELLED';
        setCancelled(wasCancelled);
        setError(e.error && !wasCancelled ? describeError(e.error) : null);
        setFinishedRuns((n) => n + 1);
        doneRef.current?.(e.reportId);
      }
    });
  }, [jobs, jobId, setProgress, setProgressNow]);

  // A window opened (or reloaded) while an evaluation runs picks it up: progress, cancel, report.
  useEffect(() => {
    let live = true;
    client.status({}).then(
      (s) => {
        const e = s.evaluation;
        if (!live || !e || runningRef.current) return;
        runningRef.current = true;
        jobRef.current = e.jobId;
        setRunning(true);
        setJobId(e.jobId);
        setProgressNow(e.total > 0 ? { done: e.done, total: e.total, label: e.label } : null);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, setProgressNow]);

  const start = useCallback(
    async (input: Input<'startEval'>) => {
      if (runningRef.current) return false;
      runningRef.current = true;
      cancelWanted.current = false;
      jobRef.current = null;
      setRunning(true);
      setError(null);
      setStartError(null);
      setCancelled(false);
      setReportId(null);
      setProgressNow(null);
      setStartedAt(Date.now());
      try {
        const { jobId: id } = await client.startEval(input);
        jobRef.current = id;
        setJobId(id);
        if (cancelWanted.current) void client.cancel({ jobId: id }).catch(() => {});
        return true;
      } catch (e) {
        runningRef.current = false;
        setRunning(false);
        setStartError(describeError(e));
        return false;
      }
    },
    [client, setProgressNow],
  );

  const cancel = useCallback(() => {
    if (!runningRef.current) return;
    const id = jobRef.current;
    if (id) void client.cancel({ jobId: id }).catch(() => {});
    else cancelWanted.current = true;
  }, [client]);

  return { jobId, running, startedAt, progress, startError, reportId, error, cancelled, finishedRuns, start, cancel };
}
