import type { QuireErrorShape } from '../../../shared/errors';
import { toErrorShape } from '../../../shared/errors';
import { activateEmbeddingModel, ensureEmbeddingModel, type EmbeddingModelRow } from '../db/embedding-models';
import { writeDocumentVectors } from '../db/documents';
import type { Db } from '../db/open';
import { Embedder } from '../ollama/embedder';
import type { OllamaGateway } from '../ollama/gateway';
import { contextualText } from './chunkers/index';
import { EmbedQueue } from './embed-queue';

export interface EmbeddingRequest {
  gateway: OllamaGateway;
  model: string;
  batchSize?: number;
}

/**
 * One run's use of one embedding model. The model is resolved lazily, so a run with nothing to
 * embed asks Ollama nothing; the first failure to reach it turns embedding off for the rest of
 * the run instead of failing every file in turn.
 */
export class EmbeddingSession {
  private resolved: Promise<Embedder> | null = null;
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

  get requestCount(): number {
    return this.instance?.requestCount ?? 0;
  }

  disable(): void {
    this.disabled = true;
  }

  /** The embedder, or null once embedding is off for this run. Throws the first resolution failure once. */
  async embedder(): Promise<Embedder | null> {
    if (this.disabled) return null;
    this.resolved ??= Embedder.resolve(this.request.gateway, this.request.model, {
      ...(this.request.batchSize ? { batchSize: this.request.batchSize } : {}),
      ...(this.signal ? { signal: this.signal } : {}),
    });
    try {
      this.instance = await this.resolved;
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
    activateEmbeddingModel(this.db, this.row);
    return this.row;
  }

  /** Embeds the stored chunks of every ready document lacking vectors for this model. Returns chunks embedded. */
  async embedMissing(filter: { collectionId?: string } = {}, onDocument?: () => void): Promise<number> {
    const embedder = await this.embedder();
    if (!embedder) return 0;
    const known = this.db
      .prepare('SELECT id FROM embedding_models WHERE name = ? AND digest = ?')
      .pluck()
      .get(embedder.name, embedder.digest) as number | undefined;
    const docIds = this.db
      .prepare(
        `SELECT d.id FROM documents d
          WHERE d.status = 'ready' AND (@collection IS NULL OR d.collection_id = @collection)
            AND EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id)
            AND NOT EXISTS (SELECT 1 FROM document_embeddings e WHERE e.document_id = d.id AND e.model_id = @model)
          ORDER BY d.collection_id, d.rel_path`,
      )
      .pluck()
      .all({ collection: filter.collectionId ?? null, model: known ?? -1 }) as string[];
    if (docIds.length === 0) return 0;

    const chunksOf = this.db.prepare('SELECT rowid, ordinal, heading_path, text, token_count, start_line, end_line FROM chunks WHERE document_id = ? ORDER BY ordinal');
    const queue = new EmbedQueue<{ id: string; rowids: number[] }>(embedder, this.signal);
    let embedded = 0;
    const write = (done: Array<{ payload: { id: string; rowids: number[] }; vectors: Float32Array[] }>) => {
      for (const d of done) {
        this.signal?.throwIfAborted();
        writeDocumentVectors(this.db, d.payload.id, this.modelRow(), d.payload.rowids, d.vectors);
        embedded += d.vectors.length;
        onDocument?.();
      }
    };
    for (const id of docIds) {
      const rows = chunksOf.all(id) as ChunkRow[];
      const inputs = rows.map((r) => ({
        text: contextualText({ headingPath: r.heading_path, text: r.text }),
        title: r.heading_path,
      }));
      write(await queue.add({ id, rowids: rows.map((r) => r.rowid) }, inputs));
    }
    write(await queue.drain());
    return embedded;
  }
}

interface ChunkRow {
  rowid: number;
  ordinal: number;
  heading_path: string;
  text: string;
  token_count: number;
  start_line: number;
  end_line: number;
}
