/**
 * Browser mode: the renderer and the contract's API served over loopback HTTP, for machines where
 * the Electron runtime cannot be installed and for end-to-end tests in headless Chromium.
 *
 * The server listens on 127.0.0.1 only and every API call needs a random token. The token reaches
 * the page in the URL fragment (`http://127.0.0.1:PORT/#token=TOKEN`), which browsers never send to
 * the server; the renderer reads it from `location.hash`.
 *
 * ## Protocol (what the renderer's HTTP transport implements)
 *
 * Checks applied to every request, in this order:
 * 1. `Host` must be `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT`, else 403 (DNS rebinding).
 * 2. A POST, and any request that carries an `Origin` header, must have `Origin` equal to the
 *    served origin `http://<that Host>` (e.g. `http://127.0.0.1:PORT`), else 403 (no cross-site
 *    calls; there is no CORS, so preflights are refused too). Browsers send `Origin` on every POST,
 *    same-origin fetches included; non-browser clients must set it themselves.
 * 3. Every `/api/*` request must carry the token, else 401 — compared in constant time.
 * 4. At most `rateLimit.burst` API requests at once, refilled at `rateLimit.perSecond` (200 and
 *    50/s by default), else 429 with `Retry-After` (rate-limit.ts).
 *
 * Calls:
 *   POST /api/<method>
 *     Authorization: Bearer <token>
 *     Content-Type: application/json            (charset, if given, must be utf-8; else 415)
 *     Origin: http://127.0.0.1:PORT
 *     body: the method's input as JSON, at most 1 MiB (else 413); an empty body means {}
 *   → always JSON, `Cache-Control: no-store`, body one of
 *       {"ok":true,"value":<the method's output>}
 *       {"ok":false,"error":{"code":"...","message":"..."}}
 *     with status
 *       200  ok:true, and also ok:false for the engine's own refusals (OLLAMA_UNREACHABLE,
 *            NOT_A_FOLDER, COLLECTION_NOT_FOUND, CANCELLED, ... — every code not listed below):
 *            the call went through and the answer is an error value
 *       400  INVALID_ARGUMENT  input failed the method's schema, or the body is not valid JSON
 *       401  UNAUTHORIZED      missing or wrong token
 *       403  FORBIDDEN         bad Host or Origin
 *       404  NOT_FOUND         no such method (or any other /api path)
 *       405  METHOD_NOT_ALLOWED  wrong HTTP verb (`Allow` says which)
 *       413  TOO_LARGE         body over 1 MiB
 *       415  UNSUPPORTED_MEDIA_TYPE  Content-Type is not application/json
 *       429  TOO_MANY_REQUESTS over the rate limit (`Retry-After` in seconds)
 *       500  INTERNAL          the engine failed unexpectedly: a generic sentence; the details go
 *                              only to the server's log (stderr), never to the client
 *     A client should read the body whatever the status and throw ApiError(code, message) when
 *     ok is false.
 *
 * Events:
 *   GET /api/events?token=<token>   (EventSource cannot set headers; `Authorization: Bearer` works too)
 *   → `text/event-stream`: first `retry: 2000` and a `: connected` comment, then one
 *     `id: <n>\ndata: <ApiEvent JSON>\n\n` message per event the engine emits (no `event:`
 *     field, so `EventSource.onmessage` receives them all), and a `: ping` comment every 15 s.
 *     Every connected client receives every event. At most 8 streams are open at once (one token
 *     serves one person's tabs); a ninth closes the oldest. A client that reconnects with the last id it
 *     saw (the `Last-Event-ID` header, which EventSource sends by itself, or `?lastEventId=`) first
 *     gets the events it missed, from the last 5,000 kept; if it missed more than that, an
 *     `events.gap` event says so and it should reload state with `status`/`library`.
 *
 * Everything else is static: GET/HEAD serve files from `staticDir` (`index.html` for `/` and for
 * unknown paths without an extension, so client-side routes work). Paths go through the guard the
 * desktop shell's app:// protocol uses too (electron/core/static/static-file-guard.ts): a path it
 * refuses answers 400, a file that escapes staticDir through a symlink 404. Directories are never
 * listed. If staticDir has no index.html, `/` answers 503 with a page saying the renderer is not
 * built.
 *
 * Every response carries a strict Content-Security-Policy, `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer` and `X-Frame-Options: DENY`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { API, type ApiEvent } from '../../shared/contract';
import type { Engine } from '../core/engine';
import { CONTENT_SECURITY_POLICY, contentTypeFor, guardStaticPath } from '../core/static';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limit';

export interface BrowserModeOptions {
  /** The engine to serve (its owner closes it after the server). */
  engine: Engine;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Random (32 bytes, base64url) unless given. */
  token?: string;
  /** Interval of the SSE `: ping` comment; 15 s unless given (tests shorten it). */
  pingMs?: number;
  /** How many events are kept for clients that reconnect; 5,000 unless given (tests shorten it). */
  replayEvents?: number;
  /** Event streams open at once before the oldest is closed; 8 unless given. */
  maxEventStreams?: number;
  /** The API's request rate; DEFAULT_RATE_LIMIT unless given. */
  rateLimit?: RateLimit;
  /** Where an unexpected failure's details go (never to the client); stderr unless given. */
  log?: (line: string) => void;
}

export interface BrowserMode {
  /** What to open: http://127.0.0.1:PORT/#token=TOKEN */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export const MAX_BODY_BYTES = 1024 * 1024;
const PING_MS = 15_000;
const SSE_RETRY_MS = 2000;
/** A client this far behind on events is dropped rather than buffered without bound. */
const SSE_MAX_BACKLOG = 16 * 1024 * 1024;
/** Events kept for clients that reconnect (an answer streams one event per token, so be generous). */
const SSE_REPLAY_EVENTS = 5000;
/** Open event streams per server (its one token): a person's few tabs, not a program's thousands. */
const SSE_MAX_STREAMS = 8;
/** What a client is told when the engine fails unexpectedly; the details are logged. */
export const INTERNAL_ERROR_SENTENCE = 'Quire hit an unexpected error. The details are in the log of the terminal that started it.';
/** A message, not a comment, so EventSource delivers it; no id, so the client's last id stays. */
const GAP_FRAME = `data: ${JSON.stringify({ type: 'events.gap' } satisfies ApiEvent)}\n\n`;

export { CONTENT_SECURITY_POLICY };

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Quire — renderer not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}code{background:#eee;padding:.1em .3em}</style>
</head><body>
<h1>The Quire renderer is not built</h1>
<p>The server is running, but there is no <code>index.html</code> to serve yet.</p>
<p>Stop this server and start it with <code>npm run serve</code>, which builds the renderer first.</p>
</body></html>
`;

type ErrorBody = { ok: false; error: { code: string; message: string } };

/** Status of an error body coming back from the dispatcher. */
export function statusForCode(code: string): number {
  switch (code) {
    case 'INVALID_ARGUMENT':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'TOO_MANY_REQUESTS':
      return 429;
    case 'INTERNAL':
      return 500;
    default:
      return 200;
  }
}

/** Constant-time comparison of a presented token with the real one (hashing first evens out lengths). */
export function tokenMatches(presented: string | null | undefined, token: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

function regularFile(file: string): string | null {
  try {
    return fs.statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export async function startBrowserMode(opts: BrowserModeOptions): Promise<BrowserMode> {
  const token = opts.token ?? randomBytes(32).toString('base64url');
  if (token.length < 16) throw new Error('The browser-mode token must be at least 16 characters.');
  const staticDir = path.resolve(opts.staticDir);
  const pingMs = opts.pingMs ?? PING_MS;
  const replayEvents = opts.replayEvents ?? SSE_REPLAY_EVENTS;
  const maxStreams = opts.maxEventStreams ?? SSE_MAX_STREAMS;
  const limiter = createRateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMIT);
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));

  const clients = new Set<http.ServerResponse>();
  let closed = false;

  // Recent frames by id, oldest first, so a client that reconnects misses nothing.
  const recent: Array<{ id: number; frame: string }> = [];
  let lastId = 0;

  const emit = (event: ApiEvent) => {
    if (closed) return;
    const id = ++lastId;
    const frame = `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;
    recent.push({ id, frame });
    if (recent.length > replayEvents) recent.shift();
    for (const res of clients) {
      if (res.writableLength > SSE_MAX_BACKLOG) {
        clients.delete(res);
        res.destroy();
        continue;
      }
      res.write(frame);
    }
  };

  const unsubscribe = opts.engine.onEvent(emit);

  const ping = setInterval(() => {
    for (const res of clients) res.write(': ping\n\n');
  }, pingMs);
  ping.unref();

  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);

  function baseHeaders(res: http.ServerResponse): void {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  }

  function sendJson(res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-store',
      ...extra,
    });
    res.end(text);
  }

  function sendApiError(res: http.ServerResponse, code: string, message: string, extra: Record<string, string> = {}): void {
    if (code === 'INTERNAL') {
      log(`Quire (browser mode): internal error: ${message}`);
      message = INTERNAL_ERROR_SENTENCE;
    }
    const body: ErrorBody = { ok: false, error: { code, message } };
    sendJson(res, statusForCode(code), body, extra);
  }

  function sendText(res: http.ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
    res.writeHead(status, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-store',
      ...extra,
    });
    res.end(text);
  }

  /** Reads the body up to the limit; null when it was too large (the response is then sent). */
  function readBody(req: http.IncomingMessage, res: http.ServerResponse): Promise<Buffer | null> {
    return new Promise((resolve, reject) => {
      const declared = Number(req.headers['content-length']);
      const tooLarge = () => {
        sendApiError(res, 'TOO_LARGE', `The request body is over ${MAX_BODY_BYTES} bytes.`, { Connection: 'close' });
        res.once('finish', () => req.destroy());
        resolve(null);
      };
      if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      req.on('data', (chunk: Buffer) => {
        if (done) return;
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          done = true;
          req.pause();
          tooLarge();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (!done) {
          done = true;
          resolve(Buffer.concat(chunks));
        }
      });
      req.on('error', (e) => {
        if (!done) {
          done = true;
          reject(e);
        }
      });
    });
  }

  function openEvents(req: http.IncomingMessage, res: http.ServerResponse, query: URLSearchParams): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(`retry: ${SSE_RETRY_MS}\n\n: connected\n\n`);
    const seen = Number(firstHeader(req.headers['last-event-id']) ?? query.get('lastEventId') ?? Number.NaN);
    if (Number.isInteger(seen) && seen >= 0 && seen < lastId) {
      const oldest = recent[0]?.id ?? lastId + 1;
      if (seen + 1 < oldest) res.write(GAP_FRAME);
      for (const r of recent) if (r.id > seen) res.write(r.frame);
    } else if (Number.isInteger(seen) && seen > lastId) {
      res.write(GAP_FRAME); // an id from before this server started
    }
    req.socket.setKeepAlive(true);
    req.socket.setNoDelay(true);
    // Sets iterate in insertion order: the first is the oldest stream.
    for (const old of clients) {
      if (clients.size < maxStreams) break;
      clients.delete(old);
      old.end();
    }
    clients.add(res);
    const drop = () => clients.delete(res);
    req.on('close', drop);
    res.on('close', drop);
    res.on('error', drop);
  }

  async function handleApi(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, query: URLSearchParams): Promise<void> {
    if (!limiter.take()) {
      sendApiError(res, 'TOO_MANY_REQUESTS', 'Too many requests to Quire at once; try again in a moment.', { 'Retry-After': '1' });
      return;
    }
    const auth = firstHeader(req.headers.authorization);
    const bearer = auth && /^Bearer /i.test(auth) ? auth.slice(7).trim() : null;
    const isEvents = pathname === '/api/events';
    const presented = bearer ?? (isEvents ? query.get('token') : null);
    if (!tokenMatches(presented, token)) {
      sendApiError(res, 'UNAUTHORIZED', 'This request needs the token from the address Quire printed when it started.', { 'WWW-Authenticate': 'Bearer' });
      return;
    }

    if (isEvents) {
      if (req.method !== 'GET') return sendApiError(res, 'METHOD_NOT_ALLOWED', 'Use GET for /api/events.', { Allow: 'GET' });
      return openEvents(req, res, query);
    }

    const name = pathname.slice('/api/'.length);
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name) || !Object.hasOwn(API, name)) {
      sendApiError(res, 'NOT_FOUND', `There is no API method called "${name.slice(0, 100)}".`);
      return;
    }
    if (req.method !== 'POST') return sendApiError(res, 'METHOD_NOT_ALLOWED', `Use POST for /api/${name}.`, { Allow: 'POST' });

    const contentType = firstHeader(req.headers['content-type']) ?? '';
    if (!isJsonContentType(contentType)) {
      sendApiError(res, 'UNSUPPORTED_MEDIA_TYPE', 'API calls must be sent as Content-Type: application/json.');
      return;
    }

    const body = await readBody(req, res);
    if (body === null) return;
    let input: unknown = {};
    const text = body.toString('utf8');
    if (text.trim() !== '') {
      try {
        input = JSON.parse(text);
      } catch {
        sendApiError(res, 'INVALID_ARGUMENT', `The body of ${name} is not valid JSON.`);
        return;
      }
    }

    const result = await opts.engine.dispatch(name, input);
    if (result.ok) sendJson(res, 200, { ok: true, value: result.value });
    else sendApiError(res, result.error.code, result.error.message);
  }

  function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, rawPath: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'Method not allowed.\n', { Allow: 'GET, HEAD' });
      return;
    }
    const guarded = guardStaticPath(staticDir, rawPath);
    if (!('rel' in guarded)) {
      sendText(res, 400, 'Bad path.\n');
      return;
    }
    let file = guarded.ok && guarded.rel !== '' ? regularFile(guarded.file) : null;
    if (!file && path.posix.extname(guarded.rel) === '') {
      // The SPA's own routes (and `/`) get index.html.
      const index = guardStaticPath(staticDir, '/index.html');
      file = index.ok ? regularFile(index.file) : null;
      if (!file) {
        res.writeHead(503, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(NOT_BUILT_PAGE) });
        res.end(req.method === 'HEAD' ? undefined : NOT_BUILT_PAGE);
        return;
      }
    }
    if (!file) {
      sendText(res, 404, 'Not found.\n');
      return;
    }
    sendFile(req, res, file);
  }

  function sendFile(req: http.IncomingMessage, res: http.ServerResponse, file: string): void {
    let fd: number;
    let size: number;
    try {
      fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
      const st = fs.fstatSync(fd);
      if (!st.isFile()) {
        fs.closeSync(fd);
        sendText(res, 404, 'Not found.\n');
        return;
      }
      size = st.size;
    } catch {
      sendText(res, 404, 'Not found.\n');
      return;
    }
    res.writeHead(200, {
      'Content-Type': contentTypeFor(file),
      'Content-Length': size,
      // Local and rebuilt at will: always revalidate.
      'Cache-Control': 'no-cache',
    });
    if (req.method === 'HEAD') {
      fs.closeSync(fd);
      res.end();
      return;
    }
    const stream = fs.createReadStream('', { fd, autoClose: true });
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    baseHeaders(res);
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
    const isApi = rawPath === '/api' || rawPath.startsWith('/api/');
    const refuse = (code: 'FORBIDDEN', message: string) => (isApi ? sendApiError(res, code, message) : sendText(res, 403, `${message}\n`));

    const host = (firstHeader(req.headers.host) ?? '').toLowerCase();
    if (!allowedHosts().has(host)) return refuse('FORBIDDEN', 'This server only answers requests addressed to 127.0.0.1 or localhost.');
    const origin = firstHeader(req.headers.origin);
    if ((req.method === 'POST' || origin !== undefined) && origin !== `http://${host}`) {
      return refuse('FORBIDDEN', 'Cross-origin requests are not allowed.');
    }
    if (!rawPath.startsWith('/')) return sendText(res, 400, 'Bad path.\n');

    if (isApi) return handleApi(req, res, rawPath, query);
    serveStatic(req, res, rawPath);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendApiError(res, 'INTERNAL', e instanceof Error ? e.message : String(e));
      else res.destroy();
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: opts.port ?? 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((e: unknown) => {
    clearInterval(ping);
    unsubscribe();
    throw e;
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The browser-mode server has no TCP address.');
  port = address.port;
  const origin = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    port,
    token,
    close() {
      closing ??= (async () => {
        closed = true;
        clearInterval(ping);
        for (const res of clients) res.end();
        clients.clear();
        unsubscribe();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

function isJsonContentType(value: string): boolean {
  const [type, ...params] = value.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  for (const p of params) {
    const [k, v] = p.split('=').map((s) => s.trim());
    if (k === 'charset' && v?.replace(/"/g, '') !== 'utf-8') return false;
  }
  return true;
}
