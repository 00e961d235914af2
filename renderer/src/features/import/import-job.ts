import { useCallback, useEffect, useRef, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import type { ImportProgress, ImportReport } from '../../common/types';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient, useJobs } from '../../app/client';
import { useThrottledState } from '../../common/throttle';

export interface ImportJob {
  jobId: string | null;
  running: boolean;
  startedAt: number | null;
  finishedAt: number | null;
  progress: ImportProgress | null;
  report: ImportReport | null;
  error: DescribedError | null;
  /** importFolder(path); resolves true when the job started. */
  start(path: string): Promise<boolean>;
  /** Follow a job started elsewhere (resync). */
  track(jobId: string): void;
  cancel(): void;
  reset(): void;
}

/** An import (or re-sync) job: its progress at most ~10 renders a second, then its report. */
export function useImportJob(onDone?: (report: ImportReport | null) => void): ImportJob {
  const client = useClient();
  const jobs = useJobs();
  const [jobId, setJobId] = useState<string | null>(null);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [finishedAt, setFinishedAt] = useState<number | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [progress, setProgress, setProgressNow] = useThrottledState<ImportProgress | null>(null, 100);
  const doneRef = useRef(onDone);
  useEffect(() => {
    doneRef.current = onDone;
  }, [onDone]);

  useEffect(() => {
    if (!jobId) return;
    const stop = jobs.watch(jobId, (e) => {
      if (e.type === 'import.progress') setProgress(e.progress);
      else if (e.type === 'import.done') {
        if (e.report) setProgressNow(null);
        setReport(e.report);
        setError(e.error ? describeError(e.error) : null);
        setFinishedAt(Date.now());
        doneRef.current?.(e.report);
      }
    });
    return stop;
  }, [jobs, jobId, setProgress, setProgressNow]);

  const reset = useCallback(() => {
    setJobId(null);
    setStartedAt(null);
    setFinishedAt(null);
    setReport(null);
    setError(null);
    setProgressNow(null);
  }, [setProgressNow]);

  const track = useCallback(
    (id: string) => {
      reset();
      setStartedAt(Date.now());
      setJobId(id);
    },
    [reset],
  );

  const start = useCallback(
    async (path: string) => {
      reset();
      let res: Output<'importFolder'>;
      try {
        res = await client.importFolder({ path });
      } catch (e) {
        setError(describeError(e));
        return false;
      }
      track(res.jobId);
      return true;
    },
    [client, reset, track],
  );

  const cancel = useCallback(() => {
    if (jobId) void client.cancel({ jobId }).catch(() => {});
  }, [client, jobId]);

  const running = jobId !== null && finishedAt === null;
  return { jobId, running, startedAt, finishedAt, progress, report, error, start, track, cancel, reset };
}
