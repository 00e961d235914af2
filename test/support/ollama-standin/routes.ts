// The Ollama endpoints. Order of checks and error texts follow Ollama 0.12.6's server/routes.go
// (EmbedHandler, ChatHandler, GenerateHandler, ShowHandler, PullHandler, DeleteHandler), because
// Quire maps errors by status and text and must meet the same ones here as against a real Ollama.
import type http from 'node:http';
import { createHash } from 'node:crypto';
import {
  type ChatMessage, cutFront, fitMessages, limitReply, promptTokens, splitDeltas,
} from './chat.js';
import type { Faults } from './control.js';
import { embedText, l2normalize } from './embed.js';
import {
  HttpError, type Json, keepAliveMs, requireObject, sendJson, sendText, streamNdjson,
} from './http.js';
import {
  type Catalogue, type ModelSpec, canonicalName, details, digestOf, isEmbeddingModel, isValidName,
  showBody, tagsEntry, tokenizerOf,
} from './models.js';

export interface ChatContext {
  /** Canonical model name, e.g. "llama3.2:latest". */
  model: string;
  /** Messages as sent. */
  messages: ChatMessage[];
  /** Messages the "model" actually saw, after silent truncation at num_ctx. */
  kept: ChatMessage[];
  options: Record<string, unknown>;
  body: Record<string, unknown>;
}
export type Responder = (ctx: ChatContext) => string;

export interface StandinState {
  catalogue: Catalogue;
  faults: Faults;
  /** Queued chat replies, taken first-in first-out. */
  scripted: Array<string | Responder>;
  /** What /api/ps reports: canonical name -> expiry and num_ctx. */
  loaded: Map<string, { expiresAt: number; numCtx: number }>;
  version: string;
  defaultNumCtx: number;
  responder: Responder;
}

export type Handler = (res: http.ServerResponse, raw: string) => unknown;

const nowIso = () => new Date().toISOString();
const hr = () => process.hrtime.bigint();

export function createRoutes(state: StandinState): Record<string, Handler> {
  const { catalogue, faults, scripted, loaded, version, defaultNumCtx, responder } = state;
  const stream = (res: http.ServerResponse, lines: Iterable<Json>) => streamNdjson(res, lines, () => faults.streamDelayMs);

  // What a Modelfile's PARAMETER num_ctx or the request asks for, else Ollama's default.
  function numCtxFor(spec: ModelSpec, opts: Json): number {
    const asked = Number(opts.num_ctx ?? spec.parameters?.num_ctx ?? defaultNumCtx);
    return Number.isFinite(asked) && asked > 0 ? Math.floor(asked) : defaultNumCtx;
  }

  function markLoaded(spec: ModelSpec, keepAlive: unknown, numCtx: number): void {
    const ms = keepAliveMs(keepAlive);
    if (ms === 0) loaded.delete(spec.name);
    else loaded.set(spec.name, { expiresAt: Date.now() + Math.min(ms, 100 * 365 * 86_400_000), numCtx });
  }

  function requireModelName(body: Json): string {
    const name = body.model;
    if (typeof name !== 'string' || !name.trim()) throw new HttpError(400, 'model is required');
    return name;
  }

  function requireInstalled(name: string): ModelSpec {
    const spec = catalogue.installed(name);
    if (!spec) throw new HttpError(404, `model '${name}' not found`);
    return spec;
  }

  function tags(): Json {
    return { models: catalogue.list().map(tagsEntry) };
  }

  function show(body: Json): Json {
    const name = typeof body.model === 'string' && body.model ? body.model : body.name;
    if (typeof name !== 'string' || !name) throw new HttpError(400, 'model is required');
    return showBody(requireInstalled(name), body.verbose === true);
  }

  function ps(): Json {
    const now = Date.now();
    const models = [];
    for (const [name, l] of loaded) {
      const spec = catalogue.installed(name);
      if (!spec || l.expiresAt <= now) {
        loaded.delete(name);
        continue;
      }
      models.push({
        name: spec.name, model: spec.name, size: spec.size, digest: digestOf(spec), details: details(spec),
        expires_at: new Date(l.expiresAt).toISOString(), size_vram: spec.size, context_length: l.numCtx,
      });
    }
    return { models };
  }

  async function embed(body: Json, legacy: boolean): Promise<Json> {
    const started = hr();
    const truncate = body.truncate !== false;
    let inputs: string[];
    const raw = legacy ? body.prompt : body.input;
    if (typeof raw === 'string') inputs = raw ? [raw] : [];
    else if (Array.isArray(raw)) {
      if (!raw.every((x) => typeof x === 'string')) throw new HttpError(400, 'invalid input type');
      inputs = raw as string[];
    } else if (raw === undefined || raw === null) inputs = [];
    else throw new HttpError(400, 'invalid input type');

    const name = requireModelName(body);
    const spec = requireInstalled(name);
    const opts = (body.options ?? {}) as Json;
    const numCtx = Math.min(numCtxFor(spec, opts), spec.contextLength);
    markLoaded(spec, body.keep_alive, numCtx);
    const loadNs = Number(hr() - started);
    if (inputs.length === 0) return legacy ? { embedding: [] } : { model: name, embeddings: [] };

    // Ollama 0.12.6 checks lengths before asking the runner for vectors, so an over-long input on
    // a chat model fails on length first.
    const tokenizer = tokenizerOf(spec);
    let count = 0;
    const texts = inputs.map((text) => {
      const n = tokenizer.inputTokens(text);
      if (n <= numCtx) {
        count += n;
        return text;
      }
      if (!truncate) throw new HttpError(400, 'input exceeds maximum context length');
      const limit = numCtx - 2; // room for BOS and EOS, as Ollama reserves
      if (limit <= 0) throw new HttpError(400, 'input after truncation exceeds maximum context length');
      count += limit;
      return tokenizer.detokenize(tokenizer.tokenize(text).slice(0, limit));
    });
    if (!isEmbeddingModel(spec)) throw new HttpError(500, 'this model does not support embeddings');

    const dims = Number(body.dimensions ?? 0);
    const vectors = spec.encode ? (await spec.encode(texts)).map(l2normalize) : texts.map((t) => embedText(t, spec.embeddingLength, spec.name));
    const embeddings = vectors.map((v) => (dims > 0 && dims < v.length ? l2normalize(v.slice(0, dims)) : v));
    if (legacy) return { embedding: embeddings[0] };
    return {
      model: name, embeddings,
      total_duration: Math.max(1, Number(hr() - started)), load_duration: Math.max(1, loadNs),
      prompt_eval_count: count,
    };
  }

  // /api/chat and /api/generate share everything but the message shape.
  async function complete(res: http.ServerResponse, body: Json, kind: 'chat' | 'generate'): Promise<void> {
    const started = hr();
    const name = requireModelName(body);
    const spec = requireInstalled(name);
    const isChat = kind === 'chat';
    const messages: ChatMessage[] = isChat
      ? ((Array.isArray(body.messages) ? body.messages : []) as Json[]).map((m) => ({
          ...m, role: String(m.role ?? 'user'), content: String(m.content ?? ''),
        }))
      : [
          ...(typeof body.system === 'string' && body.system ? [{ role: 'system', content: body.system }] : []),
          ...(typeof body.prompt === 'string' && body.prompt ? [{ role: 'user', content: body.prompt }] : []),
        ];
    const empty = isChat ? messages.length === 0 : !body.prompt;
    const shell = (done: boolean, content: string): Json =>
      isChat
        ? { model: name, created_at: nowIso(), message: { role: 'assistant', content }, done }
        : { model: name, created_at: nowIso(), response: content, done };

    if (empty && keepAliveMs(body.keep_alive) === 0) {
      loaded.delete(spec.name);
      return sendJson(res, 200, { ...shell(true, ''), done_reason: 'unload' });
    }
    if (body.think === true && !spec.capabilities.includes('thinking')) {
      throw new HttpError(400, `${JSON.stringify(name)} does not support thinking`);
    }
    if (!spec.capabilities.includes('completion')) {
      throw new HttpError(400, `${JSON.stringify(name)} does not support ${isChat ? 'chat' : 'generate'}`);
    }
    const opts = (body.options ?? {}) as Json;
    const askedCtx = faults.numCtxOverride ?? numCtxFor(spec, opts);
    const runnerCtx = Math.min(askedCtx, spec.contextLength); // the runner caps at the trained size
    markLoaded(spec, body.keep_alive, runnerCtx);
    if (empty) return sendJson(res, 200, { ...shell(true, ''), done_reason: 'load' });

    const truncate = body.truncate !== false;
    const tokenizer = tokenizerOf(spec);
    let kept = fitMessages(messages, askedCtx, truncate, tokenizer);
    if (promptTokens(kept, tokenizer) > runnerCtx) {
      if (!truncate) throw new HttpError(400, 'the input length exceeds the context length');
      kept = cutFront(kept, runnerCtx, tokenizer);
    }
    const ctx: ChatContext = { model: spec.name, messages, kept, options: opts, body };
    const next = scripted.shift();
    let reply = next === undefined ? responder(ctx) : typeof next === 'string' ? next : next(ctx);
    // format "json" or a schema: a model would emit JSON; wrap plain text so it parses.
    if (body.format !== undefined && body.format !== null && body.format !== '') {
      try {
        JSON.parse(reply);
      } catch {
        reply = JSON.stringify({ answer: reply });
      }
    }
    const numPredict = opts.num_predict === undefined ? undefined : Number(opts.num_predict);
    const { text, evalCount, doneReason } = limitReply(reply, numPredict);
    const promptCount = Math.max(1, promptTokens(kept, tokenizer) + faults.promptEvalOffset);
    const loadNs = Math.max(1, Number(hr() - started));
    const genStart = hr();

    const final = (content: string): Json => {
      const promptNs = Math.max(1, promptCount * 50_000);
      const evalNs = Math.max(1, Number(hr() - genStart), evalCount * 2_000_000);
      return {
        ...shell(true, content), done_reason: doneReason,
        total_duration: loadNs + promptNs + evalNs, load_duration: loadNs,
        prompt_eval_count: promptCount, prompt_eval_duration: promptNs,
        eval_count: evalCount, eval_duration: evalNs,
      };
    };
    if (body.stream === false) return sendJson(res, 200, final(text));
    await stream(res, (function* () {
      for (const d of splitDeltas(text)) yield shell(false, d);
      yield final('');
    })());
  }

  async function pull(res: http.ServerResponse, body: Json): Promise<void> {
    const name = (typeof body.model === 'string' && body.model) || body.name;
    if (!isValidName(name)) throw new HttpError(400, 'invalid model name');
    const spec = catalogue.known(name);
    const wasInstalled = Boolean(catalogue.installed(name));
    const steps = function* (): Generator<Json> {
      yield { status: 'pulling manifest' };
      if (!spec) {
        // Ollama wraps the registry's 404 (os.ErrNotExist) like this.
        yield { error: 'pull model manifest: file does not exist' };
        return;
      }
      // The weights blob is named by the model digest; template and params are tiny blobs.
      const blob = (tag: string) => createHash('sha256').update(`${digestOf(spec)}:${tag}`).digest('hex');
      const layers = [
        { digest: `sha256:${digestOf(spec)}`, total: spec.size },
        { digest: `sha256:${blob('template')}`, total: 358 },
        { digest: `sha256:${blob('params')}`, total: 96 },
      ];
      for (const l of layers) {
        const status = `pulling ${l.digest.slice(7, 19)}`;
        // An already-present blob is reported once, complete; a fresh one in a few steps.
        for (const k of wasInstalled ? [4] : [0, 1, 2, 3, 4]) {
          const completed = Math.round((l.total * k) / 4);
          yield { status, digest: l.digest, total: l.total, ...(completed ? { completed } : {}) };
        }
      }
      yield { status: 'verifying sha256 digest' };
      yield { status: 'writing manifest' };
      catalogue.install(spec.name);
      yield { status: 'success' };
    };
    if (body.stream === false) {
      let last: Json = {};
      for (const s of steps()) {
        if (typeof s.error === 'string') throw new HttpError(500, s.error);
        last = s;
      }
      return sendJson(res, 200, last);
    }
    // Errors after the first line travel in-band with status 200, as in Ollama's streamResponse.
    await stream(res, steps());
  }

  function remove(body: Json): void {
    const name = (typeof body.model === 'string' && body.model) || body.name;
    if (!isValidName(name)) throw new HttpError(400, `name ${JSON.stringify(name ?? '')} is invalid`);
    if (!catalogue.uninstall(name)) throw new HttpError(404, `model '${name}' not found`);
    loaded.delete(canonicalName(name));
  }

  const root: Handler = (res) => sendText(res, 200, 'Ollama is running');
  const versionH: Handler = (res) => sendJson(res, 200, { version });
  const tagsH: Handler = (res) => sendJson(res, 200, tags());
  const routes: Record<string, Handler> = {
    'GET /': root,
    'HEAD /': root,
    'GET /api/version': versionH,
    'HEAD /api/version': versionH,
    'GET /api/tags': tagsH,
    'HEAD /api/tags': tagsH,
    'GET /api/ps': (res) => sendJson(res, 200, ps()),
    'POST /api/show': (res, raw) => sendJson(res, 200, show(requireObject(raw))),
    'POST /api/embed': async (res, raw) => sendJson(res, 200, await embed(requireObject(raw), false)),
    'POST /api/embeddings': async (res, raw) => sendJson(res, 200, await embed(requireObject(raw), true)),
    'POST /api/chat': (res, raw) => complete(res, requireObject(raw), 'chat'),
    'POST /api/generate': (res, raw) => complete(res, requireObject(raw), 'generate'),
    'POST /api/pull': (res, raw) => pull(res, requireObject(raw)),
    'DELETE /api/delete': (res, raw) => {
      remove(requireObject(raw));
      res.writeHead(200).end(); // Ollama answers a delete with an empty 200
    },
  };
  return routes;
}
