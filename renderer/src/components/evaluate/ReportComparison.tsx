import { useEffect, useId, useState } from 'react';
import type { EvalReportSummary, MetricChange, QuestionChange, ReportDiff } from '../../../../shared/eval';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../hooks/client';
import { plural } from '../../lib/eval-grid';
import { formatMetric, metricColumn, shortHash, shortModel, type MetricKey } from '../../lib/eval-metrics';
import { ErrorNote } from '../common/ErrorNote';

interface ReportComparisonProps {
  /** The report on screen: the "after" side. */
  reportId: number;
  /** The report chosen at first (after "Run again": the one it repeated). */
  initialBefore: number | null;
  /** Changes when a run finishes, so the list of reports reloads. */
  refreshKey: number;
}

/** The diff's metric names, as the results table calls them. */
const METRIC_KEYS: Record<string, MetricKey> = {
  'promptTokens.estimated': 'promptEstimated',
  'promptTokens.reported': 'promptReported',
};

function metricOf(name: string) {
  try {
    return metricColumn((METRIC_KEYS[name] ?? name) as MetricKey);
  } catch {
    return null;
  }
}

const WHAT_WORDS: Record<QuestionChange['what'], string> = {
  retrieved: 'passages retrieved',
  answer: 'answer',
  refused: 'refused',
  citations: 'citation checks',
  error: 'error',
};

/** A report's time to the second: two runs of the same grid are often minutes, or seconds, apart. */
function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** Rows shown before "Show all". */
const FIRST_ROWS = 40;
/** Characters of a changed text shown before it is cut (the whole text opens under it). */
const SHORT_TEXT = 90;

/** Differences that count against reproducing (versions and timings are reasons and noise, not failures). */
export function differenceCount(d: ReportDiff): number {
  return (d.corpus ? 1 : 0) + (d.questionSet ? 1 : 0) + d.configsOnlyBefore.length + d.configsOnlyAfter.length + d.metrics.length + d.questions.length;
}

function ChangedText({ text }: { text: string }) {
  const shown = text === '' ? '(nothing)' : text;
  if (shown.length <= SHORT_TEXT) return <span className="eval-compare__text">{shown}</span>;
  return (
    <details className="eval-compare__long" title={shown}>
      <summary>{shown.slice(0, SHORT_TEXT).trimEnd()}…</summary>
      <p className="eval-compare__text">{shown}</p>
    </details>
  );
}

function MetricRows({ changes }: { changes: MetricChange[] }) {
  return (
    <>
      {changes.map((m, i) => {
        const col = metricOf(m.metric);
        const fmt = (v: number | null) => (col ? formatMetric(col.kind, v) : v === null ? '—' : String(v));
        return (
          <tr key={i}>
            <td className="mono small eval-compare__config">{m.config}</td>
            <td title={col?.title}>{col?.label ?? m.metric}</td>
            <td className="eval-compare__num">{fmt(m.before)}</td>
            <td className="eval-compare__num">{fmt(m.after)}</td>
          </tr>
        );
      })}
    </>
  );
}

/** "Compare with…": what changed from another stored report to this one, from `compareEvalReports`. */
export function ReportComparison({ reportId, initialBefore, refreshKey }: ReportComparisonProps) {
  const client = useClient();
  const selectId = useId();
  const [reports, setReports] = useState<EvalReportSummary[] | null>(null);
  const [before, setBefore] = useState<number | null>(initialBefore);
  const [diff, setDiff] = useState<ReportDiff | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [allMetrics, setAllMetrics] = useState(false);
  const [allQuestions, setAllQuestions] = useState(false);

  useEffect(() => {
    let live = true;
    client.evalReports({}).then(
      (r) => live && setReports(r.reports.filter((x) => x.id !== reportId).sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id)),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [client, reportId, refreshKey]);

  useEffect(() => {
    setDiff(null);
    setError(null);
    setAllMetrics(false);
    setAllQuestions(false);
    if (before === null) return;
    let live = true;
    client.compareEvalReports({ before, after: reportId }).then(
      (d) => live && setDiff(d),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [client, before, reportId]);

  const chosen = reports?.find((r) => r.id === before) ?? null;
  const n = diff ? differenceCount(diff) : 0;
  const metrics = diff ? (allMetrics ? diff.metrics : diff.metrics.slice(0, FIRST_ROWS)) : [];
  const questions = diff ? (allQuestions ? diff.questions : diff.questions.slice(0, FIRST_ROWS)) : [];

  return (
    <section className="card eval-compare" data-testid="eval-compare" aria-labelledby="eval-compare-title">
      <div className="row eval-compare__head">
        <h3 id="eval-compare-title" className="section-title">
          What changed
        </h3>
        <label className="row small" htmlFor={selectId}>
          <span>Compare with…</span>
        </label>
        <select
          id={selectId}
          value={before ?? ''}
          onChange={(e) => setBefore(e.target.value === '' ? null : Number(e.target.value))}
          data-testid="eval-compare-select"
          disabled={reports !== null && reports.length === 0 && before === null}
        >
          <option value="">{reports && reports.length === 0 ? 'No other evaluation to compare with' : 'Choose an earlier evaluation'}</option>
          {before !== null && reports && !chosen && <option value={before}>Evaluation #{before}</option>}
          {reports?.map((r) => (
            <option key={r.id} value={r.id}>
              {when(r.at)} · {r.questionSet} · {plural(r.configs, 'configuration')}
            </option>
          ))}
        </select>
      </div>
      {before === null && !error && <p className="muted small eval-compare__hint">Choose an earlier evaluation to see what changed from it to this one.</p>}
      {error && <ErrorNote error={error} />}
      {before !== null && !diff && !error && <p className="muted small">Comparing…</p>}
      {diff && (
        <div className="eval-compare__result" data-testid="eval-compare-result">
          <p className={diff.same ? 'eval-compare__headline eval-compare__headline--same' : 'eval-compare__headline eval-compare__headline--diff'} data-testid="eval-compare-headline">
            {diff.same ? 'Reproduced: every score and answer is the same' : n > 0 ? plural(n, 'difference') : 'Differences found'}
            {chosen && <span className="muted small"> · compared with {when(chosen.at)}</span>}
          </p>

          {diff.corpus && (
            <p className="small" data-testid="eval-compare-corpus">
              <strong>Documents changed:</strong> {diff.corpus.before.documents} <span className="muted mono">{shortHash(diff.corpus.before.fingerprint)}</span> →{' '}
              {diff.corpus.after.documents} <span className="muted mono">{shortHash(diff.corpus.after.fingerprint)}</span>
            </p>
          )}
          {diff.questionSet && (
            <p className="small" data-testid="eval-compare-questionset">
              <strong>The question set changed:</strong> <span className="muted mono">{shortHash(diff.questionSet.before)}</span> →{' '}
              <span className="muted mono">{shortHash(diff.questionSet.after)}</span>
            </p>
          )}
          {diff.versions.length > 0 && (
            <div className="small" data-testid="eval-compare-versions">
              <strong>Versions changed</strong> <span className="muted">(the likeliest reasons for any change)</span>
              <ul className="eval-compare__list">
                {diff.versions.map((v, i) => (
                  <li key={i}>
                    <span className="mono">{v.what === 'Quire' || v.what === 'Ollama' ? v.what : shortModel(v.what)}</span>:{' '}
                    <span className="mono" title={v.before ?? undefined}>
                      {v.what === 'Quire' || v.what === 'Ollama' ? (v.before ?? 'unknown') : shortHash(v.before)}
                    </span>{' '}
                    →{' '}
                    <span className="mono" title={v.after ?? undefined}>
                      {v.what === 'Quire' || v.what === 'Ollama' ? (v.after ?? 'unknown') : shortHash(v.after)}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {(diff.configsOnlyBefore.length > 0 || diff.configsOnlyAfter.length > 0) && (
            <div className="small" data-testid="eval-compare-configs">
              {diff.configsOnlyBefore.length > 0 && (
                <>
                  <strong>Only in the earlier evaluation:</strong>
                  <ul className="eval-compare__list mono">
                    {diff.configsOnlyBefore.map((c) => (
                      <li key={c}>{c}</li>
                    ))}
                  </ul>
                </>
              )}
              {diff.configsOnlyAfter.length > 0 && (
                <>
                  <strong>Only in this evaluation:</strong>
                  <ul className="eval-compare__list mono">
                    {diff.configsOnlyAfter.map((c) => (
                      <li key={c}>{c}</li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          )}

          {diff.metrics.length > 0 && (
            <>
              <h4 className="eval-compare__sub">Scores that changed ({diff.metrics.length})</h4>
              <div className="eval-compare__table-wrap">
                <table className="eval-compare__table" data-testid="eval-compare-metrics">
                  <thead>
                    <tr>
                      <th scope="col">Configuration</th>
                      <th scope="col">Metric</th>
                      <th scope="col">Before</th>
                      <th scope="col">Now</th>
                    </tr>
                  </thead>
                  <tbody>
                    <MetricRows changes={metrics} />
                  </tbody>
                </table>
              </div>
              {diff.metrics.length > FIRST_ROWS && (
                <button type="button" className="button button--quiet small" onClick={() => setAllMetrics((a) => !a)}>
                  {allMetrics ? 'Show fewer' : `Show all ${diff.metrics.length}`}
                </button>
              )}
            </>
          )}

          {diff.questions.length > 0 && (
            <>
              <h4 className="eval-compare__sub">Question runs that changed ({diff.questions.length})</h4>
              <div className="eval-compare__table-wrap">
                <table className="eval-compare__table" data-testid="eval-compare-questions">
                  <thead>
                    <tr>
                      <th scope="col">Configuration</th>
                      <th scope="col">Question</th>
                      <th scope="col">What</th>
                      <th scope="col">Before</th>
                      <th scope="col">Now</th>
                    </tr>
                  </thead>
                  <tbody>
                    {questions.map((q, i) => (
                      <tr key={i}>
                        <td className="mono small eval-compare__config">{q.config}</td>
                        <td className="mono small">
                          {q.questionId}
                          {q.repeat > 0 && <span className="muted"> · repeat {q.repeat + 1}</span>}
                        </td>
                        <td>{WHAT_WORDS[q.what]}</td>
                        <td className="small">
                          <ChangedText text={q.before} />
                        </td>
                        <td className="small">
                          <ChangedText text={q.after} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {diff.questions.length > FIRST_ROWS && (
                <button type="button" className="button button--quiet small" onClick={() => setAllQuestions((a) => !a)}>
                  {allQuestions ? 'Show fewer' : `Show all ${diff.questions.length}`}
                </button>
              )}
            </>
          )}

          <p className="muted small eval-compare__timing" data-testid="eval-compare-timing">
            {diff.timing.length === 0 ? 'No timing figure moved' : `${plural(diff.timing.length, 'timing figure')} moved`} (timings never repeat exactly).
          </p>
        </div>
      )}
    </section>
  );
}
