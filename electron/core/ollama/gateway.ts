import { Ollama } from 'ollama';
import { QuireError } from '../../../shared/errors';
import { isRetryable, mapOllamaError } from './errors';
import { resolveOllamaHost } from './host';

export interface GatewayOptions {
  host?: string;
  /**
   * Sent with every request (a reverse proxy's Authorization in front of a shared Ollama). Kept
   * only here and handed to the client: never logged, never in an error or a status.
   */
  headers?: Readonly<Record<string, string>>;
  /** Per request. Embedding a batch on a CPU can take a while, hence the generous default. */
  timeoutMs?: number;
  /** Attempts after the first, for connection errors, timeouts and 5xx. */
  retries?: number;
  /** First backoff; doubles each retry. */
  backoffMs?: number;
  /** How long the model list (/api/tags) is trusted before it is asked again; 30 s unless given. */
  modelListTtlMs?: number;
}

/**
 * For a request a person is waiting on (a search's query vector, a model's details before an
 * answer, Settings' model list): one quick retry, then the failure's sentence, not seconds of backoff.
 */
export const PERSON_WAITING = { retries: 1, backoffMs: 100, timeoutMs: 30_000 } as const satisfies Omit<GatewayOptions, 'host' | 'modelListTtlMs'>;

/**
 * For a person waiting at a form on what Ollama has (Settings' model list, a model confirmed before
 * it is saved): a list or a model's details come at once from a server that answers, so a hung one
 * is told in about 10 s (two tries of 5 s) by the gateway's own timeout, OLLAMA_TIMEOUT naming the
 * host. Not a deadline signal of the caller's: the gateway would read its abort as a cancellation.
 */
export const MODEL_LOOKUP = { ...PERSON_WAITING, timeoutMs: 5_000 } as const satisfies Omit<GatewayOptions, 'host' | 'modelListTtlMs'>;

/** One model as /api/tags lists it. */
export interface ModelListing {
  name: string;
  digest: string;
  size: number;
  family: string | null;
  parameterSize: string | null;
  quantization: string | null;
}

export interface PullProgress {
  status: string;
  completed: number | null;
  total: number | null;
}

/**
 * What Ollama told us about its models, shared by every copy of a gateway (withOptions). The model
 * list is kept briefly (a search or answer then makes one request, the embedding, not three);
 * /api/show is kept per digest, which names the model's exact bytes, so it never goes stale.
 *
 * Every invalidation (a pull ended, Ollama said a model is missing) starts a new generation. A
 * response asked for in an earlier generation may describe models as they were before the pull, so
 * it never lands in the cache: otherwise a list fetched just before a pull finished could undo the
 * pull's invalidation for 30 s, and /api/show (asked by name) could be filed under a digest that is
 * no longer the model's.
 */
class ModelCache {
  list: { at: number; models: ModelListing[] } | null = null;
  generation = 0;
  readonly shown = new Map<string, Awaited<ReturnType<Ollama['show']>>>();
  constructor(readonly listTtlMs: number) {}
  invalidate(): void {
    this.list = null;
    this.generation++;
  }
}

export interface ModelInfo {
  name: string;
  digest: string;
  family: string | null;
  contextLength: number | null;
  embeddingLength: number | null;
  capabilities: string[];
  /** The chat template (Go text/template) Ollama renders messages with; null if it sent none. */
  template: string | null;
  /** tokenizer.ggml.model ("gpt2", "llama", "bert"…), null if not said. */
  tokenizer: string | null;
  /**
   * The built-in renderer Ollama writes this model's prompts with instead of its template
   * (/api/show "renderer", e.g. for Qwen 3.5 or Gemma 4); null or absent when the template is used.
   */
  renderer?: string | null;
}

/**
 * The single place Quire talks to Ollama over HTTP, through the official `ollama` client.
 * Every call gets a timeout and the caller's AbortSignal, errors become QuireError codes,
 * and transient failures are retried with exponential backoff.
 */
export class OllamaGateway {
  readonly host: string;
  /** How long one request is given (a sentence about a timeout names it). */
  readonly timeoutMs: number;
  /** Attempts after the first for a request that failed as Ollama being away. */
  readonly retries: number;
  private readonly backoffMs: number;
  private readonly cache: ModelCache;

  constructor(
    private readonly options: GatewayOptions = {},
    cache?: ModelCache,
  ) {
    this.host = resolveOllamaHost(options.host);
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.retries = options.retries ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
    this.cache = cache ?? new ModelCache(options.modelListTtlMs ?? 30_000);
  }

  /**
   * The same Ollama with other patience (fewer retries, a shorter timeout: interactive calls fail
   * fast), never more: a timeout longer than this gateway's own is not taken, so a caller who made
   * a gateway to give up sooner (on a server known to hang) is not kept waiting by a quick call.
   */
  withOptions(overrides: Omit<GatewayOptions, 'host' | 'modelListTtlMs'>): OllamaGateway {
    const timeoutMs = Math.min(overrides.timeoutMs ?? this.timeoutMs, this.timeoutMs);
    return new OllamaGateway({ ...this.options, host: this.host, ...overrides, timeoutMs }, this.cache);
  }

  /** The names of the headers every request carries (their values stay in here). */
  get headerNames(): string[] {
    return Object.keys(this.options.headers ?? {});
  }

  /** Forget the model list (after a pull, or when Ollama says a model is missing). */
  forgetModels(): void {
    this.cache.invalidate();
  }

  async version(signal?: AbortSignal): Promise<string> {
    return this.call({ signal, retries: 0 }, async (c) => (await c.version()).version);
  }

  /** The installed models (cached briefly; `fresh` asks Ollama again). */
  async listModels(signal?: AbortSignal, options: { fresh?: boolean } = {}): Promise<ModelListing[]> {
    const cached = this.cache.list;
    if (!options.fresh && cached && Date.now() - cached.at < this.cache.listTtlMs) return cached.models;
    const generation = this.cache.generation;
    const models = await this.call({ signal }, async (c) =>
      (await c.list()).models.map((m) => ({
        name: m.name,
        digest: m.digest,
        size: m.size,
        family: m.details?.family ?? null,
        parameterSize: m.details?.parameter_size ?? null,
        quantization: m.details?.quantization_level ?? null,
      })),
    );
    if (this.cache.generation === generation) this.cache.list = { at: Date.now(), models };
    return models;
  }

  /**
   * The model as Ollama lists it now (asked afresh: a model just pulled counts), or MODEL_NOT_FOUND
   * naming the installed ones, so a mistyped name is seen for what it is before it is saved.
   */
  async requireListed(model: string, signal?: AbortSignal): Promise<ModelListing> {
    const name = withTag(model.trim());
    const models = await this.listModels(signal, { fresh: true });
    const found = models.find((m) => m.name === name);
    if (found) return found;
    const installed = models.length > 0 ? `Installed: ${models.map((m) => m.name.replace(/:latest$/, '')).join(', ')}.` : 'It has no models yet.';
    throw new QuireError('MODEL_NOT_FOUND', `Ollama at ${this.host} has no model "${model.trim()}". ${installed} To use one not yet pulled: ollama pull ${model.trim()}`);
  }

  /** Name, digest and context/embedding lengths of one model; MODEL_NOT_FOUND if Ollama lacks it. */
  async modelInfo(model: string, signal?: AbortSignal, options: { fresh?: boolean } = {}): Promise<ModelInfo> {
    const name = withTag(model);
    for (let attempt = 1; ; attempt++) {
      const generation = this.cache.generation;
      const tag = await this.listedModel(name, signal, { fresh: options.fresh === true || attempt > 1 });
      const cached = this.cache.shown.get(tag.digest);
      if (cached) return describeModel(name, tag.digest, cached);
      const show = await this.call({ signal, model: name }, (c) => c.show({ model: name }));
      // /api/show answers for the name, whatever its digest is now: if the models changed since the
      // list was read, the answer may be another digest's. List again and ask again (a few times).
      if (this.cache.generation === generation) {
        this.cache.shown.set(tag.digest, show);
        return describeModel(name, tag.digest, show);
      }
      if (attempt >= 3) return describeModel(name, tag.digest, show);
    }
  }

  /** The model as the list names it; asks again before saying it is missing (it may have been pulled since). */
  private async listedModel(name: string, signal: AbortSignal | undefined, options: { fresh: boolean }): Promise<ModelListing> {
    let tag = (await this.listModels(signal, options)).find((m) => m.name === name);
    if (!tag && !options.fresh) tag = (await this.listModels(signal, { fresh: true })).find((m) => m.name === name);
    if (!tag) throw new QuireError('MODEL_NOT_FOUND', `Ollama does not list ${name}. Pull it with: ollama pull ${name}`);
    return tag;
  }

  /**
   * The model's tokenizer fields (model_info with the tokenizer.ggml.* arrays: /api/show with
   * "verbose": true). Several MB for a large vocabulary, so never kept here: callers keep what
   * they build from it by digest (core/tokens/vocabulary-store.ts).
   */
  async verboseModelInfo(model: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const name = withTag(model);
    // The client passes the request through as JSON; its type does not list verbose yet.
    const show = await this.call({ signal, model: name }, (c) => c.show({ model: name, verbose: true } as Parameters<Ollama['show']>[0]));
    return (show.model_info ?? {}) as unknown as Record<string, unknown>;
  }

  /**
   * The window the loaded model runs with (/api/ps context_length, which Ollama may have capped
   * below the num_ctx asked for), or null when Ollama does not say or the model is not loaded.
   */
  async runningContextLength(model: string, signal?: AbortSignal): Promise<number | null> {
    const name = withTag(model);
    const { models } = await this.call({ signal, model, retries: 0 }, (c) => c.ps());
    const loaded = models.find((m) => m.name === name || m.model === name) as { context_length?: unknown } | undefined;
    const n = loaded?.context_length;
    return typeof n === 'number' && n > 0 ? n : null;
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
    return (await this.embedCounted(model, input, signal)).embeddings;
  }

  /**
   * Vectors and the tokens Ollama read (prompt_eval_count). Sent with truncate: false, so an input
   * longer than the model's context is refused (INPUT_TOO_LONG) instead of silently cut: the
   * caller splits it or says so (ollama/embedder.ts).
   */
  async embedCounted(model: string, input: string[], signal?: AbortSignal): Promise<{ embeddings: number[][]; promptEvalCount: number | null }> {
    const name = withTag(model);
    const res = await this.call({ signal, model: name }, (c) => c.embed({ model: name, input, truncate: false })).catch((e: unknown) => {
      if (e instanceof QuireError && e.code === 'MODEL_NOT_FOUND') this.cache.invalidate();
      throw e;
    });
    if (!Array.isArray(res.embeddings) || res.embeddings.length !== input.length) {
      throw new QuireError('OLLAMA_ERROR', `Ollama returned ${res.embeddings?.length ?? 0} embeddings for ${input.length} inputs.`);
    }
    return { embeddings: res.embeddings, promptEvalCount: typeof res.prompt_eval_count === 'number' ? res.prompt_eval_count : null };
  }

  /**
   * Downloads a model, yielding Ollama's progress. Ollama reports each layer (blob) of the model
   * on its own, several at once, each from 0 to its size; what is yielded is the whole download:
   * the bytes of every layer announced so far, so a bar never runs back when the next layer starts.
   * No retry: a pull resumes where it stopped when asked again, so the person decides. The model
   * list is refreshed when it ends, either way.
   */
  async *pull(model: string, signal?: AbortSignal): AsyncGenerator<PullProgress> {
    const name = model.trim();
    const layers = new Map<string, { completed: number; total: number }>();
    try {
      const stream = await this.client(signal).pull({ model: name, stream: true });
      for await (const p of stream) {
        if (p.digest && typeof p.total === 'number') layers.set(p.digest, { completed: p.completed ?? 0, total: p.total });
        const sum = (k: 'completed' | 'total') => [...layers.values()].reduce((n, l) => n + l[k], 0);
        yield { status: p.status, completed: layers.size > 0 ? sum('completed') : null, total: layers.size > 0 ? sum('total') : null };
      }
    } catch (e) {
      if (signal?.aborted) throw new QuireError('CANCELLED', `Download of ${name} cancelled; pulling it again resumes where it stopped.`, { cause: e });
      // The registry has no such model (Ollama's words for it, sent in the stream).
      if (/file does not exist|manifest unknown/i.test((e as Error)?.message ?? '')) {
        throw new QuireError('MODEL_NOT_FOUND', `Ollama's library has no model "${name}": check its name at https://ollama.com/library.`, { cause: e });
      }
      throw mapOllamaError(e, { host: this.host, model: name, timeoutMs: this.timeoutMs });
    } finally {
      this.cache.invalidate();
    }
  }

  /**
   * A client bound to this host whose requests end with `signal`, for the streaming chat
   * (ollama/chat.ts), which keeps its own first-token and idle timers. Only the gateway's files
   * construct clients (test/architecture.test.ts checks).
   */
  client(signal?: AbortSignal): Ollama {
    return new Ollama({ host: this.host, ...(this.options.headers ? { headers: { ...this.options.headers } } : {}), fetch: (url, init) => fetch(url, signal ? { ...init, signal } : init) });
  }

  /** Runs fn with a client whose every request carries our timeout and the caller's signal. */
  private async call<T>(opts: { signal?: AbortSignal | undefined; model?: string; retries?: number }, fn: (client: Ollama) => Promise<T>): Promise<T> {
    const retries = opts.retries ?? this.retries;
    for (let attempt = 0; ; attempt++) {
      opts.signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      try {
        return await fn(this.client(signal));
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

function describeModel(name: string, digest: string, show: Awaited<ReturnType<Ollama['show']>>): ModelInfo {
  const info = (show.model_info ?? {}) as unknown as Record<string, unknown>;
  const arch = typeof info['general.architecture'] === 'string' ? (info['general.architecture'] as string) : null;
  const num = (key: string) => (arch && typeof info[`${arch}.${key}`] === 'number' ? (info[`${arch}.${key}`] as number) : null);
  return {
    name,
    digest,
    family: show.details?.family ?? arch,
    contextLength: num('context_length'),
    embeddingLength: num('embedding_length'),
    capabilities: (show as { capabilities?: string[] }).capabilities ?? [],
    template: typeof show.template === 'string' ? show.template : null,
    tokenizer: typeof info['tokenizer.ggml.model'] === 'string' ? (info['tokenizer.ggml.model'] as string) : null,
    renderer: rendererOf(show),
  };
}

function rendererOf(show: object): string | null {
  const r = (show as { renderer?: unknown }).renderer;
  return typeof r === 'string' && r !== '' ? r : null;
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
