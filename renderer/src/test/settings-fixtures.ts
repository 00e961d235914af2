import type { Output } from '../../../shared/contract';

type SettingsView = Output<'getSettings'>;

/** A getSettings answer for renderer tests: the defaults at a local Ollama, no saved headers, unless overridden. */
export function settingsView(over: Partial<SettingsView> = {}): SettingsView {
  return {
    ollamaHost: 'http://127.0.0.1:11434',
    chatModel: 'llama3.2',
    embedModel: 'embeddinggemma',
    k: 6,
    chunkTokens: 256,
    numCtx: 8192,
    searchMode: 'hybrid',
    fusion: 'rrf:60',
    denseQuantizeAbove: 20000,
    embedBatchesInFlight: 2,
    maxFileMb: 20,
    ollamaHeaders: [],
    ollamaHeaderStorage: { sealed: false, detail: 'Saved values are stored unencrypted.' },
    ...over,
  };
}
