import fs from 'node:fs';
import path from 'node:path';
import { QuireError } from '../../../shared/errors';

/**
 * One evaluation at a time over a folder of evaluation indexes, across processes: the desktop app,
 * browser mode and `quire eval` share the folder next to one database. A lock file names the
 * process and the documents folder; one left by a process that has died is taken over.
 */
export const LOCK_FILE = 'run.lock';

export interface LockInfo {
  pid: number;
  docs: string;
  startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else; only ESRCH means it is gone.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function read(file: string): LockInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockInfo>;
    return typeof info.pid === 'number' && typeof info.docs === 'string' ? { pid: info.pid, docs: info.docs, startedAt: String(info.startedAt ?? '') } : null;
  } catch {
    return null;
  }
}

/** Who holds the lock now, if a live process does. */
export function lockHolder(dir: string): LockInfo | null {
  const info = read(path.join(dir, LOCK_FILE));
  return info && alive(info.pid) ? info : null;
}

/** Takes the lock for a run over `docs`, or refuses with EVAL_ALREADY_RUNNING; release() in a finally. */
export function acquireRunLock(dir: string, docs: string): { release(): void } {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, docs, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(mine), { flag: 'wx' });
      return {
        release: () => {
          // Only our own lock: a stale-lock takeover by another process must not be undone here.
          if (read(file)?.pid === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = lockHolder(dir);
      if (holder) {
        throw new QuireError(
          'EVAL_ALREADY_RUNNING',
          `Another evaluation (process ${holder.pid}, over ${holder.docs}, since ${holder.startedAt}) is using the evaluation indexes. Wait for it to finish, or stop it, first.`,
        );
      }
      fs.rmSync(file, { force: true }); // left by a process that is gone
    }
  }
  throw new QuireError('EVAL_ALREADY_RUNNING', 'Another evaluation keeps taking the evaluation indexes; try again in a moment.');
}
