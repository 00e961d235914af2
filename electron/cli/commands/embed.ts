import { plural } from '../../../shared/plural';
import { contractInput, numberFlag } from '../args';
import { rememberModel, settleVectorSearch, type CliContext } from '../context';

/** Fills in vectors for documents that lack them for the chosen model, from stored chunks (no file is re-read). */
export async function embedCommand(ctx: CliContext, flags: { model?: string | undefined; batch?: string | undefined }): Promise<number> {
  const started = performance.now();
  const input = contractInput('embedMissing', { batch: numberFlag('batch', flags.batch) }, { batch: '--batch' });
  await rememberModel(ctx, 'embedModel', flags.model);
  const outcome = await ctx.engine.embedMissing(input, {
    signal: ctx.signal,
    onProgress: ({ documents }) => ctx.out.progress(0, `${plural(documents, 'document')} embedded`),
  });
  await settleVectorSearch(ctx);
  const { model, documents, chunks: embedded, requests } = outcome;
  const result = { model, documents, embedded, embedRequests: requests, ms: Math.round(performance.now() - started) };
  ctx.out.result(result, () =>
    embedded === 0 ? `Nothing to embed: every document already has vectors for ${model}.` : `Embedded ${plural(embedded, 'chunk')} of ${plural(documents, 'document')} with ${model} in ${plural(result.embedRequests, 'request')} (${(result.ms / 1000).toFixed(1)} s).`,
  );
  return 0;
}
