import { QuireError } from '../../../shared/errors';
import { unreachableSentence, type HostSource } from '../../../shared/ollama-state';

/** What went wrong talking to Ollama, as one of our codes, with a sentence a person can act on. */
export function mapOllamaError(e: unknown, context: { host: string; hostSource?: HostSource | undefined; model?: string; timeoutMs?: number }): QuireError {
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
        `The server at ${context.host} refused the request (${err.status_code}${message ? `: ${brief(message)}` : ''}). If a proxy guards it, check the Ollama request headers (Settings, QUIRE_OLLAMA_HEADERS or --ollama-header).`,
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
    // A TLS-terminating proxy's port asked in plain HTTP: Go's servers (Caddy, Traefik) and nginx say so in a 400.
    if (err.status_code === 400 && /HTTP request to an HTTPS server|plain HTTP request was sent to HTTPS port/i.test(message)) {
      return new QuireError('OLLAMA_ERROR', `The server at ${context.host} speaks HTTPS, not plain HTTP: use https:// in the Ollama host.`, { cause: e });
    }
    return new QuireError('OLLAMA_ERROR', `Ollama answered ${err.status_code}: ${brief(message)}`, { cause: e });
  }
  // Before "unreachable": a TLS failure also surfaces as "fetch failed", but starting Ollama or
  // trying again cannot fix a certificate, and the person needs to know which one is wrong.
  const tls = tlsProblem(e, context.host);
  if (tls) return new QuireError('OLLAMA_ERROR', tls, { cause: e });
  if (isConnectionError(e)) {
    return new QuireError('OLLAMA_UNREACHABLE', unreachableSentence(context.host, context.hostSource), { cause: e });
  }
  return new QuireError('OLLAMA_ERROR', `Talking to Ollama failed: ${err?.message ?? String(e)}`, { cause: e });
}

/** Node's (OpenSSL's) codes for a certificate this computer does not trust. */
const UNTRUSTED_CERT = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** A sentence for a failed TLS handshake, or null when the failure was something else. */
function tlsProblem(e: unknown, host: string): string | null {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const c = cur as { code?: string; message?: string; cause?: unknown };
    const code = c.code ?? '';
    if (UNTRUSTED_CERT.has(code)) {
      return `The server at ${host} presented a certificate this computer does not trust (${c.message ?? code}). If your team's server uses its own certificate authority, start Quire with NODE_EXTRA_CA_CERTS set to that authority's certificate (a .pem file).`;
    }
    if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
      return `The certificate of the server at ${host} is ${code === 'CERT_HAS_EXPIRED' ? 'out of date' : 'not valid yet'}: ask whoever runs it to renew it, or check this computer's date and time.`;
    }
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
      return `The server at ${host} presented a certificate for another name (${c.message ?? code}). Use the name the certificate is for in the Ollama host.`;
    }
    if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(c.message ?? '')) {
      return `The server at ${host} does not answer HTTPS. If it serves plain HTTP, use http:// in the Ollama host.`;
    }
    cur = c.cause;
  }
  return null;
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

/**
 * An answer's body as a short sentence: a proxy's HTML error page as its text (its style and script
 * are not text), at most 200 characters. Only what is shaped like a tag is dropped: Ollama's own
 * sentences may hold a "<" or ">" (a bound, a template's error).
 */
function brief(body: string): string {
  const text = body
    .replace(/<(style|script)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<\/?[a-z!][^<>]*>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
