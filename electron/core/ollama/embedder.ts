import { EMBED_BATCH } from '../../../shared/embed-batch';
import { QuireError } from '../../../shared/errors';
import type { ModelInfo, OllamaGateway } from './gateway';
import { withTag } from './gateway';
import { taskPrefixesFor, type TaskPrefixes } from './prefixes';

export interface EmbeddingModelIdentity {
  name: string;
  digest: string;
  dimension: number;
}

export interface DocumentInput {
  text: string;
  /** Heading path, given to models whose document prefix carries a title. */
  title: string;
}

export { DEFAULT_EMBED_MODEL } from '../../../shared/settings';
export const DEFAULT_EMBED_BATCH = EMBED_BATCH.fallback;

/**
 * One embedding model, pinned to the digest and dimension Ollama reported when it was resolved.
 * Any vector of another length is refused, so vectors from different models can never be mixed.
 */
export class Embedder {
  private requests = 0;
  private dimension: number | null = null;
  /** The model's own token count of an input, when its tokenizer is known (core/tokens). */
  private countTokens: ((text: string) => number) | null = null;
  readonly name: string;
  readonly digest: string;
  /** What /api/show declares; null when it declares nothing. */
  private readonly declaredDimension: number | null;
  /**
   * The most tokens one input may have: the model's context, and never more than Ollama's default
   * window (4096), which embedding requests run in unless the Modelfile says otherwise.
   */
  readonly inputLimit: number;

  private constructor(
    private readonly gateway: OllamaGateway,
    /** What Ollama said of the model (name, digest, lengths, tokenizer kind). */
    readonly info: ModelInfo,
    private readonly prefixes: TaskPrefixes,
    readonly batchSize: number,
  ) {
    this.name = info.name;
    this.digest = info.digest;
    this.declaredDimension = info.embeddingLength;
    this.inputLimit = Math.min(info.contextLength ?? 2048, OLLAMA_DEFAULT_NUM_CTX);
  }

  /**
   * Counts inputs with the model's own tokenizer from now on: a passage over the limit is split
   * before it is sent, a question over it refused before it is sent, and Ollama's count checked.
   */
  useTokenCounter(count: (text: string) => number): void {
    this.countTokens = count;
  }

  /**
   * Asks Ollama for the model's digest and declared dimension. Makes no embedding request. `fresh`
   * reads the model list anew (an import must embed with the model as it is now); a query may use
   * the gateway's briefly cached list.
   */
  static async resolve(gateway: OllamaGateway, model: string, options: { batchSize?: number; signal?: AbortSignal; fresh?: boolean } = {}): Promise<Embedder> {
    const batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH;
    if (!Number.isInteger(batchSize) || batchSize < EMBED_BATCH.min || batchSize > EMBED_BATCH.max) {
      throw new QuireError('INVALID_ARGUMENT', `The embedding batch size must be a whole number from ${EMBED_BATCH.min} to ${EMBED_BATCH.max}, not ${batchSize}.`);
    }
    const info = await gateway.modelInfo(withTag(model), options.signal, { fresh: options.fresh ?? false });
    if (info.capabilities.length > 0 && !info.capabilities.includes('embedding')) {
      throw new QuireError('WRONG_MODEL_KIND', `${info.name} is not an embedding model (its capabilities: ${info.capabilities.join(', ')}). Choose an embedding model such as embeddinggemma.`);
    }
    return new Embedder(gateway, info, taskPrefixesFor(info.name), batchSize);
  }

  /** Name, digest and the dimension learned from the first response (null before any). */
  get identity(): EmbeddingModelIdentity | null {
    return this.dimension === null ? null : { name: this.name, digest: this.digest, dimension: this.dimension };
  }

  /** How many /api/embed requests this embedder has made. */
  get requestCount(): number {
    return this.requests;
  }

  async embedDocuments(docs: readonly DocumentInput[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < docs.length; i += this.batchSize) {
      const batch = docs.slice(i, i + this.batchSize);
      const inputs = batch.map((d) => this.prefixes.document(d.text, d.title));
      const counts = this.countInputs(inputs);
      // Known too long by the model's own count: embedded in parts, never sent whole.
      if (!counts || counts.every((n) => n <= this.inputLimit)) {
        try {
          out.push(...(await this.embedRaw(inputs, signal, counts)));
          continue;
        } catch (e) {
          if (!(e instanceof QuireError && e.code === 'INPUT_TOO_LONG')) throw e;
        }
      }
      // Some passage is longer than the model's context: embed them one by one, splitting the long ones.
      for (const d of batch) out.push(await this.embedDocument(d, signal, 0));
    }
    return out;
  }

  /**
   * One passage too long for the model (it is never cut silently: requests say truncate: false):
   * embedded in halves, split at a line or word break, whose vectors are averaged, so every word of
   * it counts towards its vector. Split before sending when the model's count says so, else when
   * Ollama refuses it.
   */
  private async embedDocument(doc: DocumentInput, signal: AbortSignal | undefined, depth: number): Promise<Float32Array> {
    const input = this.prefixes.document(doc.text, doc.title);
    const counts = this.countInputs([input]);
    const tooLong = counts !== null && counts[0]! > this.inputLimit;
    if (!tooLong || depth >= MAX_SPLIT_DEPTH || doc.text.length < 2) {
      try {
        const [v] = await this.embedRaw([input], signal, counts);
        return v!;
      } catch (e) {
        if (!(e instanceof QuireError && e.code === 'INPUT_TOO_LONG') || depth >= MAX_SPLIT_DEPTH || doc.text.length < 2) throw e;
      }
    }
    const [a, b] = halves(doc.text);
    const parts = [await this.embedDocument({ ...doc, text: a }, signal, depth + 1), await this.embedDocument({ ...doc, text: b }, signal, depth + 1)];
    return meanDirection(parts, [a.length, b.length]);
  }

  async embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    // A question is not split: half a question finds other passages. Search falls back to keywords and says why.
    const tooLong = (cause?: unknown) =>
      new QuireError('INPUT_TOO_LONG', `The question is longer than ${this.name} can read at once (${this.inputLimit} tokens), so it was searched by keywords only. Ask a shorter question.`, cause ? { cause } : undefined);
    const input = this.prefixes.query(query);
    const counts = this.countInputs([input]);
    if (counts && counts[0]! > this.inputLimit) throw tooLong();
    let v: Float32Array | undefined;
    try {
      [v] = await this.embedRaw([input], signal, counts);
    } catch (e) {
      if (e instanceof QuireError && e.code === 'INPUT_TOO_LONG') throw tooLong(e);
      throw e;
    }
    if (!v) throw new QuireError('OLLAMA_ERROR', 'Ollama returned no embedding for the query.');
    return v;
  }

  /** Each input's tokens by the model's own count, or null without its tokenizer. */
  private countInputs(inputs: readonly string[]): number[] | null {
    const count = this.countTokens;
    return count ? inputs.map((t) => count(t)) : null;
  }

  /** `counts`: the inputs' own token counts, already taken by the caller (countInputs). */
  private async embedRaw(inputs: string[], signal: AbortSignal | undefined, counts: number[] | null): Promise<Float32Array[]> {
    this.requests++;
    const { embeddings, promptEvalCount } = await this.gateway.embedCounted(this.name, inputs, signal);
    // Ollama reads every token of what it is sent (and may add its own BOS/EOS): fewer means it cut
    // something. Without the model's tokenizer, at least one token per non-empty input.
    const sent = counts ? counts.reduce((n, c) => n + c, 0) : inputs.filter((t) => t.length > 0).length;
    if (promptEvalCount !== null && promptEvalCount < sent) {
      throw new QuireError('OLLAMA_ERROR', `Ollama read only ${promptEvalCount} tokens of the ${sent} sent to ${this.name}: it cut the input.`);
    }
    return embeddings.map((v) => Float32Array.from(v, (x) => x)).map((v) => {
      this.checkDimension(v.length);
      return v;
    });
  }

  private checkDimension(length: number): void {
    if (this.dimension === null) {
      if (length === 0 || (this.declaredDimension !== null && this.declaredDimension !== length)) {
        throw new QuireError(
          'EMBED_DIMENSION_MISMATCH',
          `${this.name} returned ${length}-dimensional vectors but Ollama declares an embedding length of ${this.declaredDimension}.`,
        );
      }
      this.dimension = length;
    } else if (length !== this.dimension) {
      throw new QuireError(
        'EMBED_DIMENSION_MISMATCH',
        `${this.name} now returns ${length}-dimensional vectors, not ${this.dimension}: the model changed in Ollama. Import again to re-embed with the new version.`,
      );
    }
  }
}

/** Ollama's num_ctx when neither the request nor the Modelfile sets one. */
const OLLAMA_DEFAULT_NUM_CTX = 4096;

/** Halving a passage ten times makes 1,024 parts: far beyond any chunk size Quire allows. */
const MAX_SPLIT_DEPTH = 10;

/** The text in two, at the line break nearest the middle, else a space, else the middle itself. */
export function halves(text: string): [string, string] {
  const mid = Math.floor(text.length / 2);
  const near = (ch: string) => {
    const before = text.lastIndexOf(ch, mid);
    const after = text.indexOf(ch, mid);
    const best = [before, after].filter((i) => i > 0 && i < text.length - 1).sort((x, y) => Math.abs(x - mid) - Math.abs(y - mid))[0];
    return best === undefined ? -1 : best;
  };
  let at = near('\n');
  if (at < 0 || Math.abs(at - mid) > text.length / 4) at = near(' ');
  if (at < 0) at = mid;
  // Never between the halves of a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(text[at - 1] ?? '')) at++;
  return [text.slice(0, at), text.slice(at)];
}

/** The length-weighted mean of unit vectors, scaled back to unit length (Ollama's vectors are L2-normalised). */
export function meanDirection(vectors: readonly Float32Array[], weights: readonly number[]): Float32Array {
  const out = new Float32Array(vectors[0]!.length);
  vectors.forEach((v, k) => {
    for (let i = 0; i < v.length; i++) out[i]! += v[i]! * weights[k]!;
  });
  const norm = Math.sqrt(out.reduce((s, x) => s + x * x, 0)) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}
