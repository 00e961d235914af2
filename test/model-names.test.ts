import { describe, expect, it } from 'vitest';
import { main } from '../electron/cli/run';
import { isLoopbackHost } from '../electron/core/ollama/host';
import { useEngineFixture } from './support/engine-fixture';

/**
 * #16.5: a model name typed in Settings or the CLI is saved only once Ollama lists it; a mistyped
 * one names the installed models and leaves the setting as it was; an unreachable Ollama saves
 * nothing unless the person says "save anyway" (force / --force). The host is stored normalised.
 */
const fx = useEngineFixture({ prefix: 'quire-model-names', notes: { 'keys.md': '# Keys\n\nRotate the deploy keys every ninety days.\n' } });

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) }, env: { QUIRE_DB: fx.dbFile } });
  return { code, out };
}

describe('model names are remembered only when Ollama has them', () => {
  it('Settings: a mistyped chat model is refused, naming the installed models; the saved one stays', async () => {
    const r = await fx.engine.dispatch('setSettings', { chatModel: 'llama3.3', k: 3 });
    expect(r).toMatchObject({ ok: false, error: { code: 'MODEL_NOT_FOUND' } });
    expect(fx.events.slice(1)).toEqual([]); // [0]: the fixture's saving of the stand-in's host
    if (!r.ok) expect(r.error.message).toMatch(/^Chat model "llama3\.3" was not saved: Ollama at \S+ has no model "llama3\.3"\. Installed: .*llama3\.2.*qwen2\.5:0\.5b\./);
    expect(fx.engine.settings.all()).toMatchObject({ chatModel: 'llama3.2', k: 6 });
  });

  it('Settings: an installed model (with or without :latest) is saved, and a model just pulled counts', async () => {
    expect((await fx.engine.call('setSettings', { chatModel: 'qwen2.5:0.5b' })).chatModel).toBe('qwen2.5:0.5b');
    // The status bar re-reads status on this event, so it shows the new chat model at once.
    expect(fx.events.filter((e) => e.type === 'library.changed')).toHaveLength(2); // the fixture's host, then this
    expect((await fx.engine.call('setSettings', { embedModel: 'nomic-embed-text' })).embedModel).toBe('nomic-embed-text');
    await expect(fx.engine.call('setSettings', { chatModel: 'mistral' })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    fx.ollama.addModel({ name: 'mistral:latest', arch: 'llama', capabilities: ['completion'], contextLength: 32768, embeddingLength: 4096, parameterSize: '7B', quantization: 'Q4_0', size: 1 });
    // The model list is cached by the gateway; a name is checked against a fresh one.
    expect((await fx.engine.call('setSettings', { chatModel: 'mistral' })).chatModel).toBe('mistral');
  });

  it('a model checked at the host the same patch saves', async () => {
    const r = await fx.engine.dispatch('setSettings', { ollamaHost: 'http://127.0.0.1:9', chatModel: 'qwen2.5:0.5b' });
    expect(r).toMatchObject({ ok: false, error: { code: 'OLLAMA_UNREACHABLE', message: expect.stringMatching(/^Chat model "qwen2\.5:0\.5b" was not saved: .*127\.0\.0\.1:9.*--force/) } });
    expect(fx.engine.settings.all()).toMatchObject({ ollamaHost: fx.ollama.url, chatModel: 'llama3.2' });
  });

  it('Ollama unreachable: nothing saved, unless forced (a model to pull later)', async () => {
    await fx.ollama.stop();
    try {
      await expect(fx.engine.call('setSettings', { embedModel: 'bge-m3' })).rejects.toMatchObject({ code: 'OLLAMA_UNREACHABLE', message: expect.stringContaining('was not saved') });
      expect(fx.engine.settings.get('embedModel')).toBe('embeddinggemma');
      expect((await fx.engine.call('setSettings', { embedModel: 'bge-m3', force: true })).embedModel).toBe('bge-m3');
    } finally {
      await fx.ollama.start();
    }
  });

  it('a setting other than a model, or the same model again, does not need Ollama', async () => {
    await fx.ollama.stop();
    try {
      expect((await fx.engine.call('setSettings', { k: 4, chatModel: 'llama3.2' })).k).toBe(4);
    } finally {
      await fx.ollama.start();
    }
  });

  it('the host is stored normalised', async () => {
    const port = new URL(fx.ollama.url).port;
    expect((await fx.engine.call('setSettings', { ollamaHost: `localhost:${port}` })).ollamaHost).toBe(`http://localhost:${port}`);
    expect(fx.engine.settings.get('ollamaHost')).toBe(`http://localhost:${port}`);
  });

  it('the CLI: a mistyped --model fails before any work, listing the installed models; --force saves it', async () => {
    const asked = await cli(['ask', 'How often are the keys rotated?', '--model', 'lama3.2']);
    expect(asked.code).toBe(1);
    expect(asked.out).toMatch(/Error \(MODEL_NOT_FOUND\): Chat model "lama3\.2" was not saved: Ollama at .* has no model "lama3\.2"\. Installed: .*llama3\.2/);
    expect(fx.ollama.calls.count('/api/chat')).toBe(0);
    const imported = await cli(['import', fx.notes.root, '--model', 'nomic-embed-txt']);
    expect(imported.code).toBe(1);
    expect(fx.engine.settings.all()).toMatchObject({ chatModel: 'llama3.2', embedModel: 'embeddinggemma' });
    expect((await cli(['embed', '--model', 'bge-m3', '--force'])).out).not.toMatch(/MODEL_NOT_FOUND.*has no model/);
    expect(fx.engine.settings.get('embedModel')).toBe('bge-m3');
  });

  it('status shows the chat model (CLI and contract)', async () => {
    await fx.engine.call('setSettings', { chatModel: 'qwen2.5:0.5b' });
    expect((await fx.engine.call('status', {})).chatModel).toBe('qwen2.5:0.5b');
    const st = await cli(['status']);
    expect(st.out).toMatch(/^Chat model: {2}qwen2\.5:0\.5b$/m);
    expect(st.out).not.toMatch(/questions and document text are sent/);
  });
});

describe('a host on another machine is said to be one', () => {
  it.each([
    ['http://127.0.0.1:11434', true],
    ['http://127.8.0.2:11434', true],
    ['http://localhost:11434', true],
    ['http://[::1]:11434', true],
    ['https://gpu.example.org:443', false],
    ['http://192.168.1.20:11434', false],
    ['http://127.0.0.1.example.org:80', false],
  ])('%s → loopback %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
