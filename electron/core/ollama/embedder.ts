import { QuireError } from '../../../shared/errors';
import type { OllamaGateway } from './gateway';
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
export const DEFAULT_EMBED_BATCH = 32;

/**
 * One embedding model, pinned to the digest and dimension Ollama reported when it was resolved.
 * Any vector of another length is refused, so vectors from different models can never be mixed.
 */
export class Embedder {
  private requests = 0;
  private dimension: number | null = null;

  private constructor(
    private readonly gateway: OllamaGateway,
    readonly name: string,
    readonly digest: string,
    /** What /api/show declares; null when it declares nothing. */
    private readonly declaredDimension: number | null,
    private readonly prefixes: TaskPrefixes,
    readonly batchSize: number,
  ) {}

  /**
   * Asks Ollama for the model's digest and declared dimension. Makes no embedding request. `fresh`
   * reads the model list anew (an import must embed with the model as it is now); a query may use
   * the gateway's briefly cached list.
   */
  static async resolve(gateway: OllamaGateway, model: string, options: { batchSize?: number; signal?: AbortSignal; fresh?: boolean } = {}): Promise<Embedder> {
    const batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 4096) {
      throw new QuireError('INVALID_ARGUMENT', `The embedding batch size must be a whole number from 1 to 4096, not ${batchSize}.`);
    }
    const info = await gateway.modelInfo(withTag(model), options.signal, { fresh: options.fresh ?? false });
    if (info.capabilities.length > 0 && !info.capabilities.includes('embedding')) {
      throw new QuireError('INVALID_ARGUMENT', `${info.name} is not an embedding model (its capabilities: ${info.capabilities.join(', ')}). Try --model embeddinggemma.`);
    }
    return new Embedder(gateway, info.name, info.digest, info.embeddingLength, taskPrefixesFor(info.name), batchSize);
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
      const batch = docs.slice(i, i + this.batchSize).map((d) => this.prefixes.document(d.text, d.title));
      out.push(...(await this.embedRaw(batch, signal)));
    }
    return out;
  }

  async embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    const [v] = await this.embedRaw([this.prefixes.query(query)], signal);
    if (!v) throw new QuireError('OLLAMA_ERROR', 'Ollama returned no embedding for the query.');
    return v;
  }

  private async embedRaw(inputs: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    this.requests++;
    const vectors = await this.gateway.embed(this.name, inputs, signal);
    return vectors.map((v) => Float32Array.from(v, (x) => x)).map((v) => {
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
