import { readRegularFile } from './read-file';

/**
 * libuv's threadpool runs every file-system call of the process (UV_THREADPOOL_SIZE, 4 unless set).
 * A read stuck on a hung mount holds one of its threads until the kernel lets go.
 */
export function threadpoolSize(env: { UV_THREADPOOL_SIZE?: string | undefined } = process.env): number {
  const n = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(n) && n > 0 ? n : 4;
}

export interface ReadAheadOptions {
  maxBytes: number;
  timeoutMs?: number;
  /** The import's: cancelling ends every read under way, stuck or not. */
  signal?: AbortSignal;
  /** Reads in flight at most, including the one awaited now; one less than the threadpool unless given. */
  concurrency?: number;
}

/**
 * Reads the next few files that will need reading while the current one is chunked and written,
 * so the disk and the CPU work at the same time. Which files need reading is the caller's call
 * (unchanged files must never be read). Reads in flight, counting those abandoned after their time
 * limit but still holding a thread, stay below the threadpool's size, so stuck reads cannot take
 * every thread from the rest of the process's file work (the walk, the lock file, other imports).
 */
export class ReadAhead {
  private readonly pending = new Map<number, Promise<Buffer>>();
  private inFlight = 0;
  private readonly concurrency: number;

  constructor(
    private readonly paths: readonly string[],
    private readonly needsRead: (index: number) => boolean,
    private readonly options: ReadAheadOptions,
  ) {
    this.concurrency = Math.max(1, options.concurrency ?? threadpoolSize() - 1);
  }

  /** The bytes of file `index`, reading it now if it was not read ahead. */
  read(index: number): Promise<Buffer> {
    const p = this.pending.get(index) ?? this.start(index);
    this.pending.delete(index);
    for (let j = index + 1; j < this.paths.length && this.inFlight < this.concurrency && j <= index + this.concurrency * 4; j++) {
      if (this.pending.has(j) || !this.needsRead(j)) continue;
      const ahead = this.start(j);
      ahead.catch(() => {}); // its error is reported when the file's turn comes
      this.pending.set(j, ahead);
    }
    return p;
  }

  private start(index: number): Promise<Buffer> {
    this.inFlight++;
    const { maxBytes, timeoutMs, signal } = this.options;
    return readRegularFile(this.paths[index]!, {
      maxBytes,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(signal ? { signal } : {}),
      onReleased: () => this.inFlight--,
    });
  }
}
