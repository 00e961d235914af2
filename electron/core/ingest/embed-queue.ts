import type { DocumentInput, Embedder } from '../ollama/embedder';

interface Entry<T> {
  payload: T;
  inputs: readonly DocumentInput[];
  vectors: Float32Array[];
  /** Chunks whose vectors have not come back yet. */
  missing: number;
}

export interface Completed<T> {
  payload: T;
  vectors: Float32Array[];
}

/**
 * Packs the chunks of many documents into full /api/embed requests (a folder of small notes
 * would otherwise cost one request per note) and hands documents back, in the order they were
 * added, once every one of their chunks has a vector.
 *
 * Up to `inFlight` requests run while the caller goes on reading and chunking the next files, so
 * the disk, the parse worker and Ollama work at the same time; when that many are out, `add`
 * waits for one to come back, which bounds the work handed to Ollama. Documents still come out in
 * the order they went in (a request answered early waits for the ones before it, each within the
 * gateway's time limit).
 */
export class EmbedQueue<T> {
  private readonly entries: Entry<T>[] = [];
  private readonly buffer: Array<{ entry: Entry<T>; index: number }> = [];
  private readonly running: Array<Promise<void>> = [];
  private failure: { error: unknown } | null = null;
  /** Ends the requests still out once the queue is abandoned (or the import cancelled). */
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;

  constructor(
    private readonly embedder: Embedder,
    signal?: AbortSignal,
    private readonly inFlight = 1,
  ) {
    this.signal = signal ? AbortSignal.any([signal, this.stop.signal]) : this.stop.signal;
  }

  get pendingInputs(): number {
    return this.buffer.length;
  }

  /** Queues one document; sends every full batch (waiting while `inFlight` are out) and returns the documents completed. */
  async add(payload: T, inputs: readonly DocumentInput[]): Promise<Completed<T>[]> {
    const entry: Entry<T> = { payload, inputs, vectors: new Array(inputs.length), missing: inputs.length };
    this.entries.push(entry);
    inputs.forEach((_, index) => this.buffer.push({ entry, index }));
    await this.sendWhile(() => this.buffer.length >= this.embedder.batchSize);
    await this.throwIfFailed();
    return this.takeCompleted();
  }

  /** Embeds what is left, including a final partial batch, and waits for every request. */
  async drain(): Promise<Completed<T>[]> {
    await this.sendWhile(() => this.buffer.length > 0);
    while (this.running.length > 0) await this.running[0];
    await this.throwIfFailed();
    return this.takeCompleted();
  }

  /** Sends batches while `more` holds, each once fewer than `inFlight` requests are out. */
  private async sendWhile(more: () => boolean): Promise<void> {
    while (more()) {
      while (this.running.length >= Math.max(1, this.inFlight)) await Promise.race(this.running);
      await this.throwIfFailed();
      this.send();
    }
  }

  /**
   * After a failure: everything still waiting, with its vectors when they all came back (a batch
   * sent before the failing one may have), else without; requests still out are ended.
   */
  abandon(): Array<{ payload: T; vectors: Float32Array[] | null }> {
    this.stop.abort();
    this.buffer.length = 0;
    return this.entries.splice(0).map((e) => ({ payload: e.payload, vectors: e.missing === 0 ? e.vectors : null }));
  }

  private send(): void {
    const batch = this.buffer.splice(0, this.embedder.batchSize);
    const request = this.embedder
      .embedDocuments(
        batch.map(({ entry, index }) => entry.inputs[index]!),
        this.signal,
      )
      .then(
        (vectors) => {
          batch.forEach(({ entry, index }, i) => {
            entry.vectors[index] = vectors[i]!;
            entry.missing--;
          });
        },
        (error: unknown) => {
          // Kept for the caller's next add or drain; the first failure is the one reported.
          this.failure ??= { error };
        },
      )
      .finally(() => this.running.splice(this.running.indexOf(request), 1));
    this.running.push(request);
  }

  /** Throws the first failure once the other requests out have settled, so what they brought is kept. */
  private async throwIfFailed(): Promise<void> {
    if (!this.failure) return;
    while (this.running.length > 0) await this.running[0];
    throw this.failure.error;
  }

  private takeCompleted(): Completed<T>[] {
    const done: Completed<T>[] = [];
    while (this.entries.length > 0 && this.entries[0]!.missing === 0) {
      const e = this.entries.shift()!;
      done.push({ payload: e.payload, vectors: e.vectors });
    }
    return done;
  }
}
