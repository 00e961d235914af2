import { toErrorShape } from '../../../shared/errors';
import type { SetupVerify } from '../../../shared/setup';
import { completeChat } from '../ollama/chat';
import type { OllamaGateway } from '../ollama/gateway';

/** The check's own words: short, in any language a model reads, and answerable in a few tokens. */
const EMBED_TEXT = 'Quire checks that search by meaning works.';
const QUESTION = 'Reply with one short sentence saying you are ready.';
/** Enough for a sentence: the check is that words come, not what they say. */
const REPLY_TOKENS = 32;

/**
 * One embedding and one short answer with the models Settings name, through the gateway the app
 * uses, each timed; a failure is its { code, message }, and one does not stop the other. The
 * first call to a model also loads it, which the time includes (what the first question will wait).
 */
export async function verifySetup(gateway: OllamaGateway, models: { chatModel: string; embedModel: string }, signal?: AbortSignal): Promise<SetupVerify> {
  // One quick retry, not seconds of backoff against an Ollama that is down; loading a model may take long, so the timeout stays.
  const g = gateway.withOptions({ retries: 1, backoffMs: 100 });
  const embedding = await timed(signal, async () => (await g.embed(models.embedModel, [EMBED_TEXT], signal))[0]!.length);
  const chat = await timed(signal, async () => {
    const r = await completeChat(g, models.chatModel, [{ role: 'user', content: QUESTION }], { numCtx: 2048, temperature: 0, seed: 1, numPredict: REPLY_TOKENS }, signal);
    return r.content.trim();
  });
  return {
    embedding: { model: models.embedModel, ok: embedding.error === null, ms: embedding.ms, error: embedding.error, dimension: embedding.value },
    chat: { model: models.chatModel, ok: chat.error === null, ms: chat.ms, error: chat.error, reply: chat.value },
  };
}

async function timed<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<{ value: T | null; ms: number; error: { code: string; message: string } | null }> {
  const started = performance.now();
  try {
    const value = await run();
    return { value, ms: Math.round(performance.now() - started), error: null };
  } catch (e) {
    // Cancelled is not a failed check: the caller stops.
    if (signal?.aborted) throw e;
    return { value: null, ms: Math.round(performance.now() - started), error: toErrorShape(e) };
  }
}
