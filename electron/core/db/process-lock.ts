import fs from 'node:fs';
import path from 'node:path';

/**
 * A lock file naming the process that holds it, shared by every Quire process on one machine (the
 * desktop app, browser mode, the CLI). Created with O_EXCL, so only one process can hold it; one
 * left by a process that has died is taken over.
 */
export interface LockInfo {
  pid: number;
  /** What the holder is working on (a folder), for the message the others see. */
  what: string;
  startedAt: string;
}

export interface HeldLock {
  release(): void;
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
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockInfo> & { docs?: string };
    // `docs`: how lock files written before this module named their folder.
    const what = info.what ?? info.docs;
    return typeof info.pid === 'number' && typeof what === 'string' ? { pid: info.pid, what, startedAt: String(info.startedAt ?? '') } : null;
  } catch {
    return null;
  }
}

/** Who holds the lock now, if a live process does. */
export function lockHolder(file: string): LockInfo | null {
  const info = read(file);
  return info && alive(info.pid) ? info : null;
}

/** Takes the lock, or returns who holds it. A lock left by a dead process is removed and taken. */
export function tryLock(file: string, what: string): HeldLock | LockInfo {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const mine: LockInfo = { pid: process.pid, what, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
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
      const holder = lockHolder(file);
      if (holder) return holder;
      fs.rmSync(file, { force: true }); // left by a process that is gone
    }
  }
  return lockHolder(file) ?? { pid: -1, what: 'unknown', startedAt: '' };
}

export const isHeld = (r: HeldLock | LockInfo): r is HeldLock => 'release' in r;

/**
 * Waits for the lock, polling, telling `onWait` once who it waits for. Cancellable by `signal`
 * (throws its reason's cancellation as the caller maps it).
 */
export async function waitForLock(file: string, what: string, options: { signal?: AbortSignal; onWait?: (holder: LockInfo) => void; pollMs?: number } = {}): Promise<HeldLock> {
  let told = false;
  for (;;) {
    options.signal?.throwIfAborted();
    const r = tryLock(file, what);
    if (isHeld(r)) return r;
    if (!told) {
      told = true;
      options.onWait?.(r);
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, options.pollMs ?? 250);
      options.signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  }
}
