// Vocabularies come from Ollama once per model digest, are kept on disk by digest, and go when
// Ollama no longer lists the model.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../../../test/support/ollama-standin/server';
import { OllamaGateway } from '../ollama/gateway';
import { ModelTokens } from './model-tokens';
import { VocabularyStore } from './vocabulary-store';

let ollama: Standin;
let gateway: OllamaGateway;
let dir: string;

beforeAll(async () => {
  ollama = await startStandin();
  gateway = new OllamaGateway({ host: ollama.url, retries: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-vocab-'));
});
afterAll(async () => {
  await ollama.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const verboseShows = () => ollama.calls.entries.filter((c) => c.path === '/api/show' && (c.body as { verbose?: boolean }).verbose === true).length;

describe('ModelTokens', () => {
  it('fetches a vocabulary once per digest, stores it, and a new process reads it from disk', async () => {
    const store = new VocabularyStore(dir);
    const info = await gateway.modelInfo('qwen2.5:0.5b');
    const first = new ModelTokens(gateway, store);
    const [a, b] = await Promise.all([first.counter(info), first.counter(info)]);
    expect(a.ok && b.ok).toBe(true);
    expect(verboseShows()).toBe(1);
    expect(store.digests()).toEqual([info.digest]);
    // Compact on disk: the Qwen vocabulary with its merges in a few MB.
    expect(fs.statSync(path.join(dir, `${info.digest}.vocab.gz`)).size).toBeLessThan(4_000_000);

    const again = new ModelTokens(gateway, new VocabularyStore(dir));
    const c = await again.counter(info);
    expect(verboseShows()).toBe(1);
    if (!a.ok || !c.ok) throw new Error('no counter');
    const messages = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello <|im_start|> 世界' }];
    expect(c.counter.count(messages)).toBe(a.counter.count(messages));
    expect(c.counter.count(messages)).toBeGreaterThan(10);
    // The first fetch started an eviction of models gone from Ollama; nothing of ours went.
    expect(await first.evictGone()).toEqual([]);
  });

  it('says beforehand whether a tokenizer must be fetched from Ollama: not once it is in memory or kept on disk', async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-vocab-fetch-'));
    try {
      const info = await gateway.modelInfo('qwen2.5:0.5b');
      const tokens = new ModelTokens(gateway, new VocabularyStore(own));
      expect(tokens.willFetch(info)).toBe(true);
      await tokens.tokenizer(info);
      expect(tokens.willFetch(info)).toBe(false);
      // Another process with the same data folder reads it from disk.
      expect(new ModelTokens(gateway, new VocabularyStore(own)).willFetch(info)).toBe(false);
      // A tokenizer kind Quire does not count is never fetched.
      expect(tokens.willFetch({ ...info, digest: 'cd'.repeat(32), tokenizer: 'bert' })).toBe(false);
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });

  it('evicts the vocabulary of a model Ollama no longer lists', async () => {
    const store = new VocabularyStore(dir);
    fs.writeFileSync(path.join(dir, `${'ab'.repeat(32)}.vocab.gz`), 'stale');
    const tokens = new ModelTokens(gateway, store);
    const gone = await tokens.evictGone();
    expect(gone).toEqual(['ab'.repeat(32)]);
    expect(store.digests()).toHaveLength(1);
  });

  it('says why a model is not counted exactly', async () => {
    const tokens = new ModelTokens(gateway, null);
    const embed = await tokens.counter(await gateway.modelInfo('nomic-embed-text'));
    expect(embed).toMatchObject({ ok: false });
    ollama.addModel({ name: 'plain-chat:latest', arch: 'llama', capabilities: ['completion'], contextLength: 2048, embeddingLength: 8, parameterSize: '1M', quantization: 'Q4_0', size: 1 });
    const plain = await tokens.counter(await gateway.modelInfo('plain-chat'));
    expect(plain).toMatchObject({ ok: false, reason: expect.stringContaining('template') });
    // A real vocabulary and template, but Ollama renders this model with Go code of its own.
    ollama.addModel({ name: 'rendered-chat:latest', arch: 'qwen2', capabilities: ['completion'], contextLength: 32_768, embeddingLength: 896, parameterSize: '494M', quantization: 'Q4_K_M', size: 1, vocabulary: 'qwen2', renderer: 'qwen3.5' });
    const rendered = await gateway.modelInfo('rendered-chat');
    expect(rendered.renderer).toBe('qwen3.5');
    expect(await tokens.counter(rendered)).toMatchObject({ ok: false, reason: expect.stringContaining('"qwen3.5" renderer') });
    expect((await tokens.counter(await gateway.modelInfo('qwen2.5:0.5b'))).ok).toBe(true);
  });

  it('a damaged file is fetched again, not trusted', async () => {
    const store = new VocabularyStore(dir);
    fs.writeFileSync(path.join(dir, `${'cd'.repeat(32)}.vocab.gz`), 'not gzip');
    expect(store.read('cd'.repeat(32))).toBeNull();
  });
});
