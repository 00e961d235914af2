/**
 * The saved Ollama request headers as they sit in the settings table: a JSON object of header name
 * to either the value itself (plain: what Quire stored before sealing, and what a shell without a
 * protecting box stores) or `{ sealed, by }`, the value sealed by a SecretBox. One entry per header,
 * so a value that cannot be opened (sealed by the desktop app, read by the CLI; damaged) costs only
 * that header, and is kept as it is until someone replaces or removes it.
 */
import { z } from 'zod';
import { OllamaHeadersSchema, type OllamaHeaders, type OllamaHeadersPatch } from '../../../shared/settings';
import type { SecretBox } from './secret-box';

const SealedSchema = z.object({ sealed: z.string().min(1), by: z.string().min(1) }).strict();
const StoredSchema = z.record(z.string(), z.union([z.string(), SealedSchema]));

export type StoredHeaders = z.output<typeof StoredSchema>;

/** A saved header that is not sent: its name and a sentence saying why and what to do (never its value). */
export interface UnreadableHeader {
  name: string;
  message: string;
}

/** The stored text as entries; anything else (hand-edited, from a future Quire) counts as none, like any stale setting. */
export function parseStoredHeaders(raw: string | null): StoredHeaders {
  if (raw === null || raw.trim() === '') return {};
  try {
    const parsed = StoredSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function plainCount(stored: StoredHeaders): number {
  return Object.values(stored).filter((v) => typeof v === 'string').length;
}

/** The headers that can be sent, and a sentence for each one that cannot be opened here. */
export function openStoredHeaders(stored: StoredHeaders, box: SecretBox | null): { headers: OllamaHeaders; unreadable: UnreadableHeader[]; openFailed: boolean } {
  const headers: OllamaHeaders = {};
  const unreadable: UnreadableHeader[] = [];
  // Whether the keychain itself failed to open a value: that may pass (a refusal the person takes back).
  let openFailed = false;
  for (const [name, entry] of Object.entries(stored)) {
    let value: string | null = null;
    let why = 'is not a valid header value (damaged)';
    if (typeof entry === 'string') value = entry;
    else if (!box) why = "is sealed by the desktop app's keychain, which only the desktop app can open";
    else if (box.id !== entry.by) why = `was sealed by another kind of keychain (${entry.by}) and cannot be opened here`;
    else {
      try {
        value = box.open(entry.sealed);
      } catch {
        openFailed = true;
        why = `could not be opened with ${box.description}: it is damaged, was sealed by another user, computer or keyring, or the keychain refused`;
      }
    }
    if (value !== null && OllamaHeadersSchema.safeParse({ [name]: value }).success) headers[name] = value;
    else unreadable.push({ name, message: `The saved value of the Ollama request header ${name} ${why}; requests go without it. Pass it with --ollama-header "${name}: …" or QUIRE_OLLAMA_HEADERS, or save it again in Settings.` });
  }
  return { headers, unreadable, openFailed };
}

/**
 * The stored entries after a patch (a value sets, null removes; names case-insensitive as in
 * mergeHeaders). New values are sealed when the box really protects; entries not named are kept as
 * they are, sealed or not. Throws when the box refuses (nothing is then stored).
 */
export function patchStoredHeaders(stored: StoredHeaders, patch: OllamaHeadersPatch, box: SecretBox | null): StoredHeaders {
  const patched = new Set(Object.keys(patch).map((n) => n.toLowerCase()));
  const out: StoredHeaders = {};
  for (const [name, entry] of Object.entries(stored)) if (!patched.has(name.toLowerCase())) out[name] = entry;
  for (const [name, value] of Object.entries(patch)) if (value !== null) out[name] = sealed(value, box);
  return out;
}

/** Every plain entry sealed (a box that protects); throws when the box refuses, leaving the caller's entries as they were. */
export function sealPlainHeaders(stored: StoredHeaders, box: SecretBox): StoredHeaders {
  return Object.fromEntries(Object.entries(stored).map(([name, entry]) => [name, typeof entry === 'string' ? sealed(entry, box) : entry]));
}

function sealed(value: string, box: SecretBox | null): StoredHeaders[string] {
  return box?.protects ? { sealed: box.seal(value), by: box.id } : value;
}
