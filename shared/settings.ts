import { z } from 'zod';
import { DEFAULT_FUSION, formatFusion, FUSION_USAGE, parseFusion } from './fusion';
import { SEARCH_MODES, type SearchMode } from './search';

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
  /** Chunks from which dense search goes in two stages (coarse bits, then exact rescoring). */
  denseQuantizeAbove: { min: 100, max: 100_000_000 },
  /** Embedding requests an import keeps out at once while it reads on (more only queue inside Ollama). */
  embedBatchesInFlight: { min: 1, max: 8 },
  /** The largest file an import reads, in MB: a book's PDF with its pictures is often 20–100 MB. */
  maxFileMb: { min: 1, max: 4096 },
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
  embedBatchesInFlight: { storageKey: 'embed_batches_in_flight', schema: int('Embedding requests in flight', BOUNDS.embedBatchesInFlight), fallback: 2, label: 'Embedding requests in flight' },
  /** Larger files are skipped with their size and this limit named (every import: the app's, a watched folder's, the CLI's unless --max-file-mb). */
  maxFileMb: { storageKey: 'max_file_mb', schema: int('Largest file to import (MB)', BOUNDS.maxFileMb), fallback: 20, label: 'Largest file to import (MB)' },
  /**
   * From this many chunks, dense search takes a coarse pass on each vector's sign bits and rescores
   * the candidates exactly (retrieve/dense.ts); below it, exact search over every vector.
   */
  denseQuantizeAbove: { storageKey: 'dense_quantize_above', schema: int('Two-stage vector search from (chunks)', BOUNDS.denseQuantizeAbove), fallback: 20_000, label: 'Two-stage vector search from (chunks)' },
  /**
   * How answers and passage searches search when the call names no mode (retrieve/search.ts reads
   * it). With a weak embedding model keyword search alone can rank far better than hybrid, and an
   * evaluation that says so must be able to make the app answer that way.
   */
  searchMode: {
    storageKey: 'search_mode',
    schema: z.enum(SEARCH_MODES, { error: `Search mode takes ${SEARCH_MODES.slice(0, -1).join(', ')} or ${SEARCH_MODES.at(-1)}` }),
    fallback: 'hybrid' as SearchMode,
    label: 'Search mode',
  },
  /** How hybrid search joins keyword and vector rankings: weighted:0.2 (default) or rrf:60 (shared/fusion.ts). */
  fusion: { storageKey: 'fusion', schema: z.string().max(40).refine((s) => parseFusion(s) !== null, { error: FUSION_USAGE }), fallback: formatFusion(DEFAULT_FUSION), label: 'Hybrid fusion' },
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
  searchMode: SETTINGS.searchMode.schema,
  fusion: SETTINGS.fusion.schema,
  denseQuantizeAbove: SETTINGS.denseQuantizeAbove.schema,
  embedBatchesInFlight: SETTINGS.embedBatchesInFlight.schema,
  maxFileMb: SETTINGS.maxFileMb.schema,
});
export type Settings = z.output<typeof SettingsSchema>;

/** Which settings hold numbers (stored as text, read back as numbers). */
export const NUMERIC_SETTINGS: readonly SettingKey[] = ['k', 'chunkTokens', 'numCtx', 'denseQuantizeAbove', 'embedBatchesInFlight', 'maxFileMb'];

// ---- request headers for Ollama ------------------------------------------------------------

/**
 * Headers sent with every request to Ollama: a team's shared Ollama behind a reverse proxy wants,
 * say, `Authorization: Bearer …`. Their values are secrets: written (Settings, QUIRE_OLLAMA_HEADERS,
 * the CLI's --ollama-header) and sent, never read back, logged or echoed in an error. They are not
 * in SETTINGS because nothing returns them; only their names are shown.
 */
export const OLLAMA_HEADERS = { storageKey: 'ollama_headers', env: 'QUIRE_OLLAMA_HEADERS', label: 'Ollama request headers', maxCount: 20 } as const;

/** RFC 9110's token characters. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** Set by the client itself, or by the connection: a header of ours would be dropped or break the request. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'accept', 'user-agent', 'transfer-encoding', 'connection']);

const headerName = z
  .string()
  .regex(HEADER_NAME, { error: 'a header name is letters, digits and - (e.g. Authorization)' })
  .refine((n) => !RESERVED_HEADERS.has(n.toLowerCase()), { error: 'that header is set by Quire itself' });
// Messages never quote the value: it is a secret.
const headerValue = z.string().max(4096, { error: 'a header value is at most 4,096 characters' }).regex(/^[^\r\n\0]*$/, { error: 'a header value may not hold line breaks' });

/** Headers as stored and sent: name → value. */
export const OllamaHeadersSchema = z
  .record(headerName, headerValue)
  .refine((h) => Object.keys(h).length <= OLLAMA_HEADERS.maxCount, { error: `at most ${OLLAMA_HEADERS.maxCount} headers` });
export type OllamaHeaders = z.output<typeof OllamaHeadersSchema>;

/** A change to the saved headers: a value sets the header, null removes it; headers not named are kept. */
export const OllamaHeadersPatchSchema = z.record(headerName, headerValue.nullable());
export type OllamaHeadersPatch = z.output<typeof OllamaHeadersPatchSchema>;

/**
 * What may be shown of the headers in effect: each one's name and where it comes from (Settings
 * override QUIRE_OLLAMA_HEADERS name by name). Never a value.
 */
export const OllamaHeadersViewSchema = z.array(
  z.object({
    name: z.string(),
    source: z.enum(['settings', 'environment']),
    /** A saved header whose value cannot be opened here (sealed by the desktop app's keychain, or damaged), so it is not sent: why, and what to do. */
    unreadable: z.string().optional(),
  }),
);

/**
 * How saved header values are kept at rest: sealed by the system's keychain where this shell has one
 * that really protects (the desktop app: Keychain, DPAPI, a Linux keyring), else stored as they are,
 * which `detail` says in a sentence.
 */
export const HeaderStorageSchema = z.object({ sealed: z.boolean(), detail: z.string() });
export type HeaderStorage = z.output<typeof HeaderStorageSchema>;

/** Header names are case-insensitive: a patch's `authorization` replaces a saved `Authorization`. */
export function mergeHeaders(base: OllamaHeaders, patch: OllamaHeadersPatch): OllamaHeaders {
  const out: OllamaHeaders = {};
  const patched = new Set(Object.keys(patch).map((n) => n.toLowerCase()));
  for (const [name, value] of Object.entries(base)) if (!patched.has(name.toLowerCase())) out[name] = value;
  for (const [name, value] of Object.entries(patch)) if (value !== null) out[name] = value;
  return out;
}

/** `Name: value` as typed on a command line, or null when there is no colon after a name. */
export function parseHeaderLine(line: string): [string, string] | null {
  const colon = line.indexOf(':');
  if (colon <= 0) return null;
  return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
}

/** setSettings' input: any settings, and changes to the headers (write-only). */
export const SettingsPatchSchema = SettingsSchema.partial().extend({ ollamaHeaders: OllamaHeadersPatchSchema.optional() }).strict();
export type SettingsPatch = z.input<typeof SettingsPatchSchema>;

/** What getSettings returns: the settings, and of the headers only their names. */
export const SettingsViewSchema = SettingsSchema.extend({ ollamaHeaders: OllamaHeadersViewSchema, ollamaHeaderStorage: HeaderStorageSchema });
export type SettingsView = z.output<typeof SettingsViewSchema>;
