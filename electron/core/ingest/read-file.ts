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
 */
export async function readRegularFile(file: string, options: { maxBytes: number; timeoutMs?: number; signal?: AbortSignal }): Promise<Buffer> {
  // O_NONBLOCK does not exist on Windows, where opening a named pipe this way does not block.
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new QuireError('NOT_A_REGULAR_FILE', `It is no longer a regular file (now ${kindOf(stat)}), so it was not read.`);
    }
    if (stat.size > options.maxBytes) {
      throw new QuireError('TOO_LARGE', `It grew to ${stat.size} bytes, over the limit of ${options.maxBytes} for one file.`);
    }
    const timeout = AbortSignal.timeout(options.timeoutMs ?? READ_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      return await handle.readFile({ signal });
    } catch (e) {
      if (timeout.aborted) throw new QuireError('READ_TIMEOUT', `Reading it took longer than ${Math.round((options.timeoutMs ?? READ_TIMEOUT_MS) / 1000)} s; it was skipped.`, { cause: e });
      throw e;
    }
  } finally {
    await handle.close();
  }
}

/** A person's word for a non-regular file. */
export function kindOf(stat: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}
