import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiEvent, Output } from '../../../../shared/contract';
import { newestFirst } from './eval-reports';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useJobEvents } from '../../app/job';
import { useThrottledState } from '../../common/throttle';

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
  /** The last run ended without its result arriving (its events were lost), and no report of it was found. */
  lost: boolean;
  /** Counts every finished run, so lists of reports know to reload. */
  finishedRuns: number;
  /**
   * Starts a run with `call` (startEval, rerunEval, …: anything that answers with the job's id);
   * resolves true when the run started.
   */
  start(call: () => Promise<{ jobId: string }>): Promise<boolean>;
  cancel(): void;
}

export interface EvalJobOptions {
  /** How often a running evaluation is checked against `status`, in ms. */
  pollMs?: number;
}

/** Every few seconds while a run goes on: often enough to notice a lost ending soon, rarely enough to cost nothing. */
export const EVAL_POLL_MS = 3000;

type Running = NonNullable<Output<'status'>['evaluation']>;

/**
 * An Evaluate run: progress at most ~10 renders a second, then the id of its report. Held by the
 * App, so a run goes on (and is shown again) while the person looks at other views.
 *
 * The ending arrives as an event, and events can be lost (browser mode's event stream drops what
 * is sent while it reconnects). So while a run goes on, `status` is asked every few seconds: when
 * no evaluation runs any more, the run is settled from the list of reports (its report opens if
 * one newer than its start exists); when another one runs, that one is followed instead.
 */
export function useEvalJob(onDone?: (reportId: number | null) => void, { pollMs = EVAL_POLL_MS }: EvalJobOptions = {}): EvalJob {
  const client = useClient();
  const [jobId, setJobId] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [reportId, setReportId] = useState<number | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [startError, setStartError] = useState<DescribedError | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [lost, setLost] = useState(false);
  const [finishedRuns, setFinishedRuns] = useState(0);
  const [progress, setProgress, setProgressNow] = useThrottledState<EvalProgress | null>(null, 100);
  const runningRef = useRef(false);
  const cancelWanted = useRef(false);
  const jobRef = useRef<string | null>(null);
  const startedRef = useRef<number | null>(null);
  /** The job settled from `status` rather than by its event, and the report it was given. */
  const settledByPoll = useRef<{ jobId: string; reportId: number | null } | null>(null);
  const mounted = useRef(true);
  const doneRef = useRef(onDone);
  useEffect(() => {
    doneRef.current = onDone;
  }, [onDone]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  /** Shows how the run ended. `lostResult`: settled without its result (no event, no report found). */
  const finish = useCallback(
    (report: number | null, err: Extract<ApiEvent, { type: 'eval.done' }>['error'], lostResult: boolean) => {
      runningRef.current = false;
      setRunning(false);
      setProgressNow(null);
      setReportId(report);
      const wasCancelled = err?.code === 'CANCELLED';
      setCancelled(wasCancelled);
      setError(err && !wasCancelled ? describeError(err) : null);
      setLost(lostResult);
      // A refusal because another run was going on says nothing once that run is over.
      setStartError((e) => (e?.code === 'EVAL_ALREADY_RUNNING' ? null : e));
      settledByPoll.current = null;
    },
    [setProgressNow],
  );

  useJobEvents(jobId, (e) => {
    if (e.type === 'eval.progress') {
      if (runningRef.current && jobRef.current === e.jobId) setProgress({ done: e.done, total: e.total, label: e.label });
    } else if (e.type === 'eval.done') {
      const settled = settledByPoll.current;
      if (jobRef.current !== e.jobId) return;
      if (runningRef.current) {
        finish(e.reportId, e.error, false);
        setFinishedRuns((n) => n + 1);
        doneRef.current?.(e.reportId);
      } else if (settled?.jobId === e.jobId) {
        // The event came after all, after the run was settled from status: it knows best.
        finish(e.reportId, e.error, false);
        if (e.reportId !== settled.reportId) {
          setFinishedRuns((n) => n + 1);
          doneRef.current?.(e.reportId);
        }
      }
    }
  });

  /** Follows an evaluation that is already running (started by another window, or before a reload). */
  const adopt = useCallback(
    (e: Running) => {
      runningRef.current = true;
      cancelWanted.current = false;
      jobRef.current = e.jobId;
      settledByPoll.current = null;
      const t = Date.parse(e.startedAt);
      startedRef.current = Number.isFinite(t) ? t : Date.now();
      setStartedAt(startedRef.current);
      setRunning(true);
      setJobId(e.jobId);
      setError(null);
      setCancelled(false);
      setLost(false);
      setReportId(null);
      setProgressNow(e.total > 0 ? { done: e.done, total: e.total, label: e.label } : null);
    },
    [setProgressNow],
  );

  /** Job `id` is no longer running but its ending never arrived: find its report, if it wrote one. */
  const settle = useCallback(
    async (id: string) => {
      const since = startedRef.current;
      let reports: Output<'evalReports'>['reports'] = [];
      try {
        reports = (await client.evalReports({})).reports;
      } catch {
        // Without the list the run still ended; it is settled as not received.
      }
      if (!mounted.current || !runningRef.current || jobRef.current !== id) return;
      const newer = newestFirst(reports.filter((r) => since !== null && Date.parse(r.at) >= since))[0];
      const report = newer?.id ?? null;
      finish(report, null, report === null);
      settledByPoll.current = { jobId: id, reportId: report };
      setFinishedRuns((n) => n + 1);
      doneRef.current?.(report);
    },
    [client, finish],
  );

  /** What `status` says about the run we follow: gone (settle it), another one (follow that), or still it. */
  const reconcile = useCallback(
    (e: Output<'status'>['evaluation']) => {
      const id = jobRef.current;
      if (!mounted.current || !runningRef.current || !id) return;
      if (e === null) void settle(id);
      else if (e.jobId !== id) adopt(e);
    },
    [adopt, settle],
  );

  // A window opened (or reloaded) while an evaluation runs picks it up: progress, cancel, report.
  useEffect(() => {
    let live = true;
    client.status({}).then(
      (s) => {
        const e = s.evaluation;
        if (!live || !e || runningRef.current) return;
        adopt(e);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, adopt]);

  // While a run goes on, check now and then that it still does.
  useEffect(() => {
    if (!running) return;
    let live = true;
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      client.status({}).then(
        (s) => {
          busy = false;
          if (live) reconcile(s.evaluation);
        },
        () => {
          busy = false;
        },
      );
    }, pollMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [running, client, pollMs, reconcile]);

  const start = useCallback(
    async (call: () => Promise<{ jobId: string }>) => {
      if (runningRef.current) return false;
      runningRef.current = true;
      cancelWanted.current = false;
      jobRef.current = null;
      settledByPoll.current = null;
      setRunning(true);
      setError(null);
      setStartError(null);
      setCancelled(false);
      setLost(false);
      setReportId(null);
      setProgressNow(null);
      startedRef.current = Date.now();
      setStartedAt(startedRef.current);
      try {
        const { jobId: id } = await call();
        jobRef.current = id;
        setJobId(id);
        if (cancelWanted.current) void client.cancel({ jobId: id }).catch(() => {});
        return true;
      } catch (e) {
        runningRef.current = false;
        setRunning(false);
        const described = describeError(e);
        setStartError(described);
        // Another window's run (or one this window lost track of): follow it, so it can be watched and cancelled.
        if (described.code === 'EVAL_ALREADY_RUNNING') {
          client.status({}).then(
            (s) => {
              if (mounted.current && s.evaluation && !runningRef.current) adopt(s.evaluation);
            },
            () => {},
          );
        }
        return false;
      }
    },
    [client, setProgressNow, adopt],
  );

  const cancel = useCallback(() => {
    if (!runningRef.current) return;
    const id = jobRef.current;
    if (id) void client.cancel({ jobId: id }).catch(() => {});
    else cancelWanted.current = true;
  }, [client]);

  return { jobId, running, startedAt, progress, startError, reportId, error, cancelled, lost, finishedRuns, start, cancel };
}
