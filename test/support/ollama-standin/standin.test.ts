// The stand-in is only useful if Quire's real client code cannot tell it from Ollama, so these
// tests go through the real `ollama` npm client wherever the client can express the call.
import { Ollama, type ChatResponse, type Message } from 'ollama';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOT_IN_DOCUMENTS, cutFront, extractQuestion, fitMessages, parseSources, promptTokens } from './chat.js';
import { stem, stripTaskPrefix } from './embed.js';
import { type Standin, startStandin } from './server.js';

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const dist = (a: number[], b: number[]) => Math.sqrt(a.reduce((s, x, i) => s + (x - (b[i] ?? 0)) ** 2, 0));

async function rejection(p: Promise<unknown>): Promise<Error & { status_code?: number; cause?: unknown }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { status_code?: number };
  }
  throw new Error('expected the call to fail');
}

const SOURCES_PROMPT = [
  '<source id="notes/cats.md#0" title="Cats">',
  'Cats sleep about sixteen hours a day. They groom themselves often.',
  '</source>',
  '<source id="notes/moon.md#2" title="Moon">',
  'The moon has no atmosphere to speak of.',
  '</source>',
  '',
  'Answer only from the sources and cite them.',
  '',
  'Question: How many hours a day do cats sleep?',
].join('\n');

const SYSTEM: Message = { role: 'system', content: 'Answer only from the sources. Cite [id]. Otherwise say Not in the documents.' };

let s: Standin;
let client: Ollama;

beforeAll(async () => {
  s = await startStandin();
  client = new Ollama({ host: s.url });
});
afterAll(() => s.close());
afterEach(() => {
  s.faults.failNth = null;
  s.faults.latencyMs = 0;
  s.faults.streamDelayMs = 0;
  s.faults.hang = false;
});

describe('basics', () => {
  it('reports a version, answers / and 404s unknown paths like Ollama', async () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await client.version()).version).toBe('0.12.6');
    const root = await fetch(`${s.url}/`);
    expect(await root.text()).toBe('Ollama is running');
    expect((await fetch(`${s.url}/`, { method: 'HEAD' })).status).toBe(200);
    const missing = await fetch(`${s.url}/api/nope`);
    expect([missing.status, await missing.text()]).toEqual([404, '404 page not found']);
    expect((await fetch(`${s.url}/api/chat`)).status).toBe(405);
  });

  it('lists installed models with Ollama fields and 64-hex digests', async () => {
    const { models } = await client.list();
    const names = models.map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['embeddinggemma:latest', 'nomic-embed-text:latest', 'llama3.2:latest', 'qwen2.5:0.5b']));
    expect(names).not.toContain('all-minilm:latest');
    for (const m of models) {
      expect(m.model).toBe(m.name);
      expect(m.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(m.size).toBeGreaterThan(0);
      expect(Number.isNaN(Date.parse(String(m.modified_at)))).toBe(false);
      expect(m.details).toMatchObject({ parent_model: '', format: 'gguf' });
      expect(m.details.families).toContain(m.details.family);
    }
  });

  it('shows model_info lengths and capabilities, resolving names without a tag', async () => {
    const emb = await client.show({ model: 'embeddinggemma' });
    const info = emb.model_info as unknown as Record<string, unknown>;
    expect(info['general.architecture']).toBe('gemma3');
    expect(info['gemma3.embedding_length']).toBe(768);
    expect(info['gemma3.context_length']).toBe(2048);
    expect(emb.capabilities).toEqual(['embedding']);
    const chat = await client.show({ model: 'llama3.2' });
    expect((chat.model_info as unknown as Record<string, unknown>)['llama.context_length']).toBe(131072);
    expect(chat.capabilities).toEqual(expect.arrayContaining(['completion', 'tools']));
    expect(chat.details.family).toBe('llama');
    // Older clients send the legacy "name" field.
    const legacy = await fetch(`${s.url}/api/show`, { method: 'POST', body: JSON.stringify({ name: 'nomic-embed-text' }) });
    expect(((await legacy.json()) as { model_info: Record<string, unknown> }).model_info['nomic-bert.embedding_length']).toBe(768);
  });

  it('404s an unknown model on show with Ollama\'s text', async () => {
    const e = await rejection(client.show({ model: 'nope:7b' }));
    expect(e.name).toBe('ResponseError');
    expect(e.status_code).toBe(404);
    expect(e.message).toBe("model 'nope:7b' not found");
  });

  it('logs calls with their bodies', async () => {
    s.calls.reset();
    await client.embed({ model: 'nomic-embed-text', input: 'hello' });
    await client.version();
    expect(s.calls.count()).toBe(2);
    expect(s.calls.count('/api/embed', 'POST')).toBe(1);
    expect(s.calls.last('/api/embed')?.body).toMatchObject({ model: 'nomic-embed-text', input: 'hello' });
  });
});

describe('embed', () => {
  it('returns one L2-normalised vector per input, deterministically', async () => {
    const input = ['alpha beta', 'gamma delta', 'epsilon'];
    const r = await client.embed({ model: 'embeddinggemma', input });
    expect(r.model).toBe('embeddinggemma');
    expect(r.embeddings).toHaveLength(3);
    for (const v of r.embeddings) {
      expect(v).toHaveLength(768);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(r.prompt_eval_count).toBeGreaterThan(0);
    expect(r.total_duration).toBeGreaterThan(0);
    const again = await client.embed({ model: 'embeddinggemma:latest', input: 'gamma delta' });
    expect(again.embeddings).toEqual([r.embeddings[1]]);
    expect(r.embeddings[0]).not.toEqual(r.embeddings[1]);
  });

  it('places texts that share words closer than unrelated ones', async () => {
    const { embeddings: [q, near, far, partial] } = await client.embed({
      model: 'nomic-embed-text',
      input: [
        'How do I rotate the backup encryption keys?',
        'Backup encryption keys are rotated every 90 days by the ops team.',
        'The cafeteria serves lunch from noon until two.',
        'Rotating keys is described in the runbook.',
      ],
    });
    expect(dist(q!, near!)).toBeLessThan(dist(q!, partial!));
    expect(dist(q!, partial!)).toBeLessThan(dist(q!, far!));
    expect(dist(q!, far!) - dist(q!, near!)).toBeGreaterThan(0.2);
  });

  it('strips task prefixes so they add no shared signal', async () => {
    const plain = await client.embed({ model: 'nomic-embed-text', input: ['backup keys', 'lunch menu'] });
    const nomic = await client.embed({ model: 'nomic-embed-text', input: ['search_query: backup keys', 'search_document: lunch menu'] });
    expect(nomic.embeddings).toEqual(plain.embeddings);
    const g = await client.embed({
      model: 'embeddinggemma',
      input: ['backup keys', 'task: search result | query: backup keys', 'title: none | text: backup keys'],
    });
    expect(g.embeddings[1]).toEqual(g.embeddings[0]);
    expect(g.embeddings[2]).toEqual(g.embeddings[0]);
    expect(stripTaskPrefix('title: Backups | text: keys rotate')).toBe('Backups\nkeys rotate');
  });

  it('gives different models incomparable vectors and honours dimensions', async () => {
    const a = await client.embed({ model: 'nomic-embed-text', input: 'same text' });
    const b = await client.embed({ model: 'embeddinggemma', input: 'same text' });
    expect(a.embeddings[0]).not.toEqual(b.embeddings[0]);
    const cut = await client.embed({ model: 'nomic-embed-text', input: 'same text', dimensions: 256 });
    expect(cut.embeddings[0]).toHaveLength(256);
    expect(norm(cut.embeddings[0]!)).toBeCloseTo(1, 5);
  });

  it('fails like Ollama for unknown and chat-only models', async () => {
    const missing = await rejection(client.embed({ model: 'missing', input: ['x'] }));
    expect([missing.status_code, missing.message]).toEqual([404, "model 'missing' not found"]);
    const chatOnly = await rejection(client.embed({ model: 'llama3.2', input: ['x'] }));
    expect([chatOnly.status_code, chatOnly.message]).toEqual([500, 'this model does not support embeddings']);
  });

  it('truncates long input by default and refuses it with truncate=false', async () => {
    const long = 'lorem ipsum dolor sit amet '.repeat(800); // ~4000 tokens, context_length 2048
    const ok = await client.embed({ model: 'nomic-embed-text', input: [long, 'short'] });
    expect(ok.embeddings).toHaveLength(2);
    expect(ok.prompt_eval_count).toBeLessThanOrEqual(2048 + 1);
    const e = await rejection(client.embed({ model: 'nomic-embed-text', input: [long], truncate: false }));
    expect([e.status_code, e.message]).toEqual([400, 'input exceeds maximum context length']);
  });

  it('serves the legacy /api/embeddings endpoint', async () => {
    const r = await client.embeddings({ model: 'nomic-embed-text', prompt: 'backup keys' });
    const modern = await client.embed({ model: 'nomic-embed-text', input: 'backup keys' });
    expect(r.embedding).toEqual(modern.embeddings[0]);
  });

  it('answers empty input with no vectors', async () => {
    const r = await client.embed({ model: 'nomic-embed-text', input: [] });
    expect(r.embeddings).toEqual([]);
  });
});

describe('chat', () => {
  const ask = (messages: Message[], options: Record<string, unknown> = {}) =>
    client.chat({ model: 'llama3.2', messages, stream: false, options });

  it('streams word deltas then a final object with counters', async () => {
    const parts: ChatResponse[] = [];
    for await (const p of await client.chat({ model: 'llama3.2', messages: [SYSTEM, { role: 'user', content: SOURCES_PROMPT }], stream: true })) {
      parts.push(p);
    }
    const deltas = parts.filter((p) => !p.done);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.every((p) => p.message.role === 'assistant')).toBe(true);
    expect(deltas.map((p) => p.message.content).join('')).toBe('Cats sleep about sixteen hours a day. [notes/cats.md#0]');
    const last = parts[parts.length - 1]!;
    expect(last).toMatchObject({ done: true, done_reason: 'stop', model: 'llama3.2', message: { role: 'assistant', content: '' } });
    for (const k of ['total_duration', 'load_duration', 'prompt_eval_count', 'prompt_eval_duration', 'eval_count', 'eval_duration'] as const) {
      expect(last[k], k).toBeGreaterThan(0);
    }
    expect(last.total_duration).toBeGreaterThanOrEqual(last.eval_duration + last.prompt_eval_duration);
  });

  it('returns the same reply in one object when not streaming', async () => {
    const r = await ask([SYSTEM, { role: 'user', content: SOURCES_PROMPT }]);
    expect(r.done).toBe(true);
    expect(r.message.content).toBe('Cats sleep about sixteen hours a day. [notes/cats.md#0]');
    expect(r.prompt_eval_count).toBeGreaterThan(50);
    expect(r.eval_count).toBeGreaterThan(5);
  });

  it('reads bracket-style source blocks and says "Not in the documents." without overlap', async () => {
    const bracket = '[a.md#1] Backups\nBackups run nightly at 02:00.\n\n[b.md#4] Lunch\nLunch is at noon.\n\nQuestion: When does lunch happen?';
    expect((await ask([{ role: 'user', content: bracket }])).message.content).toBe('Lunch is at noon. [b.md#4]');
    const off = '[a.md#1] Backups\nBackups run nightly.\n\nQuestion: Who painted the Mona Lisa?';
    expect((await ask([{ role: 'user', content: off }])).message.content).toBe(NOT_IN_DOCUMENTS);
  });

  it('plays scripted replies first, in order, then falls back to extraction', async () => {
    s.script('first', (ctx) => `second for ${ctx.model} with ${ctx.kept.length} messages`);
    expect((await ask([{ role: 'user', content: 'hi' }])).message.content).toBe('first');
    expect((await ask([{ role: 'user', content: 'hi' }])).message.content).toBe('second for llama3.2:latest with 1 messages');
    expect((await ask([{ role: 'user', content: 'hi' }])).message.content).toBe(NOT_IN_DOCUMENTS);
  });

  it('cuts the prompt silently at num_ctx: lower prompt_eval_count, no error, lost sources', async () => {
    const filler = Array.from({ length: 40 }, (_, i) =>
      `<source id="filler.md#${i}">\nParagraph ${i} talks about gardening, soil, compost and tomatoes in some detail.\n</source>`);
    const content = [`<source id="notes/cats.md#0">\nCats sleep about sixteen hours a day.\n</source>`, ...filler,
      '', 'Question: How many hours a day do cats sleep?'].join('\n');
    const full = await ask([SYSTEM, { role: 'user', content }], { num_ctx: 8192 });
    expect(full.message.content).toBe('Cats sleep about sixteen hours a day. [notes/cats.md#0]');
    const cut = await ask([SYSTEM, { role: 'user', content }], { num_ctx: 256 });
    expect(cut.prompt_eval_count).toBeLessThanOrEqual(256);
    expect(cut.prompt_eval_count).toBeLessThan(full.prompt_eval_count / 2);
    // The front (the system rules and the cats source) went; the question at the end survived.
    expect(cut.message.content).not.toContain('notes/cats.md#0');
  });

  it('drops the oldest turns first and keeps the system message in a long conversation', async () => {
    const history: Message[] = [SYSTEM];
    for (let i = 0; i < 30; i++) {
      history.push({ role: 'user', content: `Old question ${i} about something long enough to count.` });
      history.push({ role: 'assistant', content: `Old answer ${i}, equally long enough to take tokens.` });
    }
    history.push({ role: 'user', content: SOURCES_PROMPT });
    const full = await ask(history, { num_ctx: 8192 });
    const cut = await ask(history, { num_ctx: 300 });
    expect(cut.prompt_eval_count).toBeLessThanOrEqual(300);
    expect(cut.prompt_eval_count).toBeLessThan(full.prompt_eval_count);
    expect(cut.message.content).toBe('Cats sleep about sixteen hours a day. [notes/cats.md#0]');
    const kept = fitMessages(history.map((m) => ({ role: m.role, content: m.content })), 300);
    expect(kept[0]).toEqual({ role: 'system', content: SYSTEM.content });
    expect(kept[kept.length - 1]!.content).toBe(SOURCES_PROMPT);
    expect(kept.length).toBeLessThan(history.length);
  });

  it('uses num_ctx 4096 by default', async () => {
    const big = 'word '.repeat(6000);
    const r = await ask([{ role: 'user', content: big }]);
    expect(r.prompt_eval_count).toBeLessThanOrEqual(4096);
    expect(r.prompt_eval_count).toBeGreaterThan(4000);
  });

  it('errors instead of truncating when truncate is false', async () => {
    const e = await rejection(
      client.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'word '.repeat(600) }], stream: false, options: { num_ctx: 128 }, truncate: false } as Parameters<Ollama['chat']>[0] & { stream: false }),
    );
    expect([e.status_code, e.message]).toEqual([400, 'the input length exceeds the context length']);
  });

  it('stops at num_predict with done_reason "length"', async () => {
    s.script('one two three four five six seven eight nine ten');
    const r = await ask([{ role: 'user', content: 'count' }], { num_predict: 3 });
    expect(r.done_reason).toBe('length');
    expect(r.eval_count).toBe(3);
    expect(r.message.content).toBe('one two three');
  });

  it('fails like Ollama for unknown and embedding-only models', async () => {
    const missing = await rejection(client.chat({ model: 'ghost', messages: [{ role: 'user', content: 'x' }] }));
    expect([missing.status_code, missing.message]).toEqual([404, "model 'ghost' not found"]);
    const emb = await rejection(client.chat({ model: 'embeddinggemma', messages: [{ role: 'user', content: 'x' }] }));
    expect([emb.status_code, emb.message]).toEqual([400, '"embeddinggemma" does not support chat']);
    const streamed = await rejection(client.chat({ model: 'ghost', messages: [{ role: 'user', content: 'x' }], stream: true }));
    expect(streamed.status_code).toBe(404);
  });

  it('serves /api/generate with the same machinery', async () => {
    const r = await client.generate({ model: 'llama3.2', prompt: SOURCES_PROMPT, stream: false });
    expect(r.response).toBe('Cats sleep about sixteen hours a day. [notes/cats.md#0]');
    expect(r.done_reason).toBe('stop');
    const e = await rejection(client.generate({ model: 'embeddinggemma', prompt: 'x' }));
    expect([e.status_code, e.message]).toEqual([400, '"embeddinggemma" does not support generate']);
  });

  it('wraps plain replies as JSON when a format is requested', async () => {
    const r = await client.chat({ model: 'llama3.2', stream: false, format: 'json', messages: [{ role: 'user', content: SOURCES_PROMPT }] });
    expect(JSON.parse(r.message.content)).toEqual({ answer: 'Cats sleep about sixteen hours a day. [notes/cats.md#0]' });
  });

  it('tracks loaded models in /api/ps and unloads with keep_alive 0', async () => {
    await client.chat({ model: 'qwen2.5:0.5b', messages: [{ role: 'user', content: 'hi' }], options: { num_ctx: 2048 } });
    const loaded = (await client.ps()).models.find((m) => m.name === 'qwen2.5:0.5b');
    expect(loaded).toBeDefined();
    expect((loaded as unknown as { context_length: number }).context_length).toBe(2048);
    const unload = await client.chat({ model: 'qwen2.5:0.5b', messages: [], keep_alive: 0 });
    expect(unload.done_reason).toBe('unload');
    expect((await client.ps()).models.map((m) => m.name)).not.toContain('qwen2.5:0.5b');
  });
});

describe('pull', () => {
  it('streams progress, then the model is listed and usable', async () => {
    const statuses: string[] = [];
    let sawProgress = false;
    for await (const p of await client.pull({ model: 'all-minilm', stream: true })) {
      statuses.push(p.status);
      if (p.digest) {
        expect(p.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(p.status).toBe(`pulling ${p.digest.slice(7, 19)}`);
        expect(p.total).toBeGreaterThan(0);
        if (p.completed === p.total) sawProgress = true;
      }
    }
    expect(statuses[0]).toBe('pulling manifest');
    expect(statuses.slice(-3)).toEqual(['verifying sha256 digest', 'writing manifest', 'success']);
    expect(sawProgress).toBe(true);
    expect((await client.list()).models.map((m) => m.name)).toContain('all-minilm:latest');
    const r = await client.embed({ model: 'all-minilm', input: 'now installed' });
    expect(r.embeddings[0]).toHaveLength(384);
  });

  it('reports an unknown model the way Ollama does, streamed and not', async () => {
    const streamed = await rejection((async () => {
      for await (const _ of await client.pull({ model: 'no-such-model', stream: true })) { /* drain */ }
    })());
    expect(streamed.message).toBe('pull model manifest: file does not exist');
    const whole = await rejection(client.pull({ model: 'no-such-model', stream: false }));
    expect([whole.status_code, whole.message]).toEqual([500, 'pull model manifest: file does not exist']);
  });

  it('stops, and installs nothing, when the client aborts', async () => {
    s.faults.streamDelayMs = 25;
    const it = await client.pull({ model: 'gemma3:1b', stream: true });
    let seen = 0;
    const aborted = await rejection((async () => {
      for await (const _ of it) {
        if (++seen === 2) it.abort();
      }
    })());
    expect(aborted.name).toBe('AbortError');
    await new Promise((r) => setTimeout(r, 800)); // longer than the whole pull takes
    expect((await client.list()).models.map((m) => m.name)).not.toContain('gemma3:1b');
  }, 10_000);
});

describe('faults', () => {
  it('goes down on stop() and comes back on the same port with start()', async () => {
    const port = s.port;
    await client.list();
    await s.stop();
    try {
      expect(s.running).toBe(false);
      // The first failure may land on a pooled socket (UND_ERR_SOCKET), as when Ollama dies; a
      // fresh connection is then refused.
      for (const code of [undefined, 'ECONNREFUSED']) {
        const down = await rejection(client.list());
        expect([down.name, down.message]).toEqual(['TypeError', 'fetch failed']);
        if (code) expect((down.cause as { code?: string }).code).toBe(code);
      }
    } finally {
      await s.start();
    }
    expect(s.port).toBe(port);
    expect((await client.list()).models.length).toBeGreaterThan(0);
  });

  it('fails the nth call with a 500 once', async () => {
    s.calls.reset();
    s.faults.failNth = { path: '/api/embed', n: 2 };
    await client.embed({ model: 'nomic-embed-text', input: 'one' });
    const e = await rejection(client.embed({ model: 'nomic-embed-text', input: 'two' }));
    expect(e.status_code).toBe(500);
    expect(e.message).toMatch(/model runner has unexpectedly stopped/);
    await client.embed({ model: 'nomic-embed-text', input: 'three' });
    expect(s.calls.count('/api/embed')).toBe(3);
    expect(s.faults.failNth).toBeNull();
  });

  it('hangs: takes the request and never answers it, every path or only those listed', async () => {
    // A client that gives up after 300 ms, as Quire's timeouts do.
    const patient = new Ollama({ host: s.url, fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(300) }) });
    s.calls.reset();
    s.faults.hang = true;
    expect((await rejection(patient.version())).name).toBe('TimeoutError');
    // The stand-in had the request (logged) and said nothing.
    expect(s.calls.count('/api/version')).toBe(1);
    // A stuck runner: embedding hangs while the server still answers its version.
    s.faults.hang = ['/api/embed'];
    expect((await patient.version()).version).toBe('0.12.6');
    expect((await rejection(patient.embed({ model: 'nomic-embed-text', input: 'one' }))).name).toBe('TimeoutError');
    s.faults.hang = false;
    expect((await patient.embed({ model: 'nomic-embed-text', input: 'one' })).embeddings).toHaveLength(1);
  });

  it('adds latency', async () => {
    s.faults.latencyMs = 150;
    const t0 = Date.now();
    await client.version();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('changes a model\'s dimension, digest and /api/show', async () => {
    const digest = (await client.list()).models.find((m) => m.name === 'nomic-embed-text:latest')!.digest;
    s.setDimension('nomic-embed-text', 384);
    try {
      expect((await client.embed({ model: 'nomic-embed-text', input: 'x' })).embeddings[0]).toHaveLength(384);
      const info = (await client.show({ model: 'nomic-embed-text' })).model_info as unknown as Record<string, unknown>;
      expect(info['nomic-bert.embedding_length']).toBe(384);
      expect((await client.list()).models.find((m) => m.name === 'nomic-embed-text:latest')!.digest).not.toBe(digest);
    } finally {
      s.setDimension('nomic-embed-text', 768);
    }
    expect((await client.list()).models.find((m) => m.name === 'nomic-embed-text:latest')!.digest).toBe(digest);
  });

  it('deletes a model through the client', async () => {
    s.addModel('gemma3:1b');
    await client.delete({ model: 'gemma3:1b' });
    expect((await client.list()).models.map((m) => m.name)).not.toContain('gemma3:1b');
    const e = await rejection(client.delete({ model: 'gemma3:1b' }));
    expect([e.status_code, e.message]).toEqual([404, "model 'gemma3:1b' not found"]);
  });

  it('removes and re-adds a model', async () => {
    s.removeModel('embeddinggemma');
    const e = await rejection(client.embed({ model: 'embeddinggemma', input: 'x' }));
    expect([e.status_code, e.message]).toEqual([404, "model 'embeddinggemma' not found"]);
    s.addModel('embeddinggemma');
    expect((await client.embed({ model: 'embeddinggemma', input: 'x' })).embeddings).toHaveLength(1);
    s.addModel({
      name: 'custom-embed:v1', arch: 'bert', capabilities: ['embedding'], contextLength: 512,
      embeddingLength: 64, parameterSize: '10M', quantization: 'F16', size: 1000,
    });
    expect((await client.embed({ model: 'custom-embed:v1', input: 'x' })).embeddings[0]).toHaveLength(64);
  });
});

describe('options and helpers', () => {
  it('stems the forms of a word to one, and leaves short words alone', () => {
    expect(new Set(['rotate', 'rotates', 'rotated', 'rotating'].map(stem))).toEqual(new Set(['rotat']));
    expect(new Set(['note', 'notes'].map(stem))).toEqual(new Set(['note']));
    expect(['make', 'time', 'agree', 'coffee'].map(stem)).toEqual(['make', 'time', 'agree', 'coffee']);
  });

  it('takes a custom source-id pattern', async () => {
    const custom = await startStandin({ sourcePattern: /^Source (\S+):/m });
    try {
      const c = new Ollama({ host: custom.url });
      const r = await c.chat({
        model: 'llama3.2', stream: false,
        messages: [{ role: 'user', content: 'Source doc-7:\nTea is brewed at 80 degrees.\n\nQuestion: At what temperature is tea brewed?' }],
      });
      expect(r.message.content).toBe('Tea is brewed at 80 degrees. [doc-7]');
    } finally {
      await custom.close();
    }
  });

  it('refuses non-loopback hosts', async () => {
    await expect(startStandin({ host: '0.0.0.0' })).rejects.toThrow(/non-loopback/);
  });

  it('parses sources and the question', () => {
    expect(parseSources(SOURCES_PROMPT).map((b) => b.id)).toEqual(['notes/cats.md#0', 'notes/moon.md#2']);
    expect(extractQuestion(SOURCES_PROMPT)).toBe('How many hours a day do cats sleep?');
    expect(extractQuestion('[a#1] Some text.\n\nWhat is it?')).toBe('What is it?');
    // A markdown link at the start of a line is not a source opening.
    expect(parseSources('[see here](http://x)\n[a.md#0] real')).toEqual([{ id: 'a.md#0', text: 'real' }]);
  });

  it('keeps the system message of a too-long [system, user] prompt for the front cut to deal with', () => {
    const sys = { role: 'system', content: 'rules '.repeat(50) };
    const user = { role: 'user', content: 'question '.repeat(50) };
    expect(fitMessages([sys, user], 80)).toEqual([sys, user]);
    const old = { role: 'user', content: 'old turn '.repeat(40) };
    const reply = { role: 'assistant', content: 'old answer '.repeat(100) };
    expect(fitMessages([sys, old, reply, user], 200)).toEqual([sys, user]);
    expect(fitMessages([sys, user], 4096)).toEqual([sys, user]);
    expect(fitMessages([sys, user], 80, false)).toEqual([sys, user]);
  });

  it('cuts the front when the latest message alone is too long', () => {
    const msg = { role: 'user', content: `${'front '.repeat(300)}the question at the end?` };
    const out = cutFront([msg], 64);
    expect(promptTokens(out)).toBeLessThanOrEqual(64);
    expect(out[0]!.content.endsWith('the question at the end?')).toBe(true);
  });
});
