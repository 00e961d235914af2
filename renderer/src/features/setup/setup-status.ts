import { useCallback, useRef, useState } from 'react';
import type { SetupStatus } from '../../../../shared/setup';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { announceRecheck, useRecheck } from '../../app/recheck';
import { useReloadOn } from '../../app/reload';

export interface SetupStatusState {
  /** The last answer; kept while a new one is asked for, so the screen does not jump. */
  status: SetupStatus | null;
  /** Why the last ask failed (Quire itself unreachable, say); null once one succeeds. */
  error: DescribedError | null;
  /** A check is under way (the Check again button says so). */
  checking: boolean;
  recheck: () => void;
}

/**
 * setupStatus, asked now, on Check again and whenever the window comes back to the front (see
 * useRecheck), and after what changes its answer: a model pulled, notes imported, the library changed.
 * Check again also has the status bar look again.
 */
export function useSetupStatus(): SetupStatusState {
  const client = useClient();
  const [status, setStatus] = useState<SetupStatus | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [checking, setChecking] = useState(false);
  // Only the newest answer counts: an Ollama that does not answer gives up after its retries, after a later ask.
  const latest = useRef(0);

  const load = useCallback(async () => {
    const ticket = ++latest.current;
    setChecking(true);
    try {
      const s = await client.setupStatus({});
      if (ticket !== latest.current) return;
      setStatus(s);
      setError(null);
    } catch (e) {
      if (ticket === latest.current) setError(describeError(e));
    } finally {
      if (ticket === latest.current) setChecking(false);
    }
  }, [client]);

  useReloadOn(load, (e) => e.type === 'library.changed' || (e.type === 'job.done' && (e.kind === 'pull' || e.kind === 'import' || e.kind === 'embed')));

  useRecheck(() => void load());
  return { status, error, checking, recheck: announceRecheck };
}
