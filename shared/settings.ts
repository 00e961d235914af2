import { z } from 'zod';
import { FUSION_USAGE, parseFusion } from './fusion';

/**
 * Every user setting, in one place: its key in the contract, where the engine stores it, its
 * default, its bounds and how a value is checked. The contract's getSettings/setSettings schema,
 * the engine's settings store (electron/core/settings.ts), the CLI's flag limits and the Settings
 * form's fields all derive from this table, so a bound changed here changes everywhere.
 */

/** A whole number with bounds shared by the contract, the CLI's flags and the form. */
export interface IntBounds {
  min: number;
  max: number;
}

export const BOUNDS = {
  /** Passages an answer may send (the source budget may send fewer). */
  k: { min: 1, max: 20 },
  /** Tokens per chunk for the heading chunker. */
  chunkTokens: { min: 32, max: 2048 },
  /** The context window asked of Ollama. */
  numCtx: { min: 512, max: 1_048_576 },
  /** Passages one search returns (a search is cheap and scripts may want many). */
  searchK: { min: 1, max: 100 },
} as const satisfies Record<string, IntBounds>;

/** A bounded whole number whose every refusal is one sentence naming the setting and its range. */
const int = (label: string, b: IntBounds) => {
  const error = `${label} takes a whole number from ${b.min.toLocaleString('en')} to ${b.max.toLocaleString('en')}`;
  return z.number({ error }).int({ error }).min(b.min, { error }).max(b.max, { error });
};

/** The default chat and embedding models: small, common, and good enough to start with. */
export const DEFAULT_CHAT_MODEL = 'llama3.2';
export const DEFAULT_EMBED_MODEL = 'embeddinggemma';
/** Where Ollama listens unless OLLAMA_HOST or the saved setting says otherwise. */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

/**
 * The settings table. `storageKey` is the row in the database's settings table (names predate the
 * contract's, and existing databases keep them); `fallback` is the default when nothing is stored
 * (the Ollama host's default is resolved from the environment by the engine, see ollama/host.ts).
 */
export const SETTINGS = {
  ollamaHost: { storageKey: 'ollama_host', schema: z.string().min(1).max(500), fallback: DEFAULT_OLLAMA_HOST, label: 'Ollama host' },
  chatModel: { storageKey: 'chat_model', schema: z.string().trim().min(1).max(200), fallback: DEFAULT_CHAT_MODEL, label: 'Chat model' },
  embedModel: { storageKey: 'embed_model', schema: z.string().trim().min(1).max(200), fallback: DEFAULT_EMBED_MODEL, label: 'Embedding model' },
  k: { storageKey: 'k', schema: int('Passages per answer (k)', BOUNDS.k), fallback: 6, label: 'Passages per answer (k)' },
  chunkTokens: { storageKey: 'chunk_tokens', schema: int('Chunk size (tokens)', BOUNDS.chunkTokens), fallback: 256, label: 'Chunk size (tokens)' },
  numCtx: { storageKey: 'num_ctx_cap', schema: int('Context window (num_ctx)', BOUNDS.numCtx), fallback: 8192, label: 'Context window (num_ctx)' },
  /** How hybrid search joins keyword and vector rankings: rrf:60 (default) or weighted:0.3. */
  fusion: { storageKey: 'fusion', schema: z.string().max(40).refine((s) => parseFusion(s) !== null, { error: FUSION_USAGE }), fallback: 'rrf:60', label: 'Hybrid fusion' },
} as const;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export const SettingsSchema = z.object({
  ollamaHost: SETTINGS.ollamaHost.schema,
  chatModel: SETTINGS.chatModel.schema,
  embedModel: SETTINGS.embedModel.schema,
  k: SETTINGS.k.schema,
  chunkTokens: SETTINGS.chunkTokens.schema,
  numCtx: SETTINGS.numCtx.schema,
  fusion: SETTINGS.fusion.schema,
});
export type Settings = z.output<typeof SettingsSchema>;

/** Which settings hold numbers (stored as text, read back as numbers). */
export const NUMERIC_SETTINGS: readonly SettingKey[] = ['k', 'chunkTokens', 'numCtx'];
