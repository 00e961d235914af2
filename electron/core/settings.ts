import type { HostSource } from '../../shared/ollama-state';
import { QuireError, toErrorShape, type QuireErrorShape } from '../../shared/errors';
import { formatFusion, parseFusion } from '../../shared/fusion';
import {
  mergeHeaders,
  NUMERIC_SETTINGS,
  OLLAMA_HEADERS,
  OllamaHeadersPatchSchema,
  SETTING_KEYS,
  SETTINGS,
  SettingsPatchSchema,
  type HeaderStorage,
  type OllamaHeaders,
  type OllamaHeadersPatch,
  type SettingKey,
  type Settings,
  type SettingsPatch,
  type SettingsView,
} from '../../shared/settings';
import type { Db } from './db/open';
import { getSetting, setSetting, writeScrubbed } from './db/settings';
import { checkHeaders, parseHeadersJson } from './ollama/headers';
import { resolveOllamaHost } from './ollama/host';
import { openStoredHeaders, parseStoredHeaders, patchStoredHeaders, plainCount, sealPlainHeaders, type StoredHeaders, type UnreadableHeader } from './secrets/saved-headers';
import type { SecretBox } from './secrets/secret-box';

/** A patch checked and normalised, ready to store: the settings, and the saved headers after it. */
export interface CheckedPatch {
  values: Partial<Settings>;
  /** The saved headers once the patch's changes are applied; null when the patch leaves them alone. */
  headers: OllamaHeaders | null;
  /** The patch's changes to the saved headers, as given; null when it leaves them alone. */
  headersPatch: OllamaHeadersPatch | null;
}

/**
 * The settings the app saved, read and written only here (the table of keys, defaults and bounds
 * is shared/settings.ts). A stored value that no longer passes its schema (an older Quire's, or
 * one edited by hand) is ignored in favour of the default rather than failing every request.
 *
 * Saved request header values are sealed by the SecretBox when it really protects
 * (secrets/saved-headers.ts holds the stored form); a value that cannot be opened here is not sent,
 * and the view says so by name.
 */
/** How long a saved header value the keychain failed to open waits before it is tried again. */
export const REOPEN_AFTER_MS = 60_000;

export class SettingsStore {
  /** The saved headers opened, for the stored text they came from: opening may ask the system keychain, so not on every request. */
  private opened: { raw: string | null; at: number; result: ReturnType<typeof openStoredHeaders> } | null = null;

  constructor(
    private readonly db: Db,
    /** The environment's OLLAMA_HOST (the host when none is saved) and QUIRE_OLLAMA_HEADERS (headers Settings do not override). */
    private readonly env: { OLLAMA_HOST?: string | undefined; QUIRE_OLLAMA_HEADERS?: string | undefined } = process.env,
    /** Told after a patch is stored, with the embedding model before and the settings after (the engine reacts to a new model). */
    private readonly onChange?: (before: Pick<Settings, 'embedModel'>, after: Settings) => void,
    /** Told when onChange throws; a process warning (stderr) unless given. */
    private readonly onChangeFailed: (error: QuireErrorShape) => void = (error) => process.emitWarning(`Settings were saved, but reacting to the change failed: ${error.message}`, { code: `QUIRE_${error.code}` }),
    /** Seals saved header values at rest (the desktop app's safeStorage); none in the CLI, browser mode and tests. */
    private readonly box: SecretBox | null = null,
  ) {}

  get<K extends SettingKey>(key: K): Settings[K] {
    const saved = this.saved(key);
    if (saved !== undefined) return normalise(key, saved);
    if (key === 'ollamaHost') return hostFromEnvironment(this.env.OLLAMA_HOST) as Settings[K];
    return SETTINGS[key].fallback as Settings[K];
  }

  /** Where a setting's value comes from: saved, the environment (an unsaved host from OLLAMA_HOST) or its default. */
  source(key: SettingKey): HostSource {
    if (this.saved(key) !== undefined) return 'saved';
    return key === 'ollamaHost' && this.env.OLLAMA_HOST?.trim() ? 'environment' : 'default';
  }

  /** The stored value when it is one the table accepts (a damaged or outgrown one reads as unsaved). */
  private saved<K extends SettingKey>(key: K): Settings[K] | undefined {
    const raw = getSetting(this.db, SETTINGS[key].storageKey);
    if (raw === null) return undefined;
    const parsed = SETTINGS[key].schema.safeParse(NUMERIC_SETTINGS.includes(key) ? Number(raw) : raw);
    if (!parsed.success || (key === 'ollamaHost' && !usableHost(parsed.data as string))) return undefined;
    return parsed.data as Settings[K];
  }

  all(): Settings {
    return Object.fromEntries(SETTING_KEYS.map((k) => [k, this.get(k)])) as Settings;
  }

  /** The settings with, of the request headers, only their names. */
  view(): SettingsView {
    const { headers: saved, unreadable } = this.openSaved();
    const env = this.environmentHeaders();
    const names: SettingsView['ollamaHeaders'] = [
      ...Object.keys(saved).map((name) => ({ name, source: 'settings' as const })),
      ...unreadable.map(({ name, message }) => ({ name, source: 'settings' as const, unreadable: message })),
      // A saved header that cannot be opened does not hide the environment's of the same name: that one is sent.
      ...Object.keys(mergeHeaders(env, Object.fromEntries(Object.keys(saved).map((n) => [n, null])))).map((name) => ({ name, source: 'environment' as const })),
    ];
    return { ...this.all(), ollamaHeaders: names, ollamaHeaderStorage: this.headerStorage() };
  }

  /** Saved headers that are not sent because their value cannot be opened here. */
  unreadableHeaders(): UnreadableHeader[] {
    return this.openSaved().unreadable;
  }

  /** Whether saved values are sealed at rest here, as a sentence for Settings and `quire status`. */
  headerStorage(): HeaderStorage {
    const box = this.box;
    if (box?.protects) {
      const plain = plainCount(this.storedHeaders());
      const detail = `Saved values are encrypted with ${box.description}.`;
      return { sealed: true, detail: plain === 0 ? detail : `${detail} ${plain === 1 ? 'One saved value' : `${plain} saved values`} could not be sealed yet and ${plain === 1 ? 'is' : 'are'} stored unencrypted; save ${plain === 1 ? 'it' : 'them'} again.` };
    }
    const why = box ? box.description : 'no system keychain is used here; the desktop app seals them where the system offers one';
    return { sealed: false, detail: `Saved values are stored unencrypted in Quire's database (${why}): anyone with a copy of the file can read them. Prefer ${OLLAMA_HEADERS.env} or --ollama-header for a token.` };
  }

  /**
   * Seals the saved values still stored as they are (from an older Quire, the CLI or browser mode),
   * when the box really protects: what the app does each time it opens the database. A refusal (no
   * keychain now, the database busy) leaves every stored value as it was. Returns how many were sealed.
   */
  sealSavedHeaders(): number {
    const box = this.box;
    if (!box?.protects) return 0;
    const stored = this.storedHeaders();
    const plain = plainCount(stored);
    if (plain === 0) return 0;
    const sealed = sealPlainHeaders(stored, box);
    writeScrubbed(this.db, () => setSetting(this.db, OLLAMA_HEADERS.storageKey, JSON.stringify(sealed)));
    return plain;
  }

  /**
   * Takes over the saved headers read from a damaged database (rebuild, or the app starting over),
   * entries as they were stored, sealed ones included (the same keychain opens them), then seals
   * any plain one as sealSavedHeaders does. Entries already saved here win. Returns how many were taken.
   */
  restoreStoredHeaders(raw: string): number {
    const found = Object.entries(parseStoredHeaders(raw)).filter(([name]) => OllamaHeadersPatchSchema.safeParse({ [name]: null }).success);
    const current = this.storedHeaders();
    const taken = found.filter(([name]) => !Object.keys(current).some((n) => n.toLowerCase() === name.toLowerCase())).slice(0, Math.max(0, OLLAMA_HEADERS.maxCount - Object.keys(current).length));
    if (taken.length === 0) return 0;
    const merged = this.sealedWhereAllowed({ ...current, ...Object.fromEntries(taken) });
    writeScrubbed(this.db, () => setSetting(this.db, OLLAMA_HEADERS.storageKey, JSON.stringify(merged)));
    return taken.length;
  }

  /** The headers every request to Ollama carries: QUIRE_OLLAMA_HEADERS, overridden name by name by the saved ones. */
  headers(): OllamaHeaders {
    return mergeHeaders(this.environmentHeaders(), this.savedHeaders());
  }

  private savedHeaders(): OllamaHeaders {
    return this.openSaved().headers;
  }

  private storedHeaders(): StoredHeaders {
    return parseStoredHeaders(getSetting(this.db, OLLAMA_HEADERS.storageKey));
  }

  private openSaved(): ReturnType<typeof openStoredHeaders> {
    const raw = getSetting(this.db, OLLAMA_HEADERS.storageKey);
    const now = Date.now();
    // A value the keychain failed to open is tried again now and then, not only after a restart: the
    // person may have denied a keychain prompt and then allowed it. Not on every request, which could
    // raise a prompt each time.
    const stale = this.opened !== null && this.opened.result.openFailed && now - this.opened.at >= REOPEN_AFTER_MS;
    if (this.opened?.raw !== raw || stale) this.opened = { raw, at: now, result: openStoredHeaders(parseStoredHeaders(raw), this.box) };
    return this.opened!.result;
  }

  /** Refused with a sentence naming the variable: a bad QUIRE_OLLAMA_HEADERS is not silently dropped. */
  private environmentHeaders(): OllamaHeaders {
    return parseHeadersJson(this.env.QUIRE_OLLAMA_HEADERS, OLLAMA_HEADERS.env);
  }

  /** Validates and normalises a whole patch without storing it; a bad value is refused with a sentence. */
  check(patch: SettingsPatch | Partial<Record<SettingKey, unknown>>): CheckedPatch {
    const checked = SettingsPatchSchema.safeParse(patch);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const key = issue.path[0] as SettingKey | 'ollamaHeaders' | undefined;
      if (key === 'ollamaHeaders') checkHeaders(Object.fromEntries(Object.entries((patch as SettingsPatch).ollamaHeaders ?? {}).map(([n, v]) => [n, v ?? ''])), OLLAMA_HEADERS.label);
      const label = key === 'ollamaHeaders' ? OLLAMA_HEADERS.label : key && key in SETTINGS ? SETTINGS[key].label : String(key ?? 'setting');
      const sentence = issue.message.startsWith(label) ? issue.message : `${label}: ${issue.message}`;
      throw new QuireError('INVALID_ARGUMENT', `${sentence}. The saved value is kept.`);
    }
    const { ollamaHeaders, ...values } = checked.data as Partial<Settings> & { ollamaHeaders?: SettingsPatch['ollamaHeaders'] };
    if (values.ollamaHost !== undefined) {
      try {
        values.ollamaHost = resolveOllamaHost(values.ollamaHost);
      } catch (e) {
        throw new QuireError('INVALID_ARGUMENT', `${SETTINGS.ollamaHost.label}: ${(e as Error).message} The saved value is kept.`);
      }
    }
    const headers = ollamaHeaders ? checkHeaders(mergeHeaders(this.savedHeaders(), ollamaHeaders), OLLAMA_HEADERS.label) : null;
    // Saved values that cannot be opened here are kept, so they count towards the limit too.
    if (ollamaHeaders && Object.keys(patchStoredHeaders(this.storedHeaders(), ollamaHeaders, null)).length > OLLAMA_HEADERS.maxCount) {
      throw new QuireError('INVALID_ARGUMENT', `${OLLAMA_HEADERS.label}: at most ${OLLAMA_HEADERS.maxCount} headers. The saved value is kept.`);
    }
    return { values, headers, headersPatch: ollamaHeaders ?? null };
  }

  /** Validates the whole patch first; a bad value is refused with a sentence and nothing is stored. */
  set(patch: SettingsPatch | Partial<Record<SettingKey, unknown>>): Settings {
    const { values, headersPatch } = this.check(patch);
    // Read after the checks, and without the host: a bad OLLAMA_HOST must not stop a good host being saved.
    const before = this.onChange ? { embedModel: this.get('embedModel') } : null;
    const stored = headersPatch ? this.sealedForWrite(headersPatch) : null;
    const write = () => {
      for (const key of Object.keys(values) as SettingKey[]) {
        setSetting(this.db, SETTINGS[key].storageKey, String(normalise(key, values[key] as Settings[typeof key])));
      }
      if (stored) setSetting(this.db, OLLAMA_HEADERS.storageKey, JSON.stringify(stored));
    };
    // A header value replaced or removed must not linger in the file's free space.
    if (stored) writeScrubbed(this.db, write);
    else this.db.transaction(write).immediate();
    const after = this.all();
    // The patch is committed: whatever the reaction does, the save succeeded and says so. Its
    // failure is reported on its own (e.g. a model switch left for the embedding job to finish).
    if (before) {
      try {
        this.onChange!(before, after);
      } catch (e) {
        this.onChangeFailed(toErrorShape(e));
      }
    }
    return after;
  }

  /**
   * The stored headers after a patch, every value sealed when the box protects. A new value the box
   * refuses to seal stores nothing and says so without the value; plain values already stored are
   * sealed too when the box allows, else left as they were, so removing a header never needs the keychain.
   */
  private sealedForWrite(patch: OllamaHeadersPatch): StoredHeaders {
    let next: StoredHeaders;
    try {
      next = patchStoredHeaders(this.storedHeaders(), patch, this.box);
    } catch {
      throw new QuireError('WRITE_FAILED', `${OLLAMA_HEADERS.label} were not saved: ${this.box?.description ?? 'the system keychain'} refused to encrypt them. The saved values are kept.`);
    }
    return this.sealedWhereAllowed(next);
  }

  /** Plain entries sealed when the box protects and agrees; else as they were, sealed the next time the app opens the database. */
  private sealedWhereAllowed(stored: StoredHeaders): StoredHeaders {
    if (!this.box?.protects) return stored;
    try {
      return sealPlainHeaders(stored, this.box);
    } catch {
      return stored;
    }
  }
}

function normalise<K extends SettingKey>(key: K, value: Settings[K]): Settings[K] {
  if (key === 'fusion') return formatFusion(parseFusion(value as string)!) as Settings[K];
  if (key === 'chatModel' || key === 'embedModel') return (value as string).trim() as Settings[K];
  return value;
}

/** A saved host from an older Quire that no longer passes the check is ignored, like any stale value. */
function usableHost(host: string): boolean {
  try {
    resolveOllamaHost(host);
    return true;
  } catch {
    return false;
  }
}

/** OLLAMA_HOST, or a refusal that names it: it is not silently replaced by another host. */
function hostFromEnvironment(value: string | undefined): string {
  try {
    return resolveOllamaHost(value);
  } catch (e) {
    throw new QuireError('INVALID_ARGUMENT', `OLLAMA_HOST: ${(e as Error).message} Fix or unset it, or save a host in Settings.`, { cause: e });
  }
}
