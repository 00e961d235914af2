import diagnostics from 'node:diagnostics_channel';
import { describe, expect, it, vi } from 'vitest';
import { useEngineFixture } from './support/engine-fixture';

/**
 * Hybrid search asks Ollama for the query's embedding and runs keyword search while it is computed.
 * Keyword search is synchronous, so the request must be on the wire before it starts, or the two
 * add up after all: told by the HTTP client's own diagnostics (undici, which fetch uses) and by
 * keyword search being called, in order, with no timing involved.
 */
const events = vi.hoisted(() => [] as string[]);
vi.mock('../electron/core/retrieve/lexical', async (original) => {
  const real = await original<typeof import('../electron/core/retrieve/lexical')>();
  return {
    ...real,
    lexicalSearch: (...args: Parameters<typeof real.lexicalSearch>) => {
      events.push('keyword search');
      return real.lexicalSearch(...args);
    },
  };
});

const f = useEngineFixture({
  prefix: 'quire-overlap-',
  notes: { 'rotation.md': '# Key rotation\n\nThe deploy keys are rotated every 90 days by the platform team.\n' },
});

describe('hybrid search', () => {
  it("sends the query's embedding request before it runs keyword search", async () => {
    await f.engine.importFolder({ path: f.notes.root });
    await f.engine.embedMissing({});
    const sent = (message: unknown) => {
      const { request } = message as { request: { path: string } };
      if (request.path.startsWith('/api/embed')) events.push('embedding request sent');
    };
    diagnostics.subscribe('undici:client:sendHeaders', sent);
    try {
      events.length = 0;
      const r = await f.engine.search({ query: 'how often are keys rotated', mode: 'hybrid' });
      expect(r.mode).toBe('hybrid');
      expect(events).toEqual(['embedding request sent', 'keyword search']);
      // Keyword mode asks Ollama nothing.
      events.length = 0;
      await f.engine.search({ query: 'how often are keys rotated', mode: 'lexical' });
      expect(events).toEqual(['keyword search']);
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', sent);
    }
  });

  it('falls back to the keyword search it already ran, once, with the reason, when the embedding fails after it', async () => {
    await f.engine.importFolder({ path: f.notes.root });
    await f.engine.embedMissing({});
    await f.engine.search({ query: 'how often are keys rotated', mode: 'hybrid' });
    // A refusal (400) is not retried: the one embedding request of this search fails.
    f.ollama.faults.failNth = { path: '/api/embed', n: 1, status: 400, message: 'embedding refused' };
    events.length = 0;
    const r = await f.engine.search({ query: 'how often are keys rotated', mode: 'hybrid' });
    expect(r.mode).toBe('lexical');
    expect(r.fallback).toMatchObject({ requested: 'hybrid', code: 'OLLAMA_ERROR' });
    expect(r.fallback?.reason).toMatch(/embedding refused/);
    expect(r.results[0]?.path).toBe('rotation.md');
    expect(events).toEqual(['keyword search']);
  });

  it('is cancelled, not answered by keywords, when its signal ends while the embedding is computed', async () => {
    await f.engine.importFolder({ path: f.notes.root });
    await f.engine.embedMissing({});
    await f.engine.search({ query: 'how often are keys rotated', mode: 'hybrid' });
    f.ollama.faults.latencyMs = 2_000;
    try {
      const stop = new AbortController();
      const asked = f.engine.search({ query: 'how often are keys rotated', mode: 'hybrid' }, stop.signal);
      setTimeout(() => stop.abort(), 50);
      await expect(asked).rejects.toMatchObject({ code: 'CANCELLED' });
    } finally {
      f.ollama.faults.latencyMs = 0;
    }
  });
});
