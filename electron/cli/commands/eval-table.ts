import { failedConfigs, type EvalMetrics, type EvalReport } from '../../../shared/eval';

const pct = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);
const ms = (v: number | null) => (v === null ? '—' : `${Math.round(v)}`);
const tok = (v: number | null) => (v === null ? '—' : `${Math.round(v)}`);

/** Each column: its heading, whether it scores answers (left out of a retrieval-only table), its cell. */
const COLUMNS: Array<[string, boolean, (m: EvalMetrics, errors: number) => string]> = [
  ['hit@1', false, (m) => pct(m.hit1)],
  ['hit@3', false, (m) => pct(m.hit3)],
  ['hit@5', false, (m) => pct(m.hit5)],
  ['hit@k', false, (m) => pct(m.hitK)],
  ['MRR', false, (m) => (m.mrr === null ? '—' : m.mrr.toFixed(2))],
  ['fact sent', false, (m) => pct(m.factSent)],
  ['src tok p50', false, (m) => tok(m.sourceTokensP50)],
  ['fact', true, (m) => pct(m.answerHasFact)],
  ['cite ok', true, (m) => pct(m.citationValid)],
  ['supp.', true, (m) => pct(m.supportedCitationRate)],
  ['cites fact', true, (m) => pct(m.citesFact)],
  ['refuse ok', true, (m) => pct(m.refusalAccuracy)],
  ['false ref.', true, (m) => pct(m.falseRefusals)],
  // Each chat model's own count: one model spends more of its window than another on the same sources.
  ['tokens est/rep', true, (m) => `${tok(m.promptTokens.estimated)}/${tok(m.promptTokens.reported)}${m.promptTokens.exact === 1 ? ' exact' : ''}`],
  ['trunc', true, (m) => (m.truncations === null ? '—' : String(m.truncations))],
  ['retr. p50/p95 ms', false, (m) => `${ms(m.latencyMs.retrieve.p50)}/${ms(m.latencyMs.retrieve.p95)}`],
  ['gen. p50/p95 ms', true, (m) => `${ms(m.latencyMs.generate.p50)}/${ms(m.latencyMs.generate.p95)}`],
  ['tok/s', true, (m) => (m.tokensPerSecond === null ? '—' : m.tokensPerSecond.toFixed(0))],
  ['changed', true, (m) => (m.changedAcrossRepeats === null ? '—' : String(m.changedAcrossRepeats))],
  ['errors', false, (_m, errors) => String(errors)],
];

/** The terminal table: one row per configuration, columns sized to their contents. */
export function evalTable(r: EvalReport): string {
  // Without a chat model every answer column is "—": a retrieval-only table leaves them out, so it fits a terminal.
  const answers = r.configs.some((c) => c.chatModel !== null);
  const columns = COLUMNS.filter(([, scoresAnswers]) => answers || !scoresAnswers);
  const head = ['chat model', 'embed model', 'chunker', 'k', 'mode', 'fusion', ...columns.map(([h]) => h)];
  // A configuration whose every question failed measured nothing: its rates are "—", not 0%, which would read as a score.
  const failed = failedConfigs(r);
  const rows = r.configs.map((c, i) => [
    c.chatModel ?? '(retrieval only)',
    c.embedModel,
    c.chunker,
    String(c.k),
    c.mode,
    c.mode === 'hybrid' ? c.fusion : 'n/a',
    ...columns.map(([h, , f]) => (failed.has(i) && h !== 'errors' ? '—' : f(c.metrics, c.errors))),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 6 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  return [
    `${r.corpus.documents} documents (fingerprint ${r.corpus.fingerprint.slice(0, 12)}), ${r.questions.answerable} answerable and ${r.questions.unanswerable} unanswerable questions, ${(r.run.ms / 1000).toFixed(1)} s`,
    '',
    line(head),
    ...rows.map(line),
    '',
    answers
      ? '— = not run (no chat model, or nothing eligible). Rates are shares of eligible questions.'
      : 'Retrieval only (no --chat-models): answers were not scored. — = nothing eligible. Rates are shares of eligible questions.',
    ...(r.warnings ?? []).map((w) => `Warning: ${w}`),
  ].join('\n');
}
