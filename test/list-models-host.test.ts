import { describe, expect, it } from 'vitest';
import { createEngine } from '../electron/core/engine';
import { toErrorShape } from '../shared/errors';
import { startStandin } from './support/ollama-standin/server';
import { tempDbPath } from './support/notes';

describe("Settings' model list when the host changes while it is asked", () => {
  it('names the host it asked, not the one saved while its retries ran', async () => {
    const down = await startStandin();
    await down.stop();
    const up = await startStandin();
    const db = tempDbPath('quire-list-host-');
    const engine = createEngine({ dbPath: db.file, env: { OLLAMA_HOST: down.url } });
    try {
      const asked = engine.call('listModels', {}).then(
        () => null,
        (err: unknown) => toErrorShape(err),
      );
      // Saved while the request to the first host is still retrying (as the Settings form does).
      engine.settings.set({ ollamaHost: up.url });
      const e = await asked;
      expect(e?.code).toBe('OLLAMA_UNREACHABLE');
      expect(e?.message).toMatch(new RegExp(`^Could not list models at ${down.url.replace(/[.:/]/g, '\\$&')}: `));
      expect(e?.message).not.toContain(up.url);
    } finally {
      await engine.close();
      await down.close();
      await up.close();
      db.dispose();
    }
  });
});

describe("Settings' model list at a host where nothing answers", () => {
  it('asks twice (one quick retry, as a search does), not four times with backoff: a person is waiting at the form', async () => {
    const net = await import('node:net');
    let connections = 0;
    // Accepts and hangs up at once: each attempt is one connection, counted without timing anything.
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const host = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const db = tempDbPath('quire-list-dead-');
    const engine = createEngine({ dbPath: db.file, env: { OLLAMA_HOST: host } });
    try {
      const e = await engine.call('listModels', {}).then(
        () => null,
        (err: unknown) => toErrorShape(err),
      );
      expect(e?.code).toBe('OLLAMA_UNREACHABLE');
      expect(connections).toBe(2);
    } finally {
      await engine.close();
      server.close();
      db.dispose();
    }
  });
});

describe("Settings' and Evaluate's model list", () => {
  it('says what each model does, as /api/show does, so embedding models are told from chat models by more than their names', async () => {
    const ollama = await startStandin();
    const db = tempDbPath('quire-list-capabilities-');
    const engine = createEngine({ dbPath: db.file, env: { OLLAMA_HOST: ollama.url } });
    try {
      const { models } = (await engine.call('listModels', {})) as { models: Array<{ name: string; capabilities?: string[] }> };
      const of = (name: string) => models.find((m) => m.name === name)?.capabilities;
      expect(of('embeddinggemma:latest')).toContain('embedding');
      expect(of('embeddinggemma:latest')).not.toContain('completion');
      expect(of('llama3.2:latest')).toContain('completion');
    } finally {
      await engine.close();
      await ollama.close();
      db.dispose();
    }
  });
});
