import { QuireError } from '../../../shared/errors';

/** What went wrong talking to Ollama, as one of our codes, with a sentence a person can act on. */
export function mapOllamaError(e: unknown, context: { host: string; model?: string; timeoutMs?: number }): QuireError {
  if (e instanceof QuireError) return e;
  const err = e as { name?: string; message?: string; status_code?: number; cause?: { code?: string } };
  if (err?.name === 'TimeoutError') {
    return new QuireError('OLLAMA_TIMEOUT', `Ollama at ${context.host} did not answer within ${Math.round((context.timeoutMs ?? 0) / 1000)} s.`, { cause: e });
  }
  if (err?.name === 'AbortError') return new QuireError('CANCELLED', 'Cancelled.', { cause: e });
  if (typeof err?.status_code === 'number') {
    const message = err.message ?? '';
    // A reverse proxy in front of a shared Ollama: the fix is the headers, whose values we never repeat.
    if (err.status_code === 401 || err.status_code === 403) {
      return new QuireError(
        'OLLAMA_ERROR',
        `The server at ${context.host} refused the request (${err.status_code}${message ? `: ${message.slice(0, 200)}` : ''}). If a proxy guards it, check the Ollama request headers (Settings, QUIRE_OLLAMA_HEADERS or --ollama-header).`,
        { cause: e },
      );
    }
    if (err.status_code === 404 || /not found/i.test(message)) {
      const model = context.model ?? 'the model';
      return new QuireError('MODEL_NOT_FOUND', `Ollama does not have ${model}. Pull it with: ollama pull ${context.model ?? '<model>'}`, { cause: e });
    }
    // Asked not to truncate, Ollama refuses an input longer than the model's context (routes.go EmbedHandler).
    if (err.status_code === 400 && /exceeds (the )?(maximum )?context length/i.test(message)) {
      return new QuireError('INPUT_TOO_LONG', `${context.model ?? 'The model'} cannot read that much text at once (Ollama: ${message}).`, { cause: e });
    }
    return new QuireError('OLLAMA_ERROR', `Ollama answered ${err.status_code}: ${message}`, { cause: e });
  }
  if (isConnectionError(e)) {
    return new QuireError('OLLAMA_UNREACHABLE', `Ollama is not reachable at ${context.host}. Start it with "ollama serve", or set OLLAMA_HOST.`, { cause: e });
  }
  return new QuireError('OLLAMA_ERROR', `Talking to Ollama failed: ${err?.message ?? String(e)}`, { cause: e });
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

function isConnectionError(e: unknown): boolean {
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 4; depth++) {
    const c = cur as { code?: string; message?: string; cause?: unknown };
    if (c.code && CONNECTION_CODES.has(c.code)) return true;
    if (typeof c.message === 'string' && /fetch failed|socket hang up|other side closed/i.test(c.message)) return true;
    cur = c.cause;
  }
  return false;
}

/** Worth trying again: the server was unreachable, slow, or failed on its side. */
export function isRetryable(e: QuireError): boolean {
  if (e.code === 'OLLAMA_UNREACHABLE' || e.code === 'OLLAMA_TIMEOUT') return true;
  const status = (e.cause as { status_code?: number } | undefined)?.status_code;
  return e.code === 'OLLAMA_ERROR' && typeof status === 'number' && status >= 500;
}
