import { evalModelName, type EvalConfigResult, type RateMetric } from '../../../../shared/eval';

/**
 * An evaluation's numbers for people: which columns a report has, how each value reads, what
 * "not run" means for it, and how configurations sort and are named.
 */

export type MetricKey =
  | RateMetric
  | 'sourceTokens'
  | 'promptEstimated'
  | 'promptReported'
  | 'promptExact'
  | 'truncations'
  | 'retrieveP50'
  | 'retrieveP95'
  | 'generateP50'
  | 'generateP95'
  | 'tokensPerSecond'
  | 'changedAcrossRepeats'
  | 'errors';

/** rate: a fraction shown as a percentage; score: a fraction shown as a decimal (MRR). */
export type MetricKind = 'rate' | 'score' | 'ms' | 'tokens' | 'count' | 'perSecond';

export interface MetricColumn {
  key: MetricKey;
  /** Short header. */
  label: string;
  /** What it measures, in a sentence (header tooltip and chart selector). */
  title: string;
  kind: MetricKind;
  /** Which way is better, for the first click on its header and for marking the best value; null: neither. */
  better: 'higher' | 'lower' | null;
  /** Needs a chat model: a retrieval-only configuration never has it. */
  needsAnswers: boolean;
  /** Why the value can be missing when a chat model did run. */
  notRun: string;
  /** Column name in the CSV export. */
  csv: string;
  get(c: EvalConfigResult): number | null;
}

export const METRIC_COLUMNS: readonly MetricColumn[] = [
  {
    key: 'hit1',
    label: 'hit@1',
    title: 'Share of answerable questions whose first retrieved passage contains the expected fact.',
    kind: 'rate',
    better: 'higher',
    needsAnswers: false,
    notRun: 'No answerable question in the set names a fact to look for.',
    csv: 'hit_at_1',
    get: (c) => c.metrics.hit1,
  },
  {
    key: 'hit3',
    label: 'hit@3',
    title: 'Share of answerable questions with the expected fact in one of the first 3 passages.',
    kind: 'rate',
    better: 'higher',
    needsAnswers: false,
    notRun: 'No answerable question in the set names a fact to look for.',
    csv: 'hit_at_3',
    get: (c) => c.metrics.hit3,
  },
  {
    key: 'hit5',
    label: 'hit@5',
    title: 'Share of answerable questions with the expected fact in one of the first 5 passages.',
    kind: 'rate',
    better: 'higher',
    needsAnswers: false,
    notRun: 'No answerable question in the set names a fact to look for.',
    csv: 'hit_at_5',
    get: (c) => c.metrics.hit5,
  },
  {
    key: 'hitK',
    label: 'hit@k',
    title: 'Share of answerable questions with the expected fact in any of the top k passages.',
    kind: 'rate',
    better: 'higher',
    needsAnswers: false,
    notRun: 'No answerable question in the set names a fact to look for.',
    csv: 'hit_at_k',
    get: (c) => c.metrics.hitK,
  },
  {
    key: 'mrr',
    label: 'MRR',
    title: 'Mean reciprocal rank of the first passage with the fact (1 = always first, 0.5 = second on average, 0 = never in the top k).',
    kind: 'score',
    better: 'higher',
    needsAnswers: false,
    notRun: 'No answerable question in the set names a fact to look for.',
    csv: 'mrr',
    get: (c) => c.metrics.mrr,
  },
  {
    key: 'factSent',
    label: 'Fact sent',
    title: 'Share of answerable questions whose expected fact is inside the sources put in the prompt: what the model can actually see.',
    kind: 'rate',
    better: 'higher',
    needsAnswers: false,
    notRun: 'No answerable question in the set names a fact to look for.',
    csv: 'fact_sent',
    get: (c) => c.metrics.factSent,
  },
  {
    key: 'sourceTokens',
    label: 'Source tokens p50',
    title: 'Median tokens of the sources put in the prompt: compare fact sent at equal cost.',
    kind: 'tokens',
    better: null,
    needsAnswers: false,
    notRun: 'No answerable question in the set names a fact to look for.',
    csv: 'source_tokens_p50',
    get: (c) => c.metrics.sourceTokensP50,
  },
  {
    key: 'answerHasFact',
    label: 'Answer has fact',
    title: 'Share of answers that match the expected answer pattern.',
    kind: 'rate',
    better: 'higher',
    needsAnswers: true,
    notRun: 'No answerable question in the set has an answer pattern.',
    csv: 'answer_has_fact',
    get: (c) => c.metrics.answerHasFact,
  },
  {
    key: 'citationValid',
    label: 'Citation valid',
    title: 'Share of citations that point to a passage that was actually sent to the model.',
    kind: 'rate',
    better: 'higher',
    needsAnswers: true,
    notRun: 'No answer had a citation.',
    csv: 'citation_valid',
    get: (c) => c.metrics.citationValid,
  },
  {
    key: 'supportedCitationRate',
    label: 'Supported citations',
    title: 'Share of citations whose passage supports the sentence that cites it.',
    kind: 'rate',
    better: 'higher',
    needsAnswers: true,
    notRun: 'No answer had a citation.',
    csv: 'supported_citations',
    get: (c) => c.metrics.supportedCitationRate,
  },
  {
    key: 'citesFact',
    label: 'Cites fact',
    title: 'Share of answers citing a passage that contains the expected fact.',
    kind: 'rate',
    better: 'higher',
    needsAnswers: true,
    notRun: 'No answerable question in the set names a fact to look for.',
    csv: 'cites_fact',
    get: (c) => c.metrics.citesFact,
  },
  {
    key: 'refusalAccuracy',
    label: 'Refusal accuracy',
    title: 'Share of unanswerable questions the model correctly refused ("Not in the documents").',
    kind: 'rate',
    better: 'higher',
    needsAnswers: true,
    notRun: 'The set has no unanswerable question.',
    csv: 'refusal_accuracy',
    get: (c) => c.metrics.refusalAccuracy,
  },
  {
    key: 'falseRefusals',
    label: 'False refusals',
    title: 'Share of answerable questions the model refused although the documents answer them.',
    kind: 'rate',
    better: 'lower',
    needsAnswers: true,
    notRun: 'The set has no answerable question.',
    csv: 'false_refusals',
    get: (c) => c.metrics.falseRefusals,
  },
  {
    key: 'promptEstimated',
    label: 'Prompt tokens (est.)',
    title: "Quire's estimate of the prompt size in tokens, averaged over the answers.",
    kind: 'tokens',
    better: null,
    needsAnswers: true,
    notRun: 'No answer was generated.',
    csv: 'prompt_tokens_estimated',
    get: (c) => c.metrics.promptTokens.estimated,
  },
  {
    key: 'promptReported',
    label: 'Prompt tokens (Ollama)',
    title: "Ollama's reported prompt size (prompt_eval_count), averaged over the answers.",
    kind: 'tokens',
    better: null,
    needsAnswers: true,
    notRun: 'Ollama reported no prompt size.',
    csv: 'prompt_tokens_reported',
    get: (c) => c.metrics.promptTokens.reported,
  },
  {
    key: 'promptExact',
    label: 'Prompt counted exactly',
    title: "Share of the answers whose prompt was counted with the chat model's own tokenizer and chat template (what Ollama reports), not estimated.",
    kind: 'rate',
    better: null,
    needsAnswers: true,
    notRun: 'No answer was generated.',
    csv: 'prompt_tokens_exact',
    get: (c) => c.metrics.promptTokens.exact,
  },
  {
    key: 'truncations',
    label: 'Truncations',
    title: 'Answers where Ollama probably cut the prompt to fit the context window.',
    kind: 'count',
    better: 'lower',
    needsAnswers: true,
    notRun: 'No answer was generated.',
    csv: 'truncations',
    get: (c) => c.metrics.truncations,
  },
  {
    key: 'retrieveP50',
    label: 'Retrieve p50',
    title: 'Median time to retrieve the passages.',
    kind: 'ms',
    better: 'lower',
    needsAnswers: false,
    notRun: 'No question was run.',
    csv: 'retrieve_p50_ms',
    get: (c) => c.metrics.latencyMs.retrieve.p50,
  },
  {
    key: 'retrieveP95',
    label: 'Retrieve p95',
    title: 'Time within which 95% of retrievals finished.',
    kind: 'ms',
    better: 'lower',
    needsAnswers: false,
    notRun: 'No question was run.',
    csv: 'retrieve_p95_ms',
    get: (c) => c.metrics.latencyMs.retrieve.p95,
  },
  {
    key: 'generateP50',
    label: 'Generate p50',
    title: 'Median time the model took to write an answer.',
    kind: 'ms',
    better: 'lower',
    needsAnswers: true,
    notRun: 'No answer was generated.',
    csv: 'generate_p50_ms',
    get: (c) => c.metrics.latencyMs.generate.p50,
  },
  {
    key: 'generateP95',
    label: 'Generate p95',
    title: 'Time within which 95% of answers were written.',
    kind: 'ms',
    better: 'lower',
    needsAnswers: true,
    notRun: 'No answer was generated.',
    csv: 'generate_p95_ms',
    get: (c) => c.metrics.latencyMs.generate.p95,
  },
  {
    key: 'tokensPerSecond',
    label: 'Tokens/s',
    title: 'Generation speed reported by Ollama, averaged over the answers.',
    kind: 'perSecond',
    better: 'higher',
    needsAnswers: true,
    notRun: 'Ollama reported no generation speed.',
    csv: 'tokens_per_second',
    get: (c) => c.metrics.tokensPerSecond,
  },
  {
    key: 'changedAcrossRepeats',
    label: 'Changed across repeats',
    title: 'Questions whose answer was not the same in every repeat.',
    kind: 'count',
    better: 'lower',
    needsAnswers: true,
    notRun: 'Needs at least two repeats with answers.',
    csv: 'changed_across_repeats',
    get: (c) => c.metrics.changedAcrossRepeats,
  },
  {
    key: 'errors',
    label: 'Errors',
    title: 'Question runs that failed (for example Ollama went away); each error is shown in the drill-down.',
    kind: 'count',
    better: 'lower',
    needsAnswers: false,
    notRun: 'No question was run.',
    csv: 'errors',
    get: (c) => c.errors,
  },
];

/**
 * The columns a report shows: all of them, except that a report in which no chat model answered
 * (retrieval only) leaves out the ones only answers fill, which would be a dozen columns of "—"
 * pushing errors and speed off screen (the command line leaves its answer table out too).
 */
export function shownColumns(configs: readonly Pick<EvalConfigResult, 'chatModel'>[]): readonly MetricColumn[] {
  return configs.some((c) => c.chatModel !== null) ? METRIC_COLUMNS : METRIC_COLUMNS.filter((c) => !c.needsAnswers);
}

export function metricColumn(key: MetricKey): MetricColumn {
  const c = METRIC_COLUMNS.find((x) => x.key === key);
  if (!c) throw new Error(`unknown metric ${key}`);
  return c;
}

/** "83%", "0.67", "1.2 s", "2,345", "31.5"; null reads "—". A rate reads "100%" or "0%" only when exact. */
export function formatMetric(kind: MetricKind, v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '—';
  switch (kind) {
    case 'rate':
      return `${roundShy(v * 100, 0, 100, 0)}%`;
    case 'score':
      return roundShy(v, 0, 1, 2, true);
    case 'ms':
      return formatMs(v);
    case 'tokens':
      return Math.round(v).toLocaleString('en-US');
    case 'count':
      return String(v);
    case 'perSecond':
      return v.toFixed(1);
  }
}

/**
 * `v` with `digits` decimals, or with more when rounding would make it read as the exact `low` or
 * `high` end of its scale (99.5% is not 100%, 0.4% is not 0%); past three more decimals it reads
 * "<0.001" or ">99.999" rather than claim the end. `fixed` keeps trailing zeros ("0.50").
 */
function roundShy(v: number, low: number, high: number, digits: number, fixed = false): string {
  const show = (d: number) => (fixed ? v.toFixed(d) : String(Number(v.toFixed(d))));
  if (!(v > low && v < high)) return show(digits);
  for (let d = digits; d <= digits + 3; d++) {
    const r = Number(v.toFixed(d));
    if (r !== low && r !== high) return show(d);
  }
  const step = 10 ** -(digits + 3);
  return v - low < high - v ? `<${(low + step).toFixed(digits + 3)}` : `>${(high - step).toFixed(digits + 3)}`;
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/**
 * The tooltip of a missing value: why it is missing. `allFailed`: every question run of the
 * configuration failed, which is then the cause, not the question set.
 */
export function notRunReason(column: MetricColumn, config: Pick<EvalConfigResult, 'chatModel'> & Partial<Pick<EvalConfigResult, 'errors'>>, allFailed = false): string {
  if (column.needsAnswers && config.chatModel === null) return 'Not run: retrieval only, no chat model answered.';
  if (allFailed) return FAILED_REASON;
  const errors = config.errors ?? 0;
  if (errors > 0) return `Not run: ${errors === 1 ? '1 question run' : `${errors} question runs`} of this configuration failed, which may be why (the drill-down shows each error). Otherwise: ${column.notRun}`;
  return `Not run: ${column.notRun}`;
}

export const FAILED_REASON = 'Failed: every question run of this configuration failed, so there is nothing to measure. The drill-down shows each error.';

/**
 * A value that only reflects failure: in a configuration where every run failed, a missing value
 * or a zero says nothing about the configuration, so it reads "failed" rather than "—" or "0%".
 * (An answer metric of a retrieval-only configuration stays "not run".)
 */
export function isFailedValue(column: MetricColumn, config: EvalConfigResult, allFailed: boolean): boolean {
  if (!allFailed || column.key === 'errors' || (column.needsAnswers && config.chatModel === null)) return false;
  const v = column.get(config);
  return v === null || v === 0;
}

// ---- configurations ---------------------------------------------------------------------------

export type DimensionKey = 'chatModel' | 'embedModel' | 'chunker' | 'k' | 'mode' | 'fusion';

export const DIMENSIONS: ReadonlyArray<{ key: DimensionKey; label: string }> = [
  { key: 'chatModel', label: 'Chat model' },
  { key: 'embedModel', label: 'Embedding model' },
  { key: 'chunker', label: 'Chunker' },
  { key: 'k', label: 'k' },
  { key: 'mode', label: 'Mode' },
  { key: 'fusion', label: 'Fusion' },
];

/** "llama3.2" for "llama3.2:latest"; other tags stay. */
export function shortModel(name: string): string {
  return evalModelName(name);
}

export function dimensionText(config: EvalConfigResult, key: DimensionKey): string {
  switch (key) {
    case 'chatModel':
      return config.chatModel === null ? 'retrieval only' : shortModel(config.chatModel);
    case 'embedModel':
      // Keyword search uses no embedding model: its one row stands for all of them.
      return config.mode === 'lexical' ? 'n/a' : shortModel(config.embedModel);
    case 'chunker':
      return config.chunker;
    case 'k':
      return `k=${config.k}`;
    case 'mode':
      return config.mode;
    case 'fusion':
      // Keyword-only and vector-only searches fuse nothing ("—" is kept for metrics not run).
      return config.mode === 'hybrid' ? config.fusion : 'n/a';
  }
}

/** The configurations a dimension applies to: fusion to hybrid searches only, the embedding model to all but keyword ones. */
function appliesTo(configs: readonly EvalConfigResult[], key: DimensionKey): readonly EvalConfigResult[] {
  if (key === 'fusion') return configs.filter((c) => c.mode === 'hybrid');
  if (key === 'embedModel') return configs.filter((c) => c.mode !== 'lexical');
  return configs;
}

/** The dimensions whose value differs between the configurations it applies to. */
export function varyingDimensions(configs: readonly EvalConfigResult[]): DimensionKey[] {
  return DIMENSIONS.map((d) => d.key).filter((key) => new Set(appliesTo(configs, key).map((c) => dimensionText(c, key))).size > 1);
}

/**
 * What every configuration shares, once: each dimension that does not vary, with its value (the
 * fusion only where some search is hybrid, the embedding model where some is not keyword-only:
 * the kinds they change; k as "k=5").
 */
export function commonSettings(configs: readonly EvalConfigResult[]): Array<{ key: DimensionKey; label: string; value: string }> {
  if (configs.length === 0) return [];
  const varying = varyingDimensions(configs);
  return DIMENSIONS.flatMap((d) => {
    const example = appliesTo(configs, d.key)[0];
    return varying.includes(d.key) || !example ? [] : [{ key: d.key, label: d.label, value: dimensionText(example, d.key) }];
  });
}

/** A configuration named by what sets it apart ("llama3.2 · hybrid"); every dimension when nothing varies. */
export function configLabel(config: EvalConfigResult, varying: readonly DimensionKey[]): string {
  return varying.length > 0 ? varying.map((k) => dimensionText(config, k)).join(' · ') : fullConfigLabel(config);
}

/**
 * Every dimension it has: the fusion for hybrid search only, named even when it is today's default
 * (the default has changed, and a report outlives it); no embedding model for keyword search.
 */
export function fullConfigLabel(config: EvalConfigResult): string {
  const shown = DIMENSIONS.filter((d) => (d.key !== 'fusion' || config.mode === 'hybrid') && (d.key !== 'embedModel' || config.mode !== 'lexical'));
  return shown.map((d) => dimensionText(config, d.key)).join(' · ');
}

// ---- sorting ----------------------------------------------------------------------------------

export type SortKey = DimensionKey | MetricKey;
export type SortDir = 'asc' | 'desc';

export interface SortState {
  key: SortKey;
  dir: SortDir;
}

function isDimension(key: SortKey): key is DimensionKey {
  return DIMENSIONS.some((d) => d.key === key);
}

/** The value a column sorts by; null sorts last in both directions. */
export function sortValue(config: EvalConfigResult, key: SortKey): string | number | null {
  if (isDimension(key)) {
    if (key === 'k') return config.k;
    if (key === 'chatModel') return config.chatModel;
    return config[key];
  }
  return metricColumn(key).get(config);
}

/** The direction of a header's first click: best first for metrics with a better direction, else ascending. */
export function firstDirection(key: SortKey): SortDir {
  if (isDimension(key)) return 'asc';
  return metricColumn(key).better === 'higher' ? 'desc' : 'asc';
}

/** The next sort after a click on `key`: a new column starts at its first direction, the same column reverses. */
export function nextSort(current: SortState | null, key: SortKey): SortState {
  if (current && current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: firstDirection(key) };
}

/**
 * Indices of `configs` in sorted order; nulls last whatever the direction; ties keep report order.
 * In a configuration of `failed` (every run failed) a value that only reflects the failure sorts
 * with the nulls.
 */
export function sortConfigs(configs: readonly EvalConfigResult[], sort: SortState | null, failed: ReadonlySet<number> = new Set()): number[] {
  const idx = configs.map((_, i) => i);
  if (!sort) return idx;
  const sign = sort.dir === 'asc' ? 1 : -1;
  const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  const column = isDimension(sort.key) ? null : metricColumn(sort.key);
  const values = configs.map((c, i) => (column && isFailedValue(column, c, failed.has(i)) ? null : sortValue(c, sort.key)));
  return idx.sort((i, j) => {
    const a = values[i] ?? null;
    const b = values[j] ?? null;
    if (a === null || b === null) return a === b ? i - j : a === null ? 1 : -1;
    const c = typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b));
    return c !== 0 ? sign * c : i - j;
  });
}

/**
 * The best value of a metric across configurations, when there is a best (more than one distinct
 * value). Configurations with any failed question run are left out: their numbers rest on fewer
 * runs (or none), so they cannot be compared fairly. The Errors column itself has no best.
 */
export function bestValue(configs: readonly EvalConfigResult[], column: MetricColumn): number | null {
  if (!column.better || column.key === 'errors') return null;
  const values = configs.filter((c) => c.errors === 0).map((c) => column.get(c)).filter((v): v is number => v !== null);
  if (new Set(values).size < 2) return null;
  return column.better === 'higher' ? Math.max(...values) : Math.min(...values);
}

/** Whether `config`'s value of `column` is the best one (see bestValue). */
export function isBest(config: EvalConfigResult, column: MetricColumn, best: number | null): boolean {
  return best !== null && config.errors === 0 && column.get(config) === best;
}

/** "a1b2c3d4e5f6" from "sha256:a1b2c3d4e5f6…". */
export function shortHash(hash: string | null, n = 12): string {
  if (!hash) return '—';
  return hash.replace(/^sha256:/, '').slice(0, n);
}
