import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { QuireError } from '../../../shared/errors';
import { startStandin, type Standin } from '../../../test/support/ollama-standin/server';
import { standinVocabulary } from '../../../test/support/ollama-standin/vocabularies';
import { countEmbeddingInputs, ModelTokens } from '../tokens/model-tokens';
import { Embedder, halves } from './embedder';
import { OllamaGateway, PERSON_WAITING, withTag } from './gateway';
import { resolveOllamaHost } from './host';
import { ollamaNotAnswering, ollamaState } from './state';
import { taskPrefixesFor } from './prefixes';

describe('resolveOllamaHost (OLLAMA_HOST as Ollama reads it)', () => {
  it.each([
    [undefined, 'http://127.0.0.1:11434'],
    ['', 'http://127.0.0.1:11434'],
    ['0.0.0.0', 'http://127.0.0.1:11434'],
    ['0.0.0.0:8080', 'http://127.0.0.1:8080'],
    [':9999', 'http://127.0.0.1:9999'],
    ['localhost', 'http://localhost:11434'],
    ['gpu-box:11434', 'http://gpu-box:11434'],
    ['http://gpu-box', 'http://gpu-box:80'],
    ['https://ollama.internal/', 'https://ollama.internal:443'],
    ['http://10.0.0.5:11434/', 'http://10.0.0.5:11434'],
  ])('%s → %s', (input, expected) => {
    expect(resolveOllamaHost(input)).toBe(expected);
  });

  it('rejects garbage with a sentence', () => {
    expect(() => resolveOllamaHost('http://[bad')).toThrow(/is not a valid address for Ollama/);
  });

  // Only http(s), wherever the value came from; a refusal is INVALID_ARGUMENT with a sentence.
  it.each([
    ['file:///etc/passwd', /must start with http:\/\/ or https:\/\/, not file:/],
    ['FILE://127.0.0.1/etc/passwd', /not file:/],
    ['javascript:alert(1)', /not javascript:/],
    ['data:text/html,<script>x</script>', /not data:/],
    ['ftp://gpu-box:21', /not ftp:/],
    ['ws://gpu-box:11434', /not ws:/],
    ['http://user:secret@gpu-box:11434', /may not hold a user name or password/],
    ['https://token@ollama.internal', /may not hold a user name or password/],
    ['gpu-box:11434/?next=http://evil', /may not carry a query/],
    ['http://gpu-box:11434/#frag', /may not carry a query/],
  ])('refuses %s', (input, message) => {
    expect(() => resolveOllamaHost(input)).toThrow(expect.objectContaining({ name: 'QuireError', code: 'INVALID_ARGUMENT', message: expect.stringMatching(message) }));
    expect(() => resolveOllamaHost(input)).not.toThrow(/secret/);
  });

  it.each([
    ['HTTP://GPU-BOX:11434', 'http://gpu-box:11434'],
    ['http:gpu-box', 'http://gpu-box:80'],
    ['[::1]:11434', 'http://[::1]:11434'],
    ['https://proxy.internal/ollama/', 'https://proxy.internal:443/ollama'],
  ])('still takes %s → %s', (input, expected) => expect(resolveOllamaHost(input)).toBe(expected));
});

describe('task prefixes', () => {
  it('uses each family’s own prefixes', () => {
    expect(taskPrefixesFor('nomic-embed-text:latest').query('q')).toBe('search_query: q');
    expect(taskPrefixesFor('nomic-embed-text').document('d', 'T')).toBe('search_document: d');
    expect(taskPrefixesFor('embeddinggemma:300m').query('q')).toBe('task: search result | query: q');
    expect(taskPrefixesFor('embeddinggemma').document('d', '')).toBe('title: none | text: d');
    expect(taskPrefixesFor('embeddinggemma').document('d', 'Doc > Sec')).toBe('title: Doc > Sec | text: d');
    expect(taskPrefixesFor('all-minilm').query('q')).toBe('q');
  });
});

describe('withTag', () => {
  it('adds :latest only when there is no tag', () => {
    expect(withTag('embeddinggemma')).toBe('embeddinggemma:latest');
    expect(withTag('qwen2.5:0.5b')).toBe('qwen2.5:0.5b');
    expect(withTag('registry.local:5000/team/model')).toBe('registry.local:5000/team/model:latest');
  });
});

describe('OllamaGateway against the stand-in', () => {
  let ollama: Standin;
  beforeAll(async () => {
    ollama = await startStandin();
  });
  afterAll(() => ollama.close());

  const codeOf = async (p: Promise<unknown>) => {
    try {
      await p;
      return 'resolved';
    } catch (e) {
      return e instanceof QuireError ? e.code : `not a QuireError: ${String(e)}`;
    }
  };

  it('reads the model digest and dimensions from /api/tags and /api/show', async () => {
    const g = new OllamaGateway({ host: ollama.url });
    const info = await g.modelInfo('embeddinggemma');
    expect(info.name).toBe('embeddinggemma:latest');
    expect(info.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(info.embeddingLength).toBe(768);
    expect(info.capabilities).toContain('embedding');
  });

  it('reads the window a loaded model runs with from /api/ps, capped at its trained context', async () => {
    const g = new OllamaGateway({ host: ollama.url, retries: 0 });
    await g.load('llama3.2', 1024);
    expect(await g.runningContextLength('llama3.2')).toBe(1024);
    await g.load('llama3.2', 1_000_000);
    expect(await g.runningContextLength('llama3.2')).toBe((await g.modelInfo('llama3.2')).contextLength);
    expect(await g.runningContextLength('qwen2.5:0.5b')).toBeNull();
  });

  it('maps a missing model to MODEL_NOT_FOUND with the pull command', async () => {
    const g = new OllamaGateway({ host: ollama.url, retries: 0 });
    await expect(codeOf(g.embed('no-such-model', ['x']))).resolves.toBe('MODEL_NOT_FOUND');
    await expect(g.modelInfo('no-such-model')).rejects.toThrow(/ollama pull no-such-model:latest/);
  });

  it('maps a refused connection to OLLAMA_UNREACHABLE after retrying', async () => {
    const g = new OllamaGateway({ host: 'http://127.0.0.1:9', retries: 2, backoffMs: 1 });
    await expect(codeOf(g.embed('embeddinggemma', ['x']))).resolves.toBe('OLLAMA_UNREACHABLE');
  });

  it('times out a slow server with OLLAMA_TIMEOUT', async () => {
    ollama.faults.latencyMs = 500;
    try {
      const g = new OllamaGateway({ host: ollama.url, timeoutMs: 100, retries: 0 });
      await expect(codeOf(g.embed('embeddinggemma', ['x']))).resolves.toBe('OLLAMA_TIMEOUT');
    } finally {
      ollama.faults.latencyMs = 0;
    }
  });

  it('never makes a quick call more patient than its gateway: one made to give up after 1 s does, for a person waiting too', async () => {
    ollama.faults.hang = true;
    try {
      const quick = new OllamaGateway({ host: ollama.url, timeoutMs: 1000, retries: 0 }).withOptions(PERSON_WAITING);
      await expect(quick.listModels()).rejects.toMatchObject({ code: 'OLLAMA_TIMEOUT', message: `Ollama at ${ollama.url} did not answer within 1 s.` });
    } finally {
      ollama.faults.hang = false;
    }
  });

  it('says a server that hangs did not answer, not that something was cancelled (the status bar, quire status)', async () => {
    ollama.faults.hang = true;
    try {
      const state = await ollamaState(new OllamaGateway({ host: ollama.url }));
      expect(state).toMatchObject({ connected: false, errorCode: 'OLLAMA_TIMEOUT', error: `Ollama at ${ollama.url} did not answer within 2 s.` });
    } finally {
      ollama.faults.hang = false;
    }
  });

  it('tells an Ollama that stopped answering (its version check hangs) from one that refuses it or answers', async () => {
    const g = new OllamaGateway({ host: ollama.url });
    expect(await ollamaNotAnswering(g, 300)).toBeNull();
    ollama.faults.hang = true;
    try {
      expect(await ollamaNotAnswering(g, 300)).toBe('timeout');
    } finally {
      ollama.faults.hang = false;
    }
    // A refused connection is an Ollama gone or being restarted, not one that hangs.
    const closed = await startStandin();
    await closed.close();
    expect(await ollamaNotAnswering(new OllamaGateway({ host: closed.url }), 300)).toBe('unreachable');
  });

  it('retries a 500 and succeeds; gives up with OLLAMA_ERROR when out of retries', async () => {
    const g = new OllamaGateway({ host: ollama.url, retries: 1, backoffMs: 1 });
    ollama.calls.reset();
    ollama.faults.failNth = { path: '/api/embed', n: 1 };
    expect(await g.embed('embeddinggemma', ['a', 'b'])).toHaveLength(2);
    expect(ollama.calls.count('/api/embed')).toBe(2);
    ollama.faults.failNth = { path: '/api/embed', n: 1 };
    await expect(codeOf(new OllamaGateway({ host: ollama.url, retries: 0 }).embed('embeddinggemma', ['a']))).resolves.toBe('OLLAMA_ERROR');
  });

  it('cancels promptly through an AbortSignal', async () => {
    ollama.faults.latencyMs = 2000;
    try {
      const g = new OllamaGateway({ host: ollama.url });
      const controller = new AbortController();
      const p = g.embed('embeddinggemma', ['x'], controller.signal);
      setTimeout(() => controller.abort(), 50);
      const started = Date.now();
      await expect(codeOf(p)).resolves.toBe('CANCELLED');
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      ollama.faults.latencyMs = 0;
    }
  });
});

describe('the model cache racing a pull', () => {
  let ollama: Standin;
  beforeAll(async () => {
    ollama = await startStandin();
  });
  afterAll(() => ollama.close());
  afterEach(() => {
    vi.restoreAllMocks();
    ollama.setDimension('embeddinggemma', 768);
  });

  /**
   * Holds Ollama's requests to `path`: before they are sent (`when: 'request'`) or, answered, before
   * the answer is handed back (`when: 'response'`). Resolves `held` once one is being held.
   */
  function hold(path: string, when: 'request' | 'response') {
    const realFetch = globalThis.fetch;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let onHeld!: () => void;
    const held = new Promise<void>((r) => (onHeld = r));
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
      if (!String(url).endsWith(path)) return realFetch(url, init);
      if (when === 'request') {
        onHeld();
        await released;
        return realFetch(url, init);
      }
      const res = await realFetch(url, init);
      onHeld();
      await released;
      return res;
    });
    return { held, release };
  }
  const digestNow = async () => (await new OllamaGateway({ host: ollama.url }).listModels()).find((m) => m.name === 'embeddinggemma:latest')!.digest;

  it('a model list fetched before a pull ended never lands in the cache after the pull cleared it', async () => {
    const g = new OllamaGateway({ host: ollama.url });
    const before = await digestNow();
    const tags = hold('/api/tags', 'response');
    const stale = g.listModels();
    await tags.held; // Ollama has answered with the model as it was
    ollama.setDimension('embeddinggemma', 512); // the pull replaces it…
    g.forgetModels(); // …and, ending, clears the cache (as pull() does)
    tags.release();
    expect((await stale).find((m) => m.name === 'embeddinggemma:latest')!.digest).toBe(before);
    vi.restoreAllMocks();
    const after = await g.listModels();
    expect(after.find((m) => m.name === 'embeddinggemma:latest')!.digest).toBe(await digestNow());
    expect(await digestNow()).not.toBe(before);
  });

  it("/api/show answered after a pull changed the model is never filed under the old digest", async () => {
    const g = new OllamaGateway({ host: ollama.url });
    const before = await digestNow();
    const show = hold('/api/show', 'request');
    const info = g.modelInfo('embeddinggemma');
    await show.held; // the list said `before`; show has not been asked yet
    ollama.setDimension('embeddinggemma', 512);
    g.forgetModels();
    show.release();
    const got = await info;
    // One consistent answer: the new digest with its own dimension, never the old digest with the new one's.
    expect(got).toMatchObject({ digest: await digestNow(), embeddingLength: 512 });
    vi.restoreAllMocks();
    // Back to the old version: its info is its own, not the 512-dimension answer.
    ollama.setDimension('embeddinggemma', 768);
    g.forgetModels();
    expect(await g.modelInfo('embeddinggemma')).toMatchObject({ digest: before, embeddingLength: 768 });
  });
});

describe('Embedder', () => {
  let ollama: Standin;
  beforeAll(async () => {
    ollama = await startStandin();
  });
  afterAll(() => ollama.close());

  it('learns the dimension from the first response and batches requests', async () => {
    const e = await Embedder.resolve(new OllamaGateway({ host: ollama.url }), 'embeddinggemma', { batchSize: 3 });
    expect(e.identity).toBeNull();
    ollama.calls.reset();
    const vectors = await e.embedDocuments(Array.from({ length: 7 }, (_, i) => ({ text: `doc ${i}`, title: '' })));
    expect(vectors).toHaveLength(7);
    expect(ollama.calls.count('/api/embed')).toBe(3);
    expect(e.identity).toMatchObject({ name: 'embeddinggemma:latest', dimension: 768 });
    const body = ollama.calls.last('/api/embed')!.body as { input: string[] };
    expect(body.input[0]).toBe('title: none | text: doc 6');
  });

  it('refuses vectors whose length changes mid-session', async () => {
    const e = await Embedder.resolve(new OllamaGateway({ host: ollama.url }), 'nomic-embed-text');
    await e.embedQuery('first');
    ollama.setDimension('nomic-embed-text', 384);
    await expect(e.embedQuery('second')).rejects.toMatchObject({ code: 'EMBED_DIMENSION_MISMATCH' });
  });

  it('never lets Ollama cut an input: a passage longer than the context is embedded in parts, a question is refused', async () => {
    const e = await Embedder.resolve(new OllamaGateway({ host: ollama.url }), 'embeddinggemma');
    // embeddinggemma reads 2,048 tokens; this is about 3,000.
    const long = Array.from({ length: 300 }, (_, i) => `Line ${i} of a very long passage about compost.`).join('\n');
    ollama.calls.reset();
    const [v, short] = await e.embedDocuments([{ text: long, title: '' }, { text: 'short', title: '' }]);
    const bodies = ollama.calls.entries.filter((c) => c.path === '/api/embed').map((c) => c.body as { input: string[]; truncate: boolean });
    expect(bodies.every((b) => b.truncate === false)).toBe(true);
    // The batch was refused, then the long passage went in parts (never over the context) and the short one alone.
    expect(bodies.length).toBeGreaterThanOrEqual(4);
    const parts = bodies.slice(1).flatMap((b) => b.input).filter((t) => t.includes('compost'));
    expect(parts.join('').replace(/title: none \| text: /g, '')).toContain('Line 299');
    expect(Math.hypot(...v!)).toBeCloseTo(1, 5);
    expect(short).toHaveLength(768);
    await expect(e.embedQuery(long)).rejects.toMatchObject({ code: 'INPUT_TOO_LONG', message: expect.stringContaining('keywords') });
  });

  it('with the model\'s own tokenizer, splits a long passage and refuses a long question before sending anything too long', async () => {
    ollama.addModel({ name: 'qwen3-embedding:0.6b', arch: 'qwen3', capabilities: ['embedding'], contextLength: 512, embeddingLength: 64, parameterSize: '0.6B', quantization: 'Q8_0', size: 1, vocabulary: 'qwen2' });
    const gateway = new OllamaGateway({ host: ollama.url });
    const e = await Embedder.resolve(gateway, 'qwen3-embedding:0.6b');
    await countEmbeddingInputs(new ModelTokens(gateway, null), e, undefined);
    expect(e.inputLimit).toBe(512);
    const long = Array.from({ length: 120 }, (_, i) => `Line ${i} of a long passage about compost heaps.`).join('\n');
    ollama.calls.reset();
    const [v] = await e.embedDocuments([{ text: long, title: '' }]);
    expect(Math.hypot(...v!)).toBeCloseTo(1, 5);
    const sent = ollama.calls.entries.filter((c) => c.path === '/api/embed').flatMap((c) => (c.body as { input: string[] }).input);
    expect(sent.length).toBeGreaterThan(1);
    // Every input sent fits the model by the reference tokenizer: Ollama never had to refuse one.
    for (const input of sent) expect(standinVocabulary('qwen2').encode(input).length).toBeLessThanOrEqual(512);
    ollama.calls.reset();
    await expect(e.embedQuery(long)).rejects.toMatchObject({ code: 'INPUT_TOO_LONG' });
    expect(ollama.calls.count('/api/embed')).toBe(0);
  });

  it('splits text in halves at a line break near the middle, never inside a character', () => {
    expect(halves('aaaa\nbbbb cc')).toEqual(['aaaa', '\nbbbb cc']);
    const [a, b] = halves('😀😀😀');
    expect(a + b).toBe('😀😀😀');
    expect(a.length % 2).toBe(0);
  });

  it('refuses a chat model as an embedding model', async () => {
    await expect(Embedder.resolve(new OllamaGateway({ host: ollama.url }), 'llama3.2')).rejects.toMatchObject({ code: 'WRONG_MODEL_KIND', message: expect.stringMatching(/not an embedding model/) });
  });
});

describe('a plain http:// host that is really an HTTPS port', () => {
  // What a TLS-terminating proxy answers to plain HTTP on its port: Go's servers (Caddy, Traefik)
  // answer 400 with a sentence, nginx with an HTML page.
  const answers = {
    go: { type: 'text/plain; charset=utf-8', body: 'Client sent an HTTP request to an HTTPS server.\n' },
    nginx: {
      type: 'text/html',
      body: '<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was sent to HTTPS port</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    },
  };
  for (const [name, answer] of Object.entries(answers)) {
    it(`says to use https:// (${name}), not the proxy's page`, async () => {
      const http = await import('node:http');
      const server = http.createServer((_req, res) => {
        res.writeHead(400, { 'content-type': answer.type });
        res.end(answer.body);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      try {
        const e = await new OllamaGateway({ host: url }).withOptions({ retries: 0 }).listModels().catch((x: unknown) => x);
        expect(e).toBeInstanceOf(QuireError);
        expect((e as QuireError).code).toBe('OLLAMA_ERROR');
        expect((e as QuireError).message).toBe(`The server at ${url} speaks HTTPS, not plain HTTP: use https:// in the Ollama host.`);
      } finally {
        server.close();
      }
    });
  }

  it('any other refusal is quoted briefly, as text, never as a page of HTML', async () => {
    const http = await import('node:http');
    const server = http.createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'text/html' });
      res.end(`<html><head><title>Bad gateway thing</title></head><body><p>The upstream   said no.</p>${'<p>padding</p>'.repeat(200)}</body></html>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const e = (await new OllamaGateway({ host: url }).withOptions({ retries: 0 }).listModels().catch((x: unknown) => x)) as QuireError;
      expect(e.message).toMatch(/^Ollama answered 400: Bad gateway thing The upstream said no\./);
      expect(e.message).not.toMatch(/[<>]/);
      expect(e.message.length).toBeLessThan(260);
    } finally {
      server.close();
    }
  });
});
