import { describe, expect, it } from 'vitest';
import { useEngineFixture } from './support/engine-fixture';

// Saving a chat model as the embedding model (or the reverse) was refused as INVALID_ARGUMENT, which
// Settings showed as "Quire could not accept that input.": now its own code (the Settings sentence
// for it: renderer/src/api/messages.test.ts).

const f = useEngineFixture({ prefix: 'quire-model-kind', notes: {} });

describe('a model of the wrong kind chosen in Settings', () => {
  it('is refused as WRONG_MODEL_KIND, naming the model and what it is, and nothing is saved', async () => {
    for (const [patch, is] of [
      [{ embedModel: 'llama3.2' }, 'it is a chat model, not an embedding model'],
      [{ chatModel: 'embeddinggemma' }, 'it is an embedding model, not a chat model'],
    ] as const) {
      const before = await f.engine.call('getSettings', {});
      const r = await f.engine.dispatch('setSettings', patch);
      expect(r).toMatchObject({ ok: false, error: { code: 'WRONG_MODEL_KIND', message: expect.stringContaining(is) } });
      if (!r.ok) expect(r.error.message).toContain(`"${Object.values(patch)[0]}" was not saved`);
      const after = await f.engine.call('getSettings', {});
      expect([after.chatModel, after.embedModel]).toEqual([before.chatModel, before.embedModel]);
    }
  });
});
