/**
 * A loader that runs `load` once and hands every caller the same promise, but forgets a failed
 * attempt, so a later call tries again (a chunk that failed to load, e.g. while the app was being
 * updated, is not given up on for good).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    if (pending) return pending;
    const p = Promise.resolve().then(load);
    pending = p;
    p.catch(() => {
      if (pending === p) pending = null;
    });
    return p;
  };
}
