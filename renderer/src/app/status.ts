import { useCallback, useState } from 'react';
import { useRecheck } from './recheck';
import { useReloadOn } from './reload';
import type { JobKind, Output } from '../../../shared/contract';
import { describeError, type DescribedError } from '../api/messages';
import { useClient } from './client';

export type Status = Output<'status'>;

/** Jobs whose ending changes what `status` says (an evaluation's does not). */
const AFTER_JOBS = new Set<JobKind>(['import', 'embed', 'pull', 'ask']);

/** `status` every `intervalMs`, and again whenever a job finishes, the library changes, or Ollama is checked again (useRecheck). */
export function useStatus(intervalMs = 5000): { status: Status | null; error: DescribedError | null } {
  const client = useClient();
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

  useReloadOn(poll, (e) => e.type === 'library.changed' || (e.type === 'job.done' && AFTER_JOBS.has(e.kind)), intervalMs);
  // Check again in the setup steps, or back from a terminal: the bar must not say Ollama is down for 5 s more.
  useRecheck(() => void poll());

  return { status, error };
}
