import { evalModelName, RATE_METRICS, type EvalMetrics, type EvalConfigResult, type EvalQuestionRun, type EvalReport, type MetricChange, type QuestionChange, type ReportDiff } from '../../../shared/eval';
import { collapseWhitespace } from '../text/normalise';

export type { MetricChange, QuestionChange, ReportDiff } from '../../../shared/eval';

const EXACT_METRICS: Array<[string, (m: EvalMetrics) => number | null]> = [
  ...RATE_METRICS.map((k): [string, (m: EvalMetrics) => number | null] => [k, (m) => m[k]]),
  ['sourceTokensP50', (m) => m.sourceTokensP50],
  ['promptTokens.estimated', (m) => m.promptTokens.estimated],
  ['promptTokens.reported', (m) => m.promptTokens.reported],
  ['truncations', (m) => m.truncations],
  ['changedAcrossRepeats', (m) => m.changedAcrossRepeats],
];

const TIMING_METRICS: Array<[string, (m: EvalMetrics) => number | null]> = [
  ['latencyMs.retrieve.p50', (m) => m.latencyMs.retrieve.p50],
  ['latencyMs.retrieve.p95', (m) => m.latencyMs.retrieve.p95],
  ['latencyMs.generate.p50', (m) => m.latencyMs.generate.p50],
  ['latencyMs.generate.p95', (m) => m.latencyMs.generate.p95],
  ['tokensPerSecond', (m) => m.tokensPerSecond],
];

export function configLabel(c: Pick<EvalConfigResult, 'chatModel' | 'embedModel' | 'chunker' | 'k' | 'mode'> & { fusion?: string }): string {
  // Fusion only changes hybrid results, so it names only hybrid configurations.
  const fusion = c.mode === 'hybrid' && c.fusion !== undefined ? ` · ${c.fusion}` : '';
  // Keyword search uses no embedding model: its configuration is one whichever index it ran in, so
  // an older report's keyword row per model matches a newer report's one.
  // Models as an evaluation names them, so a report of "embeddinggemma" and one of "embeddinggemma:latest" match.
  const embed = c.mode === 'lexical' ? '' : ` · ${evalModelName(c.embedModel)}`;
  return `${c.chatModel === null ? 'retrieval only' : evalModelName(c.chatModel)}${embed} · ${c.chunker} · k=${c.k} · ${c.mode}${fusion}`;
}

const sameNumber = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) < 1e-9);

function questionFacets(q: EvalQuestionRun): Record<QuestionChange['what'], string> {
  return {
    retrieved: q.retrieved.map((r) => `${r.path}:${r.lines[0]}-${r.lines[1]}`).join(', '),
    answer: q.answer === null ? '(none)' : collapseWhitespace(q.answer),
    refused: q.score.answer === null ? '(not run)' : String(q.score.answer.refused),
    citations: q.citations.map((c) => c.check).join(', '),
    error: q.error ? q.error.code : '(none)',
  };
}

/**
 * Each configuration's index by its label. A report written before keyword search ran once per
 * chunker has a keyword row per embedding model under one label: the first is kept, the one a
 * newer run makes (in the first model's index), and the others repeat its numbers.
 */
function configsByLabel(r: EvalReport): Map<string, number> {
  const byLabel = new Map<string, number>();
  r.configs.forEach((c, i) => {
    const label = configLabel(c);
    if (!byLabel.has(label)) byLabel.set(label, i);
  });
  return byLabel;
}

/** What changed from `before` to `after`, matching configurations and questions by their settings and ids. */
export function diffReports(before: EvalReport, after: EvalReport): ReportDiff {
  const versions: ReportDiff['versions'] = [];
  if (before.run.quire !== after.run.quire) versions.push({ what: 'Quire', before: before.run.quire, after: after.run.quire });
  if (before.run.ollama !== after.run.ollama) versions.push({ what: 'Ollama', before: before.run.ollama, after: after.run.ollama });
  const digests = (models: Record<string, string | null>) => new Map(Object.entries(models).map(([m, d]) => [evalModelName(m), d]));
  const beforeModels = digests(before.run.models);
  const afterModels = digests(after.run.models);
  for (const model of new Set([...beforeModels.keys(), ...afterModels.keys()])) {
    const b = beforeModels.get(model) ?? null;
    const a = afterModels.get(model) ?? null;
    if (b !== a) versions.push({ what: model, before: b, after: a });
  }

  const beforeConfigs = configsByLabel(before);
  const afterConfigs = configsByLabel(after);
  const metrics: MetricChange[] = [];
  const timing: MetricChange[] = [];
  const questions: QuestionChange[] = [];

  const runsOf = (r: EvalReport, config: number) => new Map(r.perQuestion.filter((q) => q.config === config).map((q) => [`${q.score.questionId}#${q.score.repeat}`, q]));

  for (const [label, bi] of beforeConfigs) {
    const ai = afterConfigs.get(label);
    if (ai === undefined) continue;
    const bm = before.configs[bi]!.metrics;
    const am = after.configs[ai]!.metrics;
    for (const [metric, get] of EXACT_METRICS) if (!sameNumber(get(bm), get(am))) metrics.push({ config: label, metric, before: get(bm), after: get(am) });
    for (const [metric, get] of TIMING_METRICS) if (!sameNumber(get(bm), get(am))) timing.push({ config: label, metric, before: get(bm), after: get(am) });
    const afterRuns = runsOf(after, ai);
    for (const [key, bq] of runsOf(before, bi)) {
      const aq = afterRuns.get(key);
      if (!aq) continue;
      const bf = questionFacets(bq);
      const af = questionFacets(aq);
      for (const what of Object.keys(bf) as Array<QuestionChange['what']>) {
        if (bf[what] !== af[what]) questions.push({ config: label, questionId: bq.score.questionId, repeat: bq.score.repeat, what, before: bf[what], after: af[what] });
      }
    }
  }

  const corpusChanged = before.corpus.fingerprint !== after.corpus.fingerprint || before.corpus.documents !== after.corpus.documents;
  const setChanged = before.run.questionSet.sha256 !== after.run.questionSet.sha256;
  const configsOnlyBefore = [...beforeConfigs.keys()].filter((l) => !afterConfigs.has(l));
  const configsOnlyAfter = [...afterConfigs.keys()].filter((l) => !beforeConfigs.has(l));
  // Counted differently, equal numbers would be a coincidence and different ones no regression.
  const metricsVersions = before.metricsVersion !== after.metricsVersion ? { before: before.metricsVersion, after: after.metricsVersion } : null;
  return {
    same: !corpusChanged && !setChanged && metricsVersions === null && configsOnlyBefore.length === 0 && configsOnlyAfter.length === 0 && metrics.length === 0 && questions.length === 0,
    corpus: corpusChanged ? { before: before.corpus, after: after.corpus } : null,
    questionSet: setChanged ? { before: before.run.questionSet.sha256, after: after.run.questionSet.sha256 } : null,
    versions,
    metricsVersions,
    configsOnlyBefore,
    configsOnlyAfter,
    metrics,
    questions,
    timing,
  };
}
