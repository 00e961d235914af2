import path from 'node:path';
import { QuireError } from '../../../shared/errors';
import { isHeld, lockHolder as holderOf, tryLock } from '../db/process-lock';

/**
 * One evaluation at a time over a folder of evaluation indexes, across processes: the desktop app,
 * browser mode and `quire eval` share the folder next to one database. The lock file names the
 * process and the documents folder (db/process-lock.ts).
 */
export const LOCK_FILE = 'run.lock';

export interface LockInfo {
  pid: number;
  docs: string;
  startedAt: string;
}

/** Who holds the lock now, if a live process does. */
export function lockHolder(dir: string): LockInfo | null {
  const info = holderOf(path.join(dir, LOCK_FILE));
  return info ? { pid: info.pid, docs: info.what, startedAt: info.startedAt } : null;
}

/** Takes the lock for a run over `docs`, or refuses with EVAL_ALREADY_RUNNING; release() in a finally. */
export function acquireRunLock(dir: string, docs: string): { release(): void } {
  const r = tryLock(path.join(dir, LOCK_FILE), docs);
  if (isHeld(r)) return r;
  throw new QuireError(
    'EVAL_ALREADY_RUNNING',
    `Another evaluation (process ${r.pid}, over ${r.what}, since ${r.startedAt}) is using the evaluation indexes. Wait for it to finish, or stop it, first.`,
  );
}
