import { useEffect, useState } from 'react';
import type { JobEvent } from './job-hub';
import { useJobs } from './client';

/** Calls `listener` for each event of `jobId` (null: none) until the id changes or the component unmounts. */
export function useJobEvents(jobId: string | null, listener: (e: JobEvent) => void): void {
  const jobs = useJobs();
  const [current] = useState(() => ({ listener }));
  useEffect(() => {
    current.listener = listener;
  });
  useEffect(() => {
    if (!jobId) return;
    return jobs.watch(jobId, (e) => current.listener(e));
  }, [jobs, jobId, current]);
}
