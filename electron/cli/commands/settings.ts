import { QuireError, toErrorShape } from '../../../shared/errors';
import { NUMERIC_SETTINGS, SETTING_KEYS, SETTINGS, type SettingKey, type SettingsPatch, type SettingsView } from '../../../shared/settings';
import { columns } from '../columns';
import type { CliContext } from '../context';

/**
 * `quire settings`: the settings the app saved, each with its value and default; `quire settings
 * set <key> <value> [<key> <value>…]` changes them through the contract's setSettings, as the
 * Settings view does (a changed model only once Ollama lists it, unless --force). A value the
 * settings table refuses is said as its sentence, and nothing is saved (exit 1).
 */
export async function settingsCommand(ctx: CliContext, args: readonly string[]): Promise<number> {
  const [verb, ...pairs] = args;
  if (verb === undefined) return list(ctx, await ctx.engine.call('getSettings', {}));
  if (verb !== 'set') throw new QuireError('INVALID_ARGUMENT', `settings takes "set <key> <value>" or nothing, not "${verb}". See: ${ctx.program} settings --help`);
  const patch = patchFrom(pairs, ctx.program);
  try {
    // The store's own check, first: its sentence names the setting and what it takes.
    ctx.engine.settings.check(patch);
  } catch (e) {
    const error = toErrorShape(e);
    if (ctx.out.json) ctx.out.result({ error }, () => '');
    else ctx.out.note(`Error (${error.code}): ${error.message}`);
    return 1;
  }
  const after = await ctx.engine.call('setSettings', { ...patch, ...(ctx.force ? { force: true } : {}) });
  const keys = Object.keys(patch) as SettingKey[];
  ctx.out.result(
    { saved: Object.fromEntries(keys.map((k) => [k, after[k]])) },
    () => keys.map((k) => `Saved: ${SETTINGS[k].label} is now ${String(after[k])}.`).join('\n'),
  );
  return 0;
}

/** `key value` pairs as a patch; a number setting's value as a number (a word is left for the table's check to refuse). */
function patchFrom(pairs: readonly string[], program: string): SettingsPatch {
  if (pairs.length === 0 || pairs.length % 2 !== 0) {
    throw new QuireError('INVALID_ARGUMENT', `settings set takes a setting and its value, e.g. ${program} settings set searchMode lexical.`);
  }
  const patch: Record<string, string | number> = {};
  for (let i = 0; i < pairs.length; i += 2) {
    const [key, value] = [pairs[i]!, pairs[i + 1]!];
    if (!(SETTING_KEYS as readonly string[]).includes(key)) {
      throw new QuireError('INVALID_ARGUMENT', `There is no setting "${key}". The settings are ${SETTING_KEYS.join(', ')} (${program} settings lists them).`);
    }
    patch[key] = NUMERIC_SETTINGS.includes(key as SettingKey) && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  }
  return patch as SettingsPatch;
}

function list(ctx: CliContext, view: SettingsView): number {
  const rows = SETTING_KEYS.map((key) => ({ key, label: SETTINGS[key].label, value: view[key], default: SETTINGS[key].fallback, source: ctx.engine.settings.source(key) }));
  ctx.out.result({ settings: rows, ollamaHeaders: view.ollamaHeaders.map((h) => ({ name: h.name, source: h.source })) }, () => {
    // The default is said only where the value differs from it, beside the setting's name in the
    // app: a changed setting stands out, and a column of defaults (the host's address as wide as
    // the value's) does not push the table past 100 columns.
    const described = (r: (typeof rows)[number]) =>
      r.source === 'environment' ? `${r.label} (from OLLAMA_HOST)` : r.value === r.default ? r.label : `${r.label} (default ${String(r.default)})`;
    const lines = columns(['setting', 'value', 'in the app'], rows.map((r) => [r.key, String(r.value), described(r)]), 0);
    const headers = view.ollamaHeaders.map((h) => `${h.name} (${h.source === 'settings' ? 'saved' : 'QUIRE_OLLAMA_HEADERS'})`);
    return [
      ...lines,
      '',
      `Ollama request headers: ${headers.length > 0 ? `${headers.join(', ')}; values are never shown` : 'none'}.`,
      'When no Ollama host is saved, OLLAMA_HOST (if set) is used.',
      `Change one: ${ctx.program} settings set <setting> <value>`,
      `  e.g. ${ctx.program} settings set searchMode lexical`,
    ].join('\n');
  });
  return 0;
}
