import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobProgress, Output } from '../../../../shared/contract';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useJob, type JobEnd } from '../../app/job';
import { newestFirst } from './eval-reports';

export type EvalProgress = JobProgress<'eval'>;

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

/**
 * A run that Ollama stopped (gone, or no longer answering), part way with what it measured saved
 * or before it measured anything, ended with its own sentence: what stopped it, at which host, how many question runs were not
 * done. That leads, rather than the code's general sentence; the general one follows where it is
 * help (start `ollama serve`), not for a timeout, whose "may still be loading the model" the run's
 * own quick check has already ruled out.
 */
export function stoppedRunError(error: DescribedError): DescribedError {
  if (error.detail === null) return error;
  return { code: error.code, sentence: error.detail, detail: error.code === 'OLLAMA_UNREACHABLE' ? error.sentence : null };
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
  const [startError, setStartError] = useState<DescribedError | null>(null);
  const [lost, setLost] = useState(false);
  const [finishedRuns, setFinishedRuns] = useState(0);
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

  const ended = useCallback(() => {
    // A refusal because another run was going on says nothing once that run is over.
    setStartError((e) => (e?.code === 'EVAL_ALREADY_RUNNING' ? null : e));
  }, []);

  const job = useJob('eval', {
    onDone: ({ jobId, result }: JobEnd<'eval'>) => {
      const settled = settledByPoll.current;
      settledByPoll.current = null;
      const reportId = result?.reportId ?? null;
      setLost(false);
      ended();
      if (settled?.jobId === jobId) {
        // The event came after all, after the run was settled from status: it knows best.
        if (reportId === settled.reportId) return;
      }
      setFinishedRuns((n) => n + 1);
      doneRef.current?.(reportId);
    },
  });
  const { start: startJob, track, settle: settleJob, cancel, current } = job;

  /** Follows an evaluation that is already running (started by another window, or before a reload). */
  const adopt = useCallback(
    (e: Running) => {
      settledByPoll.current = null;
      const t = Date.parse(e.startedAt);
      setLost(false);
      track(e.jobId, { startedAt: Number.isFinite(t) ? t : Date.now(), progress: e.total > 0 ? { done: e.done, total: e.total, label: e.label } : null });
    },
    [track],
  );

  /** Job `id` is no longer running but its ending never arrived: find its report, if it wrote one. */
  const settle = useCallback(
    async (id: string) => {
      const since = current().startedAt;
      let reports: Output<'evalReports'>['reports'] = [];
      try {
        reports = (await client.evalReports({})).reports;
      } catch {
        // Without the list the run still ended; it is settled as not received.
      }
      if (!mounted.current || !current().running || current().jobId !== id) return;
      const newer = newestFirst(reports.filter((r) => since !== null && Date.parse(r.at) >= since))[0];
      const report = newer?.id ?? null;
      settleJob({ result: report === null ? null : { reportId: report }, error: null });
      setLost(report === null);
      ended();
      settledByPoll.current = { jobId: id, reportId: report };
      setFinishedRuns((n) => n + 1);
      doneRef.current?.(report);
    },
    [client, settleJob, ended, current],
  );

  /** What `status` says about the run we follow: gone (settle it), another one (follow that), or still it. */
  const reconcile = useCallback(
    (e: Output<'status'>['evaluation']) => {
      const { jobId: id, running } = current();
      if (!mounted.current || !running || !id) return;
      if (e === null) void settle(id);
      else if (e.jobId !== id) adopt(e);
    },
    [adopt, settle, current],
  );

  // A window opened (or reloaded) while an evaluation runs picks it up: progress, cancel, report.
  useEffect(() => {
    let live = true;
    client.status({}).then(
      (s) => {
        const e = s.evaluation;
        if (!live || !e || current().running) return;
        adopt(e);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, adopt, current]);

  // While a run goes on, check now and then that it still does.
  const { running } = job;
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
      if (current().running) return false;
      settledByPoll.current = null;
      setStartError(null);
      setLost(false);
      const started = await startJob(call);
      if (started.started) return true;
      setStartError(started.error);
      // Another window's run (or one this window lost track of): follow it, so it can be watched and cancelled.
      if (started.error.code === 'EVAL_ALREADY_RUNNING') {
        client.status({}).then(
          (s) => {
            if (mounted.current && s.evaluation && !current().running) adopt(s.evaluation);
          },
          () => {},
        );
      }
      return false;
    },
    [client, startJob, adopt, current],
  );

  const cancelled = job.error?.code === 'CANCELLED';
  // An error that came with a report is a run that stopped part way (a cancel aside), and a run's
  // Ollama error is the run stopping before it measured anything (a question's own Ollama error
  // fails only that question): its own sentence leads.
  const stoppedRun = job.error && (job.result || job.error.code === 'OLLAMA_UNREACHABLE' || job.error.code === 'OLLAMA_TIMEOUT');
  const failure = job.error && stoppedRun ? stoppedRunError(job.error) : job.error;
  return {
    jobId: job.jobId,
    running: job.running,
    startedAt: job.startedAt,
    progress: job.progress,
    startError,
    reportId: job.result?.reportId ?? null,
    // A refused start (no job id) is startError; a cancel is `cancelled`.
    error: failure && !cancelled && job.jobId !== null ? failure : null,
    cancelled,
    lost,
    finishedRuns,
    start,
    cancel,
  };
}
