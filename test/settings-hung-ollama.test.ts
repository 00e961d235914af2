import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../electron/core/engine';
import { toErrorShape } from '../shared/errors';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { tempDbPath } from './support/notes';

/**
 * A team's shared Ollama that hangs (takes the request, never answers): what Settings asks of it
 * reads as the gateway's timeout, naming the host, as the status bar does, never "Cancelled."
 * The engine's gateway gives up after 1 s here (ollamaTimeoutMs), and every quick call with it.
 */
let ollama: Standin;
let db: ReturnType<typeof tempDbPath>;
let engine: Engine;

beforeAll(async () => {
  ollama = await startStandin();
});
beforeEach(() => {
  db = tempDbPath('quire-settings-hung-');
  engine = createEngine({ dbPath: db.file, env: { OLLAMA_HOST: ollama.url }, ollamaTimeoutMs: 1000 });
  ollama.faults.hang = true;
});
afterEach(async () => {
  ollama.faults.hang = false;
  await engine.close();
  db.dispose();
});
afterAll(async () => {
  await ollama?.close();
});

const failureOf = (p: Promise<unknown>) => p.then(
  () => null,
  (e: unknown) => toErrorShape(e),
);

describe('Settings at a server that hangs', () => {
  it("the model list says Ollama did not answer in time, at its host (OLLAMA_TIMEOUT), not that it was cancelled", async () => {
    expect(await failureOf(engine.call('listModels', {}))).toEqual({
      code: 'OLLAMA_TIMEOUT',
      message: `Could not list models at ${ollama.url}: Ollama at ${ollama.url} did not answer within 1 s.`,
    });
  });

  it('a chat model saved there is refused with the same timeout, and the saved one stays', async () => {
    expect(await failureOf(engine.call('setSettings', { chatModel: 'qwen2.5:0.5b' }))).toEqual({
      code: 'OLLAMA_TIMEOUT',
      message: `Chat model "qwen2.5:0.5b" was not saved: Ollama could not confirm it has it. Ollama at ${ollama.url} did not answer within 1 s. Save it anyway only if you will pull it later (--force; "Save anyway" in Settings).`,
    });
    expect(engine.settings.get('chatModel')).toBe('llama3.2');
  });
});
