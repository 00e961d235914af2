import { setTimeout as sleep } from 'node:timers/promises';
import { toErrorShape } from '../../../shared/errors';
import { ollamaNotRunning } from '../../../shared/ollama-state';
import type { Output } from '../../../shared/contract';
import type { OllamaGateway } from './gateway';
import { isLoopbackHost } from './host';

/** As the contract's status carries it. */
export type OllamaState = Output<'status'>['ollama'];

/** Whether Ollama answers at the gateway's host, as the status bar and `quire status` both say it. */
export async function ollamaState(g: OllamaGateway): Promise<OllamaState> {
  let version: string | null = null;
  let error: { code: string; message: string } | null = null;
  try {
    // The gateway's own timeout, not an aborting signal: a server that hangs is OLLAMA_TIMEOUT, not a cancellation.
    version = await g.withOptions({ timeoutMs: 2000, retries: 0 }).version();
  } catch (e) {
    error = toErrorShape(e);
  }
  return { host: g.host, connected: version !== null, version, error: error?.message ?? null, errorCode: error?.code ?? null, remote: !isLoopbackHost(g.host), headers: [...g.headerNames], ...(g.hostSource ? { hostSource: g.hostSource } : {}) };
}

/**
 * Whether Ollama has gone away rather than blinked, asked after a request failed as unreachable
 * (past the gateway's own quick retry): it is still not running, and again `pauseMs` later (an
 * Ollama being restarted may be back by then). A slow or refusing Ollama is not gone. Long work (an
 * evaluation) then stops instead of failing every request left, one by one.
 */
export async function ollamaGone(g: OllamaGateway, pauseMs = 1000, signal?: AbortSignal): Promise<boolean> {
  if (!ollamaNotRunning(await ollamaState(g))) return false;
  await sleep(pauseMs, undefined, signal ? { signal } : {});
  return ollamaNotRunning(await ollamaState(g));
}

/**
 * Whether Ollama has stopped answering rather than been slow, asked after a request timed out
 * (past the gateway's own retry): its cheapest request, the version, gets no answer within
 * `checkMs` either ('timeout'). A slow model that answers in the end, or one request stuck while
 * Ollama still answers, is not that (null). An Ollama that refuses the check instead (being
 * restarted, or gone) is 'unreachable', for the caller to treat as such (ollamaGone), not as a hang.
 * Long work (an evaluation) then stops instead of waiting out every request left.
 */
export async function ollamaNotAnswering(g: OllamaGateway, checkMs = 5000, signal?: AbortSignal): Promise<'timeout' | 'unreachable' | null> {
  try {
    await g.withOptions({ timeoutMs: checkMs, retries: 0 }).version(signal);
    return null;
  } catch (e) {
    if (signal?.aborted) throw e;
    const code = toErrorShape(e).code;
    return code === 'OLLAMA_TIMEOUT' ? 'timeout' : code === 'OLLAMA_UNREACHABLE' ? 'unreachable' : null;
  }
}
