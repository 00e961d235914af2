import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, acquireRunLock, lockHolder } from './run-lock';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-run-lock-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the evaluation lock', () => {
  it('lets one run at a time hold it, names the holder, and frees it on release', () => {
    const lock = acquireRunLock(dir, '/notes/a');
    expect(lockHolder(dir)).toMatchObject({ pid: process.pid, docs: '/notes/a' });
    expect(() => acquireRunLock(dir, '/notes/b')).toThrow(expect.objectContaining({ code: 'EVAL_ALREADY_RUNNING', message: expect.stringContaining('/notes/a') }));
    lock.release();
    expect(lockHolder(dir)).toBeNull();
    acquireRunLock(dir, '/notes/b').release();
  });

  it('takes over a lock left by a process that is gone, and a broken lock file', () => {
    // Pids are far below this on every system Quire runs on.
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 30, docs: '/old', startedAt: '2026-01-01T00:00:00Z' }));
    expect(lockHolder(dir)).toBeNull();
    const lock = acquireRunLock(dir, '/notes/a');
    expect(lockHolder(dir)?.docs).toBe('/notes/a');
    lock.release();
    // A broken file is trusted for a few seconds (it may be mid-write by an older Quire), then taken over.
    fs.writeFileSync(path.join(dir, LOCK_FILE), 'not json');
    expect(() => acquireRunLock(dir, '/notes/b')).toThrow(/Another evaluation/);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, LOCK_FILE), old, old);
    acquireRunLock(dir, '/notes/c').release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('release leaves alone a lock that is no longer ours', () => {
    const lock = acquireRunLock(dir, '/notes/a');
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, docs: '/other', startedAt: '' }));
    lock.release();
    expect(lockHolder(dir)?.docs).toBe('/other');
  });
});

describe('lock files left behind', () => {
  it('one naming this process that this process does not hold is stale (a container restarts as the same PID 1)', async () => {
    const { tryLock, isHeld } = await import('../db/process-lock');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-lock-own-'));
    try {
      const file = path.join(dir, 'x.lock');
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, what: '/left/over', startedAt: 'then' }));
      const r = tryLock(file, '/mine');
      expect(isHeld(r)).toBe(true);
      // While we hold it, our own lock is ours: a second take in this process waits like any other.
      const second = tryLock(file, '/again');
      expect(isHeld(second)).toBe(false);
      expect(second).toMatchObject({ pid: process.pid, what: '/mine' });
      if (isHeld(r)) r.release();
      expect(fs.existsSync(file)).toBe(false);
      // Older versions read `docs`: it is written too.
      const again = tryLock(file, '/third');
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ what: '/third', docs: '/third' });
      if (isHeld(again)) again.release();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
