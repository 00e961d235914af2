import { useCallback } from 'react';
import type { ImportProgress, ImportReport } from '../../common/types';
import type { DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useJob } from '../../app/job';

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
export function useImportJob(): ImportJob {
  const client = useClient();
  const job = useJob('import');
  const { start: startJob, track: trackJob, reset } = job;

  const start = useCallback(
    async (path: string) => {
      reset();
      return (await startJob(() => client.importFolder({ path }))).started;
    },
    [client, startJob, reset],
  );
  const track = useCallback((id: string) => trackJob(id), [trackJob]);

  return { ...job, report: job.result, start, track };
}
