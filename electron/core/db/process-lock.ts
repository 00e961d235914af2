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

/** Lock files this process holds now: one naming our pid that is not here was left by an earlier process with the same pid (a container's PID 1). */
const heldHere = new Set<string>();

/** A file just created by its holder may not have its JSON yet: trusted as held this long. */
const FRESH_MS = 5000;

/** Who holds the lock now, if a live process does. */
export function lockHolder(file: string): LockInfo | null {
  const info = read(file);
  if (!info) return null;
  if (info.pid === process.pid) return heldHere.has(path.resolve(file)) ? info : null;
  return alive(info.pid) ? info : null;
}

function isFresh(file: string): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs < FRESH_MS;
  } catch {
    return false;
  }
}

/** Takes the lock, or returns who holds it. A lock left by a dead process is removed and taken. */
export function tryLock(file: string, what: string): HeldLock | LockInfo {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const key = path.resolve(file);
  // `docs` too: how Quire versions before db/process-lock.ts read the evaluation's lock.
  const mine = { pid: process.pid, what, docs: what, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written whole beside it, then linked into place: the lock never exists without its JSON.
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(temp, JSON.stringify(mine));
    try {
      fs.linkSync(temp, file);
      heldHere.add(key);
      return {
        release: () => {
          heldHere.delete(key);
          // Only our own lock: a stale-lock takeover by another process must not be undone here.
          if (read(file)?.pid === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = lockHolder(file);
      if (holder) return holder;
      // Unreadable but new: another Quire's lock from before atomic writes, still being written.
      if (!read(file) && isFresh(file)) return { pid: -1, what: 'another Quire process', startedAt: '' };
      // Left by a process that is gone: moved aside under a unique name, so two takers cannot both remove a new lock.
      const seen = read(file);
      const stale = `${file}.stale.${process.pid}.${Math.random().toString(36).slice(2)}`;
      try {
        fs.renameSync(file, stale);
        const moved = read(stale);
        // Between the look and the move another process took the lock: put its lock back.
        if (moved && (moved.pid !== seen?.pid || moved.startedAt !== seen?.startedAt)) {
          try {
            fs.linkSync(stale, file);
          } catch {
            // A third process holds it now; theirs stands.
          }
        }
        fs.rmSync(stale, { force: true });
      } catch {
        // Someone else moved it first: try again.
      }
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  return lockHolder(file) ?? { pid: -1, what: 'another process', startedAt: '' };
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
      const onAbort = () => {
        clearTimeout(t);
        resolve();
      };
      const t = setTimeout(() => {
        options.signal?.removeEventListener('abort', onAbort);
        resolve();
      }, options.pollMs ?? 250);
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
