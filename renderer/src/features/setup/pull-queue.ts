import { useRef, useState } from 'react';
import type { JobProgress } from '../../../../shared/contract';
import type { DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { useJob } from '../../app/job';

/** One model to download: for which setting, under what name, and how big when known. */
export interface PullItem {
  kind: 'chat' | 'embedding';
  name: string;
  bytes: number | null;
}

export interface PullQueue {
  running: boolean;
  /** The model being downloaded, and its place in the queue (1-based). */
  current: { item: PullItem; n: number; of: number } | null;
  progress: JobProgress<'pull'> | null;
  /** Why the last download stopped; null when it was cancelled (see `cancelled`). */
  error: DescribedError | null;
  cancelled: boolean;
  start: (items: PullItem[]) => void;
  cancel: () => void;
}

/**
 * Downloads models one after another with the pullModel job, each saved as its setting once it is
 * here (saveAs: the one recommended may not be the one Settings name); `onPulled` runs after each,
 * before the next starts. An error or Cancel stops the rest.
 */
export function usePullQueue(onPulled: (item: PullItem) => Promise<void>): PullQueue {
  const client = useClient();
  const [current, setCurrent] = useState<PullQueue['current']>(null);
  const [cancelled, setCancelled] = useState(false);
  /** The models still to start, and the one downloading. */
  const waiting = useRef<PullItem[]>([]);
  const total = useRef(0);
  const active = useRef<PullItem | null>(null);
  const pulled = useRef(onPulled);
  pulled.current = onPulled;

  const job = useJob('pull', {
    onDone: ({ error }) => {
      const item = active.current;
      active.current = null;
      if (error || !item) {
        setCancelled(error?.code === 'CANCELLED');
        waiting.current = [];
        setCurrent(null);
        return;
      }
      void pulled.current(item).then(next, () => {
        waiting.current = [];
        setCurrent(null);
      });
    },
  });
  const { start: startJob } = job;

  function next(): void {
    const item = waiting.current.shift();
    if (!item) {
      setCurrent(null);
      return;
    }
    active.current = item;
    setCurrent({ item, n: total.current - waiting.current.length, of: total.current });
    void startJob(() => client.pullModel({ model: item.name, saveAs: item.kind === 'chat' ? 'chatModel' : 'embedModel' })).then((s) => {
      if (s.started) return;
      active.current = null;
      waiting.current = [];
      setCurrent(null);
    });
  }

  const start = (items: PullItem[]) => {
    if (active.current || items.length === 0) return;
    waiting.current = [...items];
    total.current = items.length;
    setCancelled(false);
    next();
  };

  const cancel = () => {
    waiting.current = [];
    job.cancel();
  };

  const error = job.error && job.error.code !== 'CANCELLED' ? job.error : null;
  return { running: current !== null, current, progress: job.progress, error, cancelled, start, cancel };
}
