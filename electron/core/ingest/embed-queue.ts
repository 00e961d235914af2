import type { DocumentInput, Embedder } from '../ollama/embedder';

interface Entry<T> {
  payload: T;
  inputs: readonly DocumentInput[];
  vectors: Float32Array[];
}

export interface Completed<T> {
  payload: T;
  vectors: Float32Array[];
}

/**
 * Packs the chunks of many documents into full /api/embed requests (a folder of small notes
 * would otherwise cost one request per note) and hands documents back, in the order they were
 * added, once every one of their chunks has a vector.
 */
export class EmbedQueue<T> {
  private readonly entries: Entry<T>[] = [];
  private readonly buffer: Array<{ entry: Entry<T>; index: number }> = [];

  constructor(
    private readonly embedder: Embedder,
    private readonly signal?: AbortSignal,
  ) {}

  get pendingInputs(): number {
    return this.buffer.length;
  }

  /** Queues one document; embeds every full batch now ready and returns the documents completed. */
  async add(payload: T, inputs: readonly DocumentInput[]): Promise<Completed<T>[]> {
    const entry: Entry<T> = { payload, inputs, vectors: new Array(inputs.length) };
    this.entries.push(entry);
    inputs.forEach((_, index) => this.buffer.push({ entry, index }));
    while (this.buffer.length >= this.embedder.batchSize) await this.embedBatch();
    return this.takeCompleted();
  }

  /** Embeds what is left, including a final partial batch. */
  async drain(): Promise<Completed<T>[]> {
    while (this.buffer.length > 0) await this.embedBatch();
    return this.takeCompleted();
  }

  /** After a failure: everything still waiting, without vectors. */
  abandon(): T[] {
    this.buffer.length = 0;
    return this.entries.splice(0).map((e) => e.payload);
  }

  private async embedBatch(): Promise<void> {
    const batch = this.buffer.slice(0, this.embedder.batchSize);
    const vectors = await this.embedder.embedDocuments(
      batch.map(({ entry, index }) => entry.inputs[index]!),
      this.signal,
    );
    this.buffer.splice(0, batch.length);
    batch.forEach(({ entry, index }, i) => {
      entry.vectors[index] = vectors[i]!;
    });
  }

  private takeCompleted(): Completed<T>[] {
    const done: Completed<T>[] = [];
    const waiting = new Set(this.buffer.map((b) => b.entry));
    while (this.entries.length > 0 && !waiting.has(this.entries[0]!)) {
      const e = this.entries.shift()!;
      done.push({ payload: e.payload, vectors: e.vectors });
    }
    return done;
  }
}
