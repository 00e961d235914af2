import { Ollama } from 'ollama';
import { QuireError } from '../../../shared/errors';
import { isRetryable, mapOllamaError } from './errors';
import { resolveOllamaHost } from './host';

export interface GatewayOptions {
  host?: string;
  /** Per request. Embedding a batch on a CPU can take a while, hence the generous default. */
  timeoutMs?: number;
  /** Attempts after the first, for connection errors, timeouts and 5xx. */
  retries?: number;
  /** First backoff; doubles each retry. */
  backoffMs?: number;
}

export interface ModelInfo {
  name: string;
  digest: string;
  family: string | null;
  contextLength: number | null;
  embeddingLength: number | null;
  capabilities: string[];
}

/**
 * The single place Quire talks to Ollama over HTTP, through the official `ollama` client.
 * Every call gets a timeout and the caller's AbortSignal, errors become QuireError codes,
 * and transient failures are retried with exponential backoff.
 */
export class OllamaGateway {
  readonly host: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;

  constructor(private readonly options: GatewayOptions = {}) {
    this.host = resolveOllamaHost(options.host);
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.retries = options.retries ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
  }

  /** The same Ollama with other patience: interactive calls should fail fast, batch work may wait. */
  withOptions(overrides: Omit<GatewayOptions, 'host'>): OllamaGateway {
    return new OllamaGateway({ ...this.options, host: this.host, ...overrides });
  }

  async version(signal?: AbortSignal): Promise<string> {
    return this.call({ signal, retries: 0 }, async (c) => (await c.version()).version);
  }

  async listModels(signal?: AbortSignal): Promise<Array<{ name: string; digest: string; size: number }>> {
    return this.call({ signal }, async (c) => (await c.list()).models.map((m) => ({ name: m.name, digest: m.digest, size: m.size })));
  }

  /** Name, digest and context/embedding lengths of one model; MODEL_NOT_FOUND if Ollama lacks it. */
  async modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo> {
    const name = withTag(model);
    const [show, tags] = await Promise.all([
      this.call({ signal, model: name }, (c) => c.show({ model: name })),
      this.listModels(signal),
    ]);
    const tag = tags.find((m) => m.name === name);
    if (!tag) throw new QuireError('MODEL_NOT_FOUND', `Ollama does not list ${name}. Pull it with: ollama pull ${name}`);
    const info = (show.model_info ?? {}) as unknown as Record<string, unknown>;
    const arch = typeof info['general.architecture'] === 'string' ? (info['general.architecture'] as string) : null;
    const num = (key: string) => (arch && typeof info[`${arch}.${key}`] === 'number' ? (info[`${arch}.${key}`] as number) : null);
    return {
      name,
      digest: tag.digest,
      family: show.details?.family ?? arch,
      contextLength: num('context_length'),
      embeddingLength: num('embedding_length'),
      capabilities: (show as { capabilities?: string[] }).capabilities ?? [],
    };
  }

  /**
   * Loads a chat model with the context window it will be asked for (Ollama loads on an empty
   * chat, and reloads when num_ctx changes), so the load is not counted as answering time.
   */
  async load(model: string, numCtx: number, signal?: AbortSignal): Promise<void> {
    const name = withTag(model);
    await this.call({ signal, model: name }, (c) => c.chat({ model: name, messages: [], stream: false, options: { num_ctx: numCtx } }));
  }

  async embed(model: string, input: string[], signal?: AbortSignal): Promise<number[][]> {
    const name = withTag(model);
    const res = await this.call({ signal, model: name }, (c) => c.embed({ model: name, input, truncate: true }));
    if (!Array.isArray(res.embeddings) || res.embeddings.length !== input.length) {
      throw new QuireError('OLLAMA_ERROR', `Ollama returned ${res.embeddings?.length ?? 0} embeddings for ${input.length} inputs.`);
    }
    return res.embeddings;
  }

  /** Runs fn with a client whose every request carries our timeout and the caller's signal. */
  private async call<T>(opts: { signal?: AbortSignal | undefined; model?: string; retries?: number }, fn: (client: Ollama) => Promise<T>): Promise<T> {
    const retries = opts.retries ?? this.retries;
    for (let attempt = 0; ; attempt++) {
      opts.signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      const client = new Ollama({
        host: this.host,
        fetch: (url, init) => fetch(url, { ...init, signal }),
      });
      try {
        return await fn(client);
      } catch (e) {
        // Whatever reason the caller aborted with, it is a cancellation, not an Ollama failure.
        if (opts.signal?.aborted) throw new QuireError('CANCELLED', 'Cancelled.', { cause: e });
        const cause = timeout.aborted ? timeout.reason : e;
        const mapped = mapOllamaError(cause, { host: this.host, model: opts.model, timeoutMs: this.timeoutMs });
        if (mapped.code === 'CANCELLED' || attempt >= retries || !isRetryable(mapped)) throw mapped;
        await sleep(this.backoffMs * 2 ** attempt, opts.signal);
      }
    }
  }
}

/** Ollama treats a name without a tag as `:latest`; so do we, so digests and tables line up. */
export function withTag(model: string): string {
  const last = model.split('/').at(-1) ?? model;
  return last.includes(':') ? model : `${model}:latest`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(new QuireError('CANCELLED', 'Cancelled.'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
