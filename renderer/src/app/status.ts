import { useCallback, useEffect, useState } from 'react';
import { coalesced, LIBRARY_RELOAD_MS } from '../common/throttle';
import type { JobKind, Output } from '../../../shared/contract';
import { describeError, type DescribedError } from '../api/messages';
import { useClient, useJobs } from './client';

export type Status = Output<'status'>;

/** Jobs whose ending changes what `status` says (an evaluation's does not). */
const AFTER_JOBS = new Set<JobKind>(['import', 'embed', 'pull', 'ask']);

/** `status` every `intervalMs`, and again whenever a job finishes or the library changes. */
export function useStatus(intervalMs = 5000): { status: Status | null; error: DescribedError | null } {
  const client = useClient();
  const jobs = useJobs();
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  const poll = useCallback(
    () =>
      client.status({}).then(
        (s) => {
          setStatus(s);
          setError(null);
        },
        (e: unknown) => setError(describeError(e)),
      ),
    [client],
  );

  useEffect(() => {
    // Events come in floods during an import: one status at a time, at most every LIBRARY_RELOAD_MS.
    const reload = coalesced(poll, LIBRARY_RELOAD_MS);
    reload.request();
    const timer = setInterval(reload.request, intervalMs);
    const stop = jobs.onEvent((e) => {
      if (e.type === 'library.changed' || e.type === 'events.gap' || (e.type === 'job.done' && AFTER_JOBS.has(e.kind))) reload.request();
    });
    return () => {
      clearInterval(timer);
      stop();
      reload.stop();
    };
  }, [jobs, poll, intervalMs]);

  return { status, error };
}
