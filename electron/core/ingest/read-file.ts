import fs from 'node:fs/promises';
import { constants } from 'node:fs';
import { QuireError } from '../../../shared/errors';

/** A read taking longer than this is an error for that file alone (a stalled network mount, a device). */
export const READ_TIMEOUT_MS = 30_000;

/**
 * Reads a file the walk listed, safely against what may have replaced it since: opened without
 * blocking (a FIFO opened for reading would otherwise wait forever for a writer), checked on the
 * open handle to still be a regular file no larger than the limit, then read with a time limit.
 * Each failure is a QuireError naming what is wrong, for this file only.
 *
 * The open and the read are raced against the time limit and the signal rather than merely handed
 * the signal: a read stuck in the kernel (a hung network mount) holds its libuv thread and never
 * looks at a signal, so only the race lets this file fail with READ_TIMEOUT, or the import stop,
 * on time. The stuck operation is abandoned, and its handle closed whenever it returns.
 */
export async function readRegularFile(file: string, options: ReadOptions): Promise<Buffer> {
  const limit = timeLimit(options.timeoutMs ?? READ_TIMEOUT_MS, options.signal);
  const released = () => options.onReleased?.();
  try {
    // O_NONBLOCK does not exist on Windows, where opening a named pipe this way does not block.
    const opening = fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const handle = await Promise.race([opening, limit.expired]).catch((e: unknown) => {
      void opening.then((h) => h.close()).catch(() => {}).finally(released);
      throw e;
    });
    let settled = false;
    const reading = readOpened(handle, options.maxBytes, limit.signal).finally(() => (settled = true));
    try {
      return await Promise.race([reading, limit.expired]);
    } finally {
      // FileHandle.close waits for the handle's pending operations, so a stuck read's handle is
      // closed when that read returns, not awaited here.
      if (settled) await handle.close().finally(released);
      else void reading.catch(() => {}).finally(() => handle.close().catch(() => {}).finally(released));
    }
  } finally {
    limit.dispose();
  }
}

export interface ReadOptions {
  maxBytes: number;
  /** READ_TIMEOUT_MS unless given. */
  timeoutMs?: number;
  /** The import's: aborting it ends the read at once with CANCELLED. */
  signal?: AbortSignal;
  /** Called once the open and read have really returned, which for an abandoned one may be much later (or never). */
  onReleased?: () => void;
}

async function readOpened(handle: fs.FileHandle, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const stat = await handle.stat();
  if (!stat.isFile()) {
    throw new QuireError('NOT_A_REGULAR_FILE', `It is no longer a regular file (now ${kindOf(stat)}), so it was not read.`);
  }
  if (stat.size > maxBytes) {
    throw new QuireError('TOO_LARGE', `It grew to ${stat.size} bytes, over the limit of ${maxBytes} for one file.`);
  }
  // The signal also stops a slow read between its chunks, giving its thread back sooner.
  return handle.readFile({ signal });
}

/**
 * A promise that rejects when the time is up (READ_TIMEOUT) or the caller aborts (CANCELLED),
 * whichever comes first, and the matching signal; dispose() when done so neither fires later.
 */
function timeLimit(ms: number, caller?: AbortSignal): { expired: Promise<never>; signal: AbortSignal; dispose(): void } {
  const stop = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const expired = new Promise<never>((_, reject) => {
    const end = (e: QuireError) => {
      stop.abort(e);
      reject(e);
    };
    onAbort = () => end(new QuireError('CANCELLED', 'Cancelled.', { cause: caller?.reason }));
    if (caller?.aborted) return onAbort();
    caller?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => end(new QuireError('READ_TIMEOUT', `Reading it took longer than ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}; it was skipped.`)), ms);
  });
  expired.catch(() => {}); // raced by the caller; never an unhandled rejection
  return {
    expired,
    signal: stop.signal,
    dispose: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

/** A person's word for a non-regular file. */
export function kindOf(stat: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}
