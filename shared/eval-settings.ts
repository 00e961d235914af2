import { evalModelName, type EvalConfigResult, type EvalMetrics } from './eval';
import { formatFusion, parseFusion } from './fusion';
import { SEARCH_MODE_LABELS, type SearchMode } from './search';
import { SETTINGS, type Settings } from './settings';

/**
 * An evaluation's configuration as the app's settings: what "Use these settings" (the Evaluate
 * view) and the commands under `quire eval`'s Best lines apply, so a comparison's winner is acted
 * on in one step. Only what differs from the current settings is changed.
 */

/** The settings a configuration sets, in the order a confirmation lists them. */
export const CONFIG_SETTING_KEYS = ['embedModel', 'chatModel', 'chunkTokens', 'k', 'searchMode', 'fusion'] as const;
export type ConfigSettingKey = (typeof CONFIG_SETTING_KEYS)[number];
export type ConfigSettings = Pick<Settings, ConfigSettingKey>;

export interface SettingChange {
  key: ConfigSettingKey;
  label: string;
  from: string | number;
  to: string | number;
}

export interface ConfigAsSettings {
  /** What setSettings is sent: the settings that differ, nothing else (empty: they already match). */
  patch: Partial<ConfigSettings>;
  /** The same, as setting: old → new, in CONFIG_SETTING_KEYS order. */
  changes: SettingChange[];
  /** Parts of the configuration that are not applied, each a sentence saying why. */
  notApplied: string[];
}

type Config = Pick<EvalConfigResult, 'chatModel' | 'embedModel' | 'chunker' | 'k' | 'mode' | 'fusion'>;

/** `heading:N` is the only chunker the app imports with (its chunk size); the others are for comparison. */
const HEADING = /^\s*heading\s*:\s*(\d+)\s*$/;

export function configAsSettings(config: Config, current: ConfigSettings): ConfigAsSettings {
  const wanted: Partial<ConfigSettings> = {};
  const notApplied: string[] = [];

  // Keyword search never reads the vectors: switching models for it would only cost a re-embedding.
  if (config.mode === 'lexical') notApplied.push(`Your embedding model (${current.embedModel}) is left as it is: keyword search uses none.`);
  else wanted.embedModel = evalModelName(config.embedModel);
  if (config.chatModel !== null) wanted.chatModel = evalModelName(config.chatModel);

  const heading = HEADING.exec(config.chunker);
  if (!heading) {
    notApplied.push(`The chunker ${config.chunker} cannot be applied as a setting: the app cuts documents by heading, up to a chunk size in tokens. The rest is applied.`);
  } else {
    const size = Number(heading[1]);
    const checked = SETTINGS.chunkTokens.schema.safeParse(size);
    if (checked.success) wanted.chunkTokens = checked.data;
    else notApplied.push(`The chunker ${config.chunker} cannot be applied as a setting: ${checked.error.issues[0]?.message ?? 'its size is out of bounds'}. The rest is applied.`);
  }

  wanted.k = config.k;
  wanted.searchMode = config.mode;
  // Only hybrid search fuses: a keyword or vector row ran with whatever fusion came first, which says nothing.
  if (config.mode === 'hybrid') {
    const fusion = parseFusion(config.fusion);
    if (fusion) wanted.fusion = formatFusion(fusion);
  }

  const patch: Partial<ConfigSettings> = {};
  const changes: SettingChange[] = [];
  for (const key of CONFIG_SETTING_KEYS) {
    const to = wanted[key];
    if (to === undefined || same(key, current[key], to)) continue;
    (patch as Record<string, unknown>)[key] = to;
    changes.push({ key, label: SETTINGS[key].label, from: current[key], to });
  }
  return { patch, changes, notApplied };
}

function same(key: ConfigSettingKey, a: string | number, b: string | number): boolean {
  // "embeddinggemma" and "embeddinggemma:latest" are one model to Ollama.
  if (key === 'embedModel' || key === 'chatModel') return evalModelName(String(a)) === evalModelName(String(b));
  if (key === 'fusion') {
    const [x, y] = [parseFusion(String(a)), parseFusion(String(b))];
    return x !== null && y !== null && formatFusion(x) === formatFusion(y);
  }
  return a === b;
}

/** A setting's value as a person reads it: the search mode by its label, the rest as stored. */
export function settingValueText(key: ConfigSettingKey, value: string | number): string {
  return key === 'searchMode' ? (SEARCH_MODE_LABELS[value as SearchMode] ?? String(value)) : String(value);
}

// ---- the leading configuration ---------------------------------------------------------------

/** A headline metric, which way is better, and its short name (as the CLI's Best lines and the view's table head it). */
export interface LeadMetric {
  key: { [K in keyof EvalMetrics]: EvalMetrics[K] extends number | null ? K : never }[keyof EvalMetrics];
  label: string;
  better: 'higher' | 'lower';
}

/** Retrieval's headline metrics, in the order that ranks configurations: the first decides, the next break ties. */
export const RETRIEVAL_LEAD: readonly LeadMetric[] = [
  { key: 'hit1', label: 'hit@1', better: 'higher' },
  { key: 'hitK', label: 'hit@k', better: 'higher' },
  { key: 'mrr', label: 'MRR', better: 'higher' },
  { key: 'factSent', label: 'fact sent', better: 'higher' },
];

/** The answers' headline metrics, in the same sense. */
export const ANSWERS_LEAD: readonly LeadMetric[] = [
  { key: 'answerHasFact', label: 'fact', better: 'higher' },
  { key: 'citesFact', label: 'cites fact', better: 'higher' },
  { key: 'refusalAccuracy', label: 'refuse ok', better: 'higher' },
  { key: 'falseRefusals', label: 'false ref.', better: 'lower' },
];

/**
 * The configuration that leads a report by these metrics: the best first metric, ties broken by
 * the next ones, then by the earlier configuration. Only configurations where no question run
 * failed take part (as for the best values the view marks), and only those the first metric
 * measured; null when none is left.
 */
export function leadingConfig(configs: readonly Pick<EvalConfigResult, 'metrics' | 'errors'>[], metrics: readonly LeadMetric[]): number | null {
  const first = metrics[0];
  if (!first) return null;
  let best: number | null = null;
  configs.forEach((c, i) => {
    if (c.errors > 0 || c.metrics[first.key] === null) return;
    if (best === null || compare(c.metrics, configs[best]!.metrics, metrics) < 0) best = i;
  });
  return best;
}

/** Negative when a ranks before b; a value not measured ranks after every measured one. */
function compare(a: EvalMetrics, b: EvalMetrics, metrics: readonly LeadMetric[]): number {
  for (const m of metrics) {
    const [x, y] = [a[m.key], b[m.key]];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return m.better === 'higher' ? y - x : x - y;
  }
  return 0;
}
