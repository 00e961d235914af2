// Each model's own tokenizer, built from the vocabulary Ollama holds for it: fetched once per
// model digest through the gateway (one verbose /api/show), kept on disk by digest
// (vocabulary-store.ts), built in memory on first use, and dropped from disk once Ollama no longer
// lists the digest. With a chat template Quire knows byte for byte (chat-templates.ts) it counts a
// prompt exactly as Ollama will; without either, callers fall back to their calibrated estimate.
import type { Embedder } from '../ollama/embedder';
import type { ModelInfo, OllamaGateway } from '../ollama/gateway';
import { renderChat, templateFamily, type TemplateFamily, type TemplateMessage } from './chat-templates';
import { createTokenizer, type ModelTokenizer } from './tokenizer';
import { vocabularyFromModelInfo } from './vocabulary';
import type { VocabularyStore } from './vocabulary-store';

export type TokenizerResult = { ok: true; tokenizer: ModelTokenizer } | { ok: false; reason: string };

/** A prompt counted as Ollama will count it: the family's rendering, the model's tokens, BOS. */
export interface ExactCounter {
  count(messages: readonly TemplateMessage[]): number;
  /** The prompt text Ollama builds from these messages (before BOS). */
  render(messages: readonly TemplateMessage[]): string;
  /** Tokens of a piece of text on its own. */
  text(text: string): number;
}

export type CounterResult = { ok: true; counter: ExactCounter } | { ok: false; reason: string };

/** Tokenizer kinds worth asking Ollama's vocabulary for. */
const COUNTED = new Set(['gpt2', 'llama']);

/** A model whose tokenizer kind Quire counts with (or whose kind Ollama does not say: its vocabulary tells). */
const counted = (info: ModelInfo) => info.tokenizer === null || COUNTED.has(info.tokenizer);

export class ModelTokens {
  private readonly byDigest = new Map<string, Promise<TokenizerResult>>();
  /** Models whose count Ollama contradicted: their templates are not what Quire renders. */
  private readonly distrusted = new Map<string, string>();
  private eviction: Promise<string[]> | null = null;

  constructor(
    private readonly gateway: OllamaGateway,
    private readonly store: VocabularyStore | null,
  ) {}

  /** The model's tokenizer, or why Quire cannot count with it. Fetches at most once per digest. */
  tokenizer(info: ModelInfo, signal?: AbortSignal): Promise<TokenizerResult> {
    if (!counted(info)) {
      return Promise.resolve({ ok: false, reason: `${info.name} uses a "${info.tokenizer}" tokenizer, which Quire does not count exactly` });
    }
    let pending = this.byDigest.get(info.digest);
    if (!pending) {
      const loading = this.load(info, signal);
      // A failed fetch (Ollama down, cancelled) is asked again next time, not remembered.
      pending = loading.then(
        (r) => r,
        (e: unknown) => {
          this.byDigest.delete(info.digest);
          return { ok: false as const, reason: `${info.name}'s vocabulary could not be read from Ollama (${(e as Error).message})` };
        },
      );
      this.byDigest.set(info.digest, pending);
    }
    return pending;
  }

  /**
   * Whether asking for this model's tokenizer goes to Ollama: not in memory, not kept on disk. A
   * large vocabulary takes seconds to fetch, so the person is told while it lasts.
   */
  willFetch(info: ModelInfo): boolean {
    return counted(info) && !this.byDigest.has(info.digest) && !(this.store?.has(info.digest) ?? false);
  }

  /** An exact counter for the chat model, or why the estimate must stay approximate. */
  async counter(info: ModelInfo, signal?: AbortSignal): Promise<CounterResult> {
    const distrust = this.distrusted.get(info.digest);
    if (distrust) return { ok: false, reason: distrust };
    // Ollama renders such a model's prompts with Go code of its own, whatever its template says.
    if (info.renderer) return { ok: false, reason: `Ollama renders ${info.name}'s prompts with its built-in "${info.renderer}" renderer, which Quire does not reproduce` };
    const family = templateFamily(info.template);
    if (!family) return { ok: false, reason: `${info.name}'s chat template is not one Quire renders exactly` };
    const t = await this.tokenizer(info, signal);
    if (!t.ok) return t;
    return { ok: true, counter: exactCounter(t.tokenizer, family) };
  }

  /**
   * Ollama read more tokens than an exact count said it would: whatever Quire renders is not the
   * model's template, so its prompts are estimated (and calibrated) from now on, in this process.
   */
  distrust(info: ModelInfo, counted: number, reported: number): void {
    this.distrusted.set(info.digest, `${info.name}'s template renders differently from what Quire expected (counted ${counted}, Ollama read ${reported})`);
  }

  private async load(info: ModelInfo, signal?: AbortSignal): Promise<TokenizerResult> {
    const stored = this.store?.read(info.digest);
    if (stored) return { ok: true, tokenizer: createTokenizer(stored) };
    const modelInfo = await this.gateway.verboseModelInfo(info.name, signal);
    const parsed = vocabularyFromModelInfo(modelInfo);
    if (!parsed.ok) return { ok: false, reason: `${info.name}: ${parsed.reason}` };
    if (this.store) {
      try {
        this.store.write(info.digest, parsed.vocabulary);
      } catch {
        // A read-only data folder only costs a fetch next time.
      }
      void this.evictGone(signal);
    }
    return { ok: true, tokenizer: createTokenizer(parsed.vocabulary) };
  }

  /**
   * Deletes stored vocabularies of digests Ollama no longer lists: once per process, after the
   * first fetch (later calls get the same answer).
   */
  evictGone(signal?: AbortSignal): Promise<string[]> {
    const store = this.store;
    if (!store) return Promise.resolve([]);
    this.eviction ??= (async () => {
      try {
        const models = await this.gateway.listModels(signal, { fresh: true });
        const gone = store.evictExcept(new Set(models.map((m) => m.digest)));
        for (const d of gone) this.byDigest.delete(d);
        return gone;
      } catch {
        // Ollama unreachable: nothing is deleted, and the next fetch tries again.
        this.eviction = null;
        return [];
      }
    })();
    return this.eviction;
  }
}

const byHost = new Map<string, ModelTokens>();

/**
 * The tokenizers kept in memory for an Ollama host, for callers without the engine's (tests,
 * benchmarks, a search or import not run through an engine): one per host, so copies of a gateway
 * made with other timeouts (withOptions) share it and a vocabulary is fetched once.
 */
export function sharedModelTokens(gateway: OllamaGateway): ModelTokens {
  let t = byHost.get(gateway.host);
  if (!t) {
    t = new ModelTokens(gateway, null);
    byHost.set(gateway.host, t);
  }
  return t;
}

/**
 * Gives the embedder the model's own token count when Quire knows its tokenizer, so a passage too
 * long for it is split, and a question refused, before anything is sent. Never fails: without a
 * tokenizer the embedder relies on Ollama refusing what is too long.
 */
export async function countEmbeddingInputs(tokens: ModelTokens, embedder: Embedder, signal?: AbortSignal): Promise<void> {
  const t = await tokens.tokenizer(embedder.info, signal);
  if (t.ok) embedder.useTokenCounter((text) => t.tokenizer.count(text));
}

export function exactCounter(tokenizer: ModelTokenizer, family: TemplateFamily): ExactCounter {
  const bos = tokenizer.addBos && tokenizer.bos !== null ? 1 : 0;
  return {
    render: (messages) => renderChat(family, messages),
    count: (messages) => bos + tokenizer.count(renderChat(family, messages)),
    text: (text) => tokenizer.count(text),
  };
}
