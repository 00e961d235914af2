import { Worker } from 'node:worker_threads';
import { QuireError, type QuireErrorShape } from '../../../../shared/errors';
import type { Parsed, ParseRequest } from './parse-file';

export interface ParsePoolOptions {
  /** The worker script: the bundled parse-worker.cjs in the app, worker-bootstrap.mjs from source. */
  script: string | URL;
  /** A file whose parse takes longer fails alone with PARSE_TIMEOUT. */
  timeoutMs?: number;
  /** The worker's heap; a file that needs more fails alone with PARSE_MEMORY. */
  maxMemoryMb?: number;
}

export const PARSE_LIMITS = { timeoutMs: 60_000, maxMemoryMb: 1024 } as const;

interface Pending {
  id: number;
  resolve: (p: Parsed) => void;
  reject: (e: QuireError) => void;
  timer: NodeJS.Timeout;
}

/**
 * Parsing off the main thread, one file at a time, in a worker that is replaced whenever a file
 * kills it: a parse over its time is ended (the worker terminated) and one over its memory takes
 * the worker down; either way that file fails with its own code and the next file gets a fresh worker.
 * A crafted PDF or a 50 MB Markdown file can then neither freeze the app's window nor end the import.
 */
export class ParsePool {
  private worker: Worker | null = null;
  /** Resolves once the current worker has loaded its readers. */
  private ready: Promise<Worker> | null = null;
  private pending: Pending | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private readonly timeoutMs: number;
  private readonly maxMemoryMb: number;

  constructor(private readonly options: ParsePoolOptions) {
    this.timeoutMs = options.timeoutMs ?? PARSE_LIMITS.timeoutMs;
    this.maxMemoryMb = options.maxMemoryMb ?? PARSE_LIMITS.maxMemoryMb;
  }

  /** Parses one file; calls queue, one in the worker at a time. */
  parse(req: ParseRequest): Promise<Parsed> {
    const run = this.queue.then(() => this.runOne(req));
    this.queue = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    await w?.terminate();
  }

  private async runOne(req: ParseRequest): Promise<Parsed> {
    // Referenced while a file is in it (the process must wait for the answer), not while idle.
    const starting = this.ensureWorker();
    this.worker?.ref();
    try {
      const worker = await starting;
      return await this.send(worker, req);
    } finally {
      this.worker?.unref();
    }
  }

  private send(worker: Worker, req: ParseRequest): Promise<Parsed> {
    return new Promise<Parsed>((resolve, reject) => {
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.fail(new QuireError('PARSE_TIMEOUT', `Reading it took longer than ${seconds(this.timeoutMs)}, so it was stopped.`));
        void this.close(); // the next file starts a fresh worker
      }, this.timeoutMs);
      this.pending = { id, resolve, reject, timer };
      // The bytes are copied, not transferred: the caller still hashes and may retry them.
      worker.postMessage({ id, req });
    });
  }

  private ensureWorker(): Promise<Worker> {
    if (this.worker) return this.ready!;
    const worker = new Worker(this.options.script, { resourceLimits: { maxOldGenerationSizeMb: this.maxMemoryMb } });
    this.ready = new Promise<Worker>((resolve, reject) => {
      worker.once('message', () => resolve(worker));
      worker.once('error', reject);
      worker.once('exit', () => reject(new QuireError('INTERNAL', 'The reader could not start.')));
    });
    worker.on('message', (msg: { id: number; parsed?: Parsed; error?: QuireErrorShape }) => {
      const p = this.pending;
      if (!p || p.id !== msg.id) return;
      this.pending = null;
      clearTimeout(p.timer);
      if (msg.parsed) p.resolve(msg.parsed);
      else p.reject(new QuireError(msg.error?.code ?? 'INTERNAL', msg.error?.message ?? 'The file could not be read.'));
    });
    worker.on('error', (e: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const memory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(
        memory
          ? new QuireError('PARSE_MEMORY', `Reading it needed more than ${this.maxMemoryMb} MB of memory, so it was stopped.`)
          : new QuireError('INTERNAL', `The reader stopped unexpectedly: ${e.message}`),
      );
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.fail(new QuireError('INTERNAL', 'The reader stopped unexpectedly.'));
    });
    // Last: adding a 'message' listener refs the worker's port again.
    worker.unref();
    this.worker = worker;
    return this.ready;
  }

  private fail(e: QuireError): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.reject(e);
  }
}

const shared = new Map<string, ParsePool>();

/**
 * The process's parse pool for a worker script: engines share it (a process holds one engine in
 * the app, many in a test run), so the worker starts once. Its thread is unref'd: it never keeps
 * the process alive.
 */
export function sharedParsePool(script: string | URL, limits: { timeoutMs?: number; maxMemoryMb?: number } = {}): ParsePool {
  const key = `${String(script)} ${limits.timeoutMs ?? ''} ${limits.maxMemoryMb ?? ''}`;
  let pool = shared.get(key);
  if (!pool) {
    pool = new ParsePool({ script, ...limits });
    shared.set(key, pool);
  }
  return pool;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}
