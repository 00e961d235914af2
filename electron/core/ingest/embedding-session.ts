import type { QuireErrorShape } from '../../../shared/errors';
import { toErrorShape } from '../../../shared/errors';
import { activateEmbeddingModel, ensureEmbeddingModel, getActiveEmbeddingModel, listEmbeddingModels, type EmbeddingModelRow } from '../db/embedding-models';
import { withTag } from '../ollama/gateway';
import { countDocumentsMissingModel, documentsMissingVectors, writeDocumentVectors } from '../db/documents';
import type { Db } from '../db/open';
import { Embedder } from '../ollama/embedder';
import type { OllamaGateway } from '../ollama/gateway';
import { embeddingInput } from './embedding-input';
import { EmbedQueue } from './embed-queue';
import { SETTINGS } from '../../../shared/settings';
import { countEmbeddingInputs, sharedModelTokens, type ModelTokens } from '../tokens/model-tokens';

export interface EmbeddingRequest {
  gateway: OllamaGateway;
  model: string;
  batchSize?: number;
  /** Requests to Ollama at once while importing (the embedBatchesInFlight setting); 2 unless given. */
  inFlight?: number;
  /** The model the person has chosen now (the engine's setting): a run for another one never takes over searches. */
  chosen?: () => string;
  /** The models' own tokenizers: a passage too long for the model is split before it is sent. */
  tokens?: ModelTokens;
}

/**
 * One run's use of one embedding model. The model is resolved lazily, so a run with nothing to
 * embed asks Ollama nothing; the first failure to reach it turns embedding off for the rest of
 * the run instead of failing every file in turn.
 */
export class EmbeddingSession {
  private resolving: Promise<Embedder> | null = null;
  private instance: Embedder | null = null;
  private row: EmbeddingModelRow | null = null;
  private disabled = false;
  unavailableError: QuireErrorShape | null = null;

  constructor(
    private readonly db: Db,
    private readonly request: EmbeddingRequest,
    private readonly signal?: AbortSignal,
  ) {}

  get enabled(): boolean {
    return !this.disabled;
  }

  /** Whether Ollama has already been asked about the model in this run. */
  get resolved(): boolean {
    return this.instance !== null;
  }

  get inFlight(): number {
    return this.request.inFlight ?? SETTINGS.embedBatchesInFlight.fallback;
  }

  get requestCount(): number {
    return this.instance?.requestCount ?? 0;
  }

  disable(): void {
    this.disabled = true;
  }

  /** The embedder, or null once embedding is off for this run. Throws the first resolution failure once. */
  async embedder(): Promise<Embedder | null> {
    if (this.disabled) return null;
    this.resolving ??= Embedder.resolve(this.request.gateway, this.request.model, {
      fresh: true,
      ...(this.request.batchSize ? { batchSize: this.request.batchSize } : {}),
      ...(this.signal ? { signal: this.signal } : {}),
    }).then(async (embedder) => {
      await countEmbeddingInputs(this.request.tokens ?? sharedModelTokens(this.request.gateway), embedder, this.signal);
      return embedder;
    });
    try {
      this.instance = await this.resolving;
      return this.instance;
    } catch (e) {
      const shape = toErrorShape(e);
      if (shape.code !== 'CANCELLED') {
        this.unavailableError = shape;
        this.disabled = true;
      }
      throw e;
    }
  }

  /** The table row for the model as it answered; known once a first vector has come back. */
  modelRow(): EmbeddingModelRow {
    if (this.row) return this.row;
    const identity = this.instance?.identity;
    if (!identity) throw new Error('modelRow() before any embedding response');
    this.row = ensureEmbeddingModel(this.db, identity);
    return this.row;
  }

  /**
   * Makes this run's model the one searches use, once it covers every document with text — or
   * when no model is active at all. An interrupted switch leaves the old, complete model in use.
   */
  activateIfComplete(): void {
    if (!this.row) return;
    const active = getActiveEmbeddingModel(this.db);
    if (active?.id === this.row.id) return;
    // The person chose another model while this run went on: it must not take over searches.
    if (active !== null && this.request.chosen && withTag(this.request.chosen()) !== this.row.name) return;
    const missing = documentsMissingVectors(this.db, this.row.id).length;
    if (active === null || missing === 0) activateEmbeddingModel(this.db, this.row);
  }

  /** Embeds the stored chunks of every ready document lacking vectors for this model. Returns chunks embedded. */
  async embedMissing(filter: { collectionId?: string } = {}, onDocument?: () => void): Promise<number> {
    const embedder = await this.embedder();
    if (!embedder) return 0;
    const known = this.db
      .prepare('SELECT id FROM embedding_models WHERE name = ? AND digest = ?')
      .pluck()
      .get(embedder.name, embedder.digest) as number | undefined;
    const docIds = documentsMissingVectors(this.db, known ?? -1, filter.collectionId);
    if (docIds.length === 0) {
      // Nothing missing for the version Ollama serves now (the documents that lacked it were
      // forgotten, say): that version, not another stored one, completes the switch.
      this.row ??= listEmbeddingModels(this.db).find((m) => m.id === known) ?? null;
      this.activateIfComplete();
      return 0;
    }

    const chunksOf = this.db.prepare('SELECT rowid, heading_path, text FROM chunks WHERE document_id = ? ORDER BY ordinal');
    const queue = new EmbedQueue<{ id: string; rowids: number[] }>(embedder, this.signal, this.inFlight);
    let embedded = 0;
    const write = (done: Array<{ payload: { id: string; rowids: number[] }; vectors: Float32Array[] }>) => {
      for (const d of done) {
        this.signal?.throwIfAborted();
        if (writeDocumentVectors(this.db, d.payload.id, this.modelRow(), d.payload.rowids, d.vectors)) {
          embedded += d.vectors.length;
          onDocument?.();
        }
      }
    };
    try {
      for (const id of docIds) {
        const rows = chunksOf.all(id) as ChunkRow[];
        const inputs = rows.map((r) => embeddingInput({ headingPath: r.heading_path, text: r.text }));
        write(await queue.add({ id, rowids: rows.map((r) => r.rowid) }, inputs));
      }
      write(await queue.drain());
    } catch (e) {
      // Documents whose vectors all came back before the failure are kept, as one request at a time kept them.
      if (!this.signal?.aborted) write(queue.abandon().flatMap((d) => (d.vectors ? [{ payload: d.payload, vectors: d.vectors }] : [])));
      throw e;
    }
    this.activateIfComplete();
    return embedded;
  }
}

interface ChunkRow {
  rowid: number;
  heading_path: string;
  text: string;
}

/**
 * Whether any document with text lacks vectors from every version of this model name. Answerable
 * without Ollama, so an unchanged folder never costs an Ollama round trip. (A re-pulled model
 * with a new digest is found by asking Ollama, which `quire embed` does.)
 */
export function hasMissingVectors(db: Db, model: string, collectionId?: string): boolean {
  return countDocumentsMissingModel(db, withTag(model), { ...(collectionId ? { collectionId } : {}), limit: 1 }) > 0;
}
