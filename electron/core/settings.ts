import { QuireError, toErrorShape, type QuireErrorShape } from '../../shared/errors';
import { formatFusion, parseFusion } from '../../shared/fusion';
import { NUMERIC_SETTINGS, SETTING_KEYS, SETTINGS, SettingsSchema, type SettingKey, type Settings } from '../../shared/settings';
import type { Db } from './db/open';
import { getSetting, setSetting } from './db/settings';
import { resolveOllamaHost } from './ollama/host';

/**
 * The settings the app saved, read and written only here (the table of keys, defaults and bounds
 * is shared/settings.ts). A stored value that no longer passes its schema (an older Quire's, or
 * one edited by hand) is ignored in favour of the default rather than failing every request.
 */
export class SettingsStore {
  constructor(
    private readonly db: Db,
    /** The environment's OLLAMA_HOST: the host when none is saved. */
    private readonly env: { OLLAMA_HOST?: string | undefined } = process.env,
    /** Told after a patch is stored, with the embedding model before and the settings after (the engine reacts to a new model). */
    private readonly onChange?: (before: Pick<Settings, 'embedModel'>, after: Settings) => void,
    /** Told when onChange throws; a process warning (stderr) unless given. */
    private readonly onChangeFailed: (error: QuireErrorShape) => void = (error) => process.emitWarning(`Settings were saved, but reacting to the change failed: ${error.message}`, { code: `QUIRE_${error.code}` }),
  ) {}

  get<K extends SettingKey>(key: K): Settings[K] {
    const spec = SETTINGS[key];
    const raw = getSetting(this.db, spec.storageKey);
    if (raw !== null) {
      const value = NUMERIC_SETTINGS.includes(key) ? Number(raw) : raw;
      const parsed = spec.schema.safeParse(value);
      if (parsed.success && (key !== 'ollamaHost' || usableHost(parsed.data as string))) return normalise(key, parsed.data as Settings[K]);
    }
    if (key === 'ollamaHost') return hostFromEnvironment(this.env.OLLAMA_HOST) as Settings[K];
    return spec.fallback as Settings[K];
  }

  all(): Settings {
    return Object.fromEntries(SETTING_KEYS.map((k) => [k, this.get(k)])) as Settings;
  }

  /** Validates the whole patch first; a bad value is refused with a sentence and nothing is stored. */
  set(patch: Partial<Record<SettingKey, unknown>>): Settings {
    const checked = SettingsSchema.partial().strict().safeParse(patch);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const key = issue.path[0] as SettingKey | undefined;
      const label = key && key in SETTINGS ? SETTINGS[key].label : String(key ?? 'setting');
      const sentence = issue.message.startsWith(label) ? issue.message : `${label}: ${issue.message}`;
      throw new QuireError('INVALID_ARGUMENT', `${sentence}. The saved value is kept.`);
    }
    const values = checked.data as Partial<Settings>;
    if (values.ollamaHost !== undefined) {
      try {
        values.ollamaHost = resolveOllamaHost(values.ollamaHost);
      } catch (e) {
        throw new QuireError('INVALID_ARGUMENT', `${SETTINGS.ollamaHost.label}: ${(e as Error).message} The saved value is kept.`);
      }
    }
    // Read after the checks, and without the host: a bad OLLAMA_HOST must not stop a good host being saved.
    const before = this.onChange ? { embedModel: this.get('embedModel') } : null;
    const write = this.db.transaction(() => {
      for (const key of Object.keys(values) as SettingKey[]) {
        setSetting(this.db, SETTINGS[key].storageKey, String(normalise(key, values[key] as Settings[typeof key])));
      }
    });
    write.immediate();
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
