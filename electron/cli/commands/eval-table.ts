import { plural } from '../../../shared/plural';
import { evalModelName, failedConfigs, type EvalMetrics, type EvalReport } from '../../../shared/eval';
import { ANSWERS_LEAD, configAsSettings, leadingConfig, RETRIEVAL_LEAD, type ConfigSettings, type LeadMetric } from '../../../shared/eval-settings';
import { columns as grid } from '../columns';

const pct = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);
const ms = (v: number | null) => (v === null ? '—' : `${Math.round(v)}`);
const tok = (v: number | null) => (v === null ? '—' : `${Math.round(v)}`);

type Cell = (m: EvalMetrics, errors: number) => string;

/**
 * The metrics in three tables a configuration number (#) ties together, so that a run with chat
 * models fits a terminal 100 columns wide: one table of every metric was about 250 wide and
 * wrapped into noise. `--json` carries the report itself and is unaffected.
 */
const RETRIEVAL: Array<[string, Cell]> = [
  ['hit@1', (m) => pct(m.hit1)],
  ['hit@3', (m) => pct(m.hit3)],
  ['hit@5', (m) => pct(m.hit5)],
  ['hit@k', (m) => pct(m.hitK)],
  ['MRR', (m) => (m.mrr === null ? '—' : m.mrr.toFixed(2))],
  ['fact sent', (m) => pct(m.factSent)],
  ['src tok p50', (m) => tok(m.sourceTokensP50)],
  ['errors', (_m, errors) => String(errors)],
];

const ANSWERS: Array<[string, Cell]> = [
  ['fact', (m) => pct(m.answerHasFact)],
  ['cite ok', (m) => pct(m.citationValid)],
  ['supp.', (m) => pct(m.supportedCitationRate)],
  ['cites fact', (m) => pct(m.citesFact)],
  ['refuse ok', (m) => pct(m.refusalAccuracy)],
  ['false ref.', (m) => pct(m.falseRefusals)],
  // Each chat model's own count: one model spends more of its window than another on the same sources.
  ['tokens est/rep', (m) => `${tok(m.promptTokens.estimated)}/${tok(m.promptTokens.reported)}${m.promptTokens.exact === 1 ? ' exact' : ''}`],
  ['trunc', (m) => (m.truncations === null ? '—' : String(m.truncations))],
  ['changed', (m) => (m.changedAcrossRepeats === null ? '—' : String(m.changedAcrossRepeats))],
];

/** Timings, said apart: they move from run to run, as the scores should not. The third field: only with answers. */
const SPEED: Array<[string, Cell, boolean]> = [
  ['retr. p50/p95 ms', (m) => `${ms(m.latencyMs.retrieve.p50)}/${ms(m.latencyMs.retrieve.p95)}`, false],
  ['gen. p50/p95 ms', (m) => `${ms(m.latencyMs.generate.p50)}/${ms(m.latencyMs.generate.p95)}`, true],
  ['tok/s', (m) => (m.tokensPerSecond === null ? '—' : m.tokensPerSecond.toFixed(0)), true],
];


/**
 * What the retrieval columns measure, under their table: a dense row can find the fact in its top k
 * and still not send it (a meaning match past the distance cutoff is never evidence), which reads
 * as a contradiction unless it is said. Lines stay under 100 columns.
 */
function retrievalTerms(r: EvalReport): string[] {
  return [
    'hit@n: the expected fact is in one of the first n passages found (k: passages per answer).',
    'MRR: 1 / rank of the first passage holding it, 0 when none of the first k does.',
    'fact sent: it is inside the sources the prompt holds (retrieval only: would hold): as many of',
    `the first k passages as fit the sources' budget, never a meaning match farther than ${r.run.answerSettings.maxDistance}`,
    '(L2 distance), so a dense row can find a fact it does not send. src tok p50: their median tokens.',
  ];
}

/** The metrics a "Best:" line names, which way is better, and how each reads: the headline metrics that also rank the leading configuration (shared/eval-settings.ts). */
type Headline = [string, (m: EvalMetrics) => number | null, 'higher' | 'lower', (v: number) => string];
const headlines = (lead: readonly LeadMetric[]): Headline[] => lead.map((l) => [l.label, (m) => m[l.key], l.better, (v) => (l.key === 'mrr' ? v.toFixed(2) : pct(v))]);
const RETRIEVAL_BEST = headlines(RETRIEVAL_LEAD);
const ANSWERS_BEST = headlines(ANSWERS_LEAD);

/** What the commands that apply a leading configuration need: the settings now, and how the CLI was started. */
export interface ApplyContext {
  current: ConfigSettings;
  /** `quire`, or `npm run quire --`. */
  program: string;
}

/** A value as typed in a shell: bare when it is plain, else single-quoted. */
const shellWord = (v: string | number) => (/^[\w.:/@+-]+$/.test(String(v)) ? String(v) : `'${String(v).replace(/'/g, `'\\''`)}'`);

/** Words at most `width` columns a line, each line after the first indented by `indent`. */
function wrap(text: string, width: number, indent: string): string[] {
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(' ')) {
    if (line.trim() !== '' && `${line} ${word}`.length > width) {
      lines.push(line);
      line = `${indent}${word}`;
    } else line = line.trim() === '' ? `${line}${word}` : `${line} ${word}`;
  }
  return line.trim() === '' ? lines : [...lines, line];
}

/**
 * Under a Best line: the command that makes the app and the CLI work as the leading configuration
 * did (only the settings that differ from the current ones), and what of it cannot be a setting.
 * The leader is the best first metric, ties broken by the next, as leadingConfig ranks.
 */
function applyLines(r: EvalReport, lead: readonly LeadMetric[], apply: ApplyContext): string[] {
  const i = leadingConfig(r.configs, lead);
  if (i === null) return [];
  const { patch, notApplied } = configAsSettings(r.configs[i]!, apply.current);
  const by = `${lead[0]!.label}, then ${lead.slice(1).map((l) => l.label).join(', ')}`;
  const pairs = Object.entries(patch).map(([k, v]) => `${k} ${shellWord(v)}`);
  const head = pairs.length > 0 ? `To use #${i + 1} (first by ${by}):` : `#${i + 1} (first by ${by}): your settings already match it.`;
  return [
    ...wrap(head, 100, '  '),
    ...(pairs.length > 0 ? wrap(`  ${apply.program} settings set ${pairs.join(' ')}`, 100, '    ') : []),
    ...notApplied.flatMap((n) => wrap(`  ${n}`, 100, '  ')),
  ];
}

/**
 * Which configurations lead each headline metric, by how much over the next best value, so the
 * winner of a comparison is read off rather than worked out from a dozen rows. As the Evaluate
 * view marks best values: only among configurations where no question run failed (a config
 * scored on the questions that did run is not comparable). Wrapped to 100 columns.
 */
function bestLines(r: EvalReport, headlines: Headline[]): string[] {
  const eligible = r.configs.map((c, i) => ({ c, i })).filter(({ c }) => c.errors === 0);
  const parts: string[] = [];
  for (const [label, get, better, show] of headlines) {
    const values = eligible.map(({ c, i }) => ({ i, v: get(c.metrics) })).filter((x): x is { i: number; v: number } => x.v !== null);
    if (values.length < 2) continue;
    const sorted = [...new Set(values.map((x) => x.v))].sort((a, b) => (better === 'higher' ? b - a : a - b));
    if (sorted.length < 2) continue; // every configuration scored the same: nothing leads
    const top = values.filter((x) => x.v === sorted[0]).map((x) => `#${x.i + 1}`);
    const who = top.length <= 3 ? top.join(' ') : `${top.slice(0, 3).join(' ')} +${top.length - 3}`;
    parts.push(`${label} ${show(sorted[0]!)} ${who} (next ${show(sorted[1]!)})`);
  }
  if (parts.length === 0) return [];
  const lines = ['Best:'];
  for (const part of parts) {
    const last = lines.length - 1;
    if (`${lines[last]} ${part};`.length <= 100) lines[last] = `${lines[last]} ${part};`;
    else lines.push(`  ${part};`);
  }
  return lines.map((l) => l.replace(/;$/, ''));
}

/** A Best line, and under it (when there is one and the settings are known) the command that applies its leader. */
function bestWithApply(r: EvalReport, best: Headline[], lead: readonly LeadMetric[], apply: ApplyContext | undefined): string[] {
  const lines = bestLines(r, best);
  return lines.length > 0 && apply ? [...lines, ...applyLines(r, lead, apply)] : lines;
}

/** The terminal tables: the configurations by number, then retrieval, answer and speed metrics per number. */
export function evalTable(r: EvalReport, apply?: ApplyContext): string {
  // Without a chat model every answer column is "—": a retrieval-only run has no answer table.
  const answers = r.configs.some((c) => c.chatModel !== null);
  // A configuration whose every question failed measured nothing: its rates are "—", not 0%, which would read as a score.
  const failed = failedConfigs(r);
  const number = (i: number) => String(i + 1);
  const metrics = (columns: Array<[string, Cell, ...unknown[]]>) =>
    r.configs.map((c, i) => [number(i), ...columns.map(([h, f]) => (failed.has(i) && h !== 'errors' ? '—' : f(c.metrics, c.errors)))]);
  const section = (title: string, columns: Array<[string, Cell, ...unknown[]]>) => ['', title, ...grid(['#', ...columns.map(([h]) => h)], metrics(columns))];

  const configs = grid(
    ['#', ...(answers ? ['chat model'] : []), 'embed model', 'chunker', 'k', 'mode', 'fusion'],
    // Models as the Evaluate view names them: "embeddinggemma" for "embeddinggemma:latest".
    r.configs.map((c, i) => [number(i), ...(answers ? [c.chatModel === null ? '(retrieval only)' : evalModelName(c.chatModel)] : []), c.mode === 'lexical' ? 'n/a' : evalModelName(c.embedModel), c.chunker, String(c.k), c.mode, c.mode === 'hybrid' ? c.fusion : 'n/a']),
    1,
  );
  // Keyword search uses no embedding model: one row for them all, which a reader of the grid might miss.
  const keywordOnce = r.run.grid.embedModels.length > 1 && r.configs.some((c) => c.mode === 'lexical');
  return [
    `${plural(r.corpus.documents, 'document')} (fingerprint ${r.corpus.fingerprint.slice(0, 12)}), ${r.questions.answerable} answerable and ${r.questions.unanswerable} unanswerable questions, ${(r.run.ms / 1000).toFixed(1)} s`,
    '',
    'Configurations:',
    ...configs,
    ...(keywordOnce ? ['One lexical row stands for every embedding model: keyword search uses none of them.'] : []),
    ...section('Retrieval (fact sent: the expected fact is in the sources sent; src tok: their tokens):', RETRIEVAL),
    ...retrievalTerms(r),
    ...bestWithApply(r, RETRIEVAL_BEST, RETRIEVAL_LEAD, apply),
    ...(answers ? [...section('Answers (supp.: citations that support their sentence; false ref.: answerable ones refused):', ANSWERS), ...bestWithApply(r, ANSWERS_BEST, ANSWERS_LEAD, apply)] : []),
    ...section('Speed:', SPEED.filter(([, , forAnswers]) => answers || !forAnswers)),
    '',
    answers
      ? '— = not run (no chat model, or nothing eligible). Rates are shares of eligible questions.'
      : 'Retrieval only (no --chat-models): answers were not scored.\n— = nothing eligible. Rates are shares of eligible questions.',
    ...(r.warnings ?? []).map((w) => `Warning: ${w}`),
  ].join('\n');
}
