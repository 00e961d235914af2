import { useEffect, useRef } from 'react';
import type { ApiEvent } from '../../../shared/contract';
import { coalesced, LIBRARY_RELOAD_MS } from '../common/throttle';
import { useJobs } from './client';

/**
 * Runs `load` now, then again after every event `when` accepts and after missed events
 * (`events.gap`: the state may have changed without a word), and every `everyMs` if given. Runs
 * coalesce (see coalesced): an import or a watched folder announces thousands of changes, and each
 * view reloads at most once per LIBRARY_RELOAD_MS, never two at a time, the last change always
 * followed by a run. A new `load` (its inputs changed) starts over.
 */
export function useReloadOn(load: () => Promise<unknown>, when: (e: ApiEvent) => boolean, everyMs?: number): void {
  const jobs = useJobs();
  // Read at each event, not depended on: an inline test must not resubscribe on every render.
  const accepts = useRef(when);
  accepts.current = when;
  useEffect(() => {
    const reload = coalesced(load, LIBRARY_RELOAD_MS);
    reload.request();
    const timer = everyMs === undefined ? null : setInterval(reload.request, everyMs);
    const off = jobs.onEvent((e) => {
      if (e.type === 'events.gap' || accepts.current(e)) reload.request();
    });
    return () => {
      if (timer) clearInterval(timer);
      off();
      reload.stop();
    };
  }, [jobs, load, everyMs]);
}
