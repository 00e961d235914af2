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
