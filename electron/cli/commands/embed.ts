import { toErrorShape } from '../../../shared/errors';
import { EmbeddingSession, hasMissingVectors } from '../../core/ingest/embedding-session';
import { numberFlag } from '../args';
import { embedModel, type CliContext } from '../context';

/** Fills in vectors for documents that lack them for the chosen model, from stored chunks (no file is re-read). */
export async function embedCommand(ctx: CliContext, flags: { model?: string | undefined; batch?: string | undefined }): Promise<number> {
  const started = performance.now();
  const model = embedModel(ctx, flags.model);
  const session = new EmbeddingSession(ctx.db, { gateway: ctx.gateway, model, ...(flags.batch !== undefined ? { batchSize: numberFlag('batch', flags.batch, { min: 1, max: 4096 })! } : {}) }, ctx.signal);
  let documents = 0;
  let embedded: number;
  try {
    embedded = await session.embedMissing({}, () => {
      documents++;
      ctx.out.progress(0, `${documents} documents embedded`);
    });
  } catch (e) {
    // Ollama is needed only if something lacks vectors; say so plainly otherwise.
    if (toErrorShape(e).code === 'OLLAMA_UNREACHABLE' && !hasMissingVectors(ctx.db, model)) {
      ctx.out.note(`Ollama is not reachable, so a newer version of ${model} could not be checked for.`);
      embedded = 0;
    } else {
      throw e;
    }
  }
  const result = { model, documents, embedded, embedRequests: session.requestCount, ms: Math.round(performance.now() - started) };
  ctx.out.result(result, () =>
    embedded === 0 ? `Nothing to embed: every document already has vectors for ${model}.` : `Embedded ${embedded} chunks of ${documents} documents with ${model} in ${result.embedRequests} requests (${(result.ms / 1000).toFixed(1)} s).`,
  );
  return 0;
}
