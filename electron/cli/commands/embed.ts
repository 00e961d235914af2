import { QuireError } from '../../../shared/errors';
import { EmbeddingSession } from '../../core/ingest/embedding-session';
import { embedModel, type CliContext } from '../context';

/** Fills in vectors for documents that lack them for the chosen model, from stored chunks (no file is re-read). */
export async function embedCommand(ctx: CliContext, flags: { model?: string | undefined; batch?: string | undefined }): Promise<number> {
  const started = performance.now();
  const model = embedModel(ctx, flags.model);
  const session = new EmbeddingSession(ctx.db, { gateway: ctx.gateway, model, ...(flags.batch ? { batchSize: Number(flags.batch) } : {}) }, ctx.signal);
  let documents = 0;
  const embedded = await session.embedMissing({}, () => {
    documents++;
    ctx.out.progress(0, `${documents} documents embedded`);
  });
  if (session.unavailableError) throw new QuireError(session.unavailableError.code, session.unavailableError.message);
  const result = { model, documents, embedded, embedRequests: session.requestCount, ms: Math.round(performance.now() - started) };
  ctx.out.result(result, () =>
    embedded === 0 ? `Nothing to embed: every document already has vectors for ${model}.` : `Embedded ${embedded} chunks of ${documents} documents with ${model} in ${result.embedRequests} requests (${(result.ms / 1000).toFixed(1)} s).`,
  );
  return 0;
}
