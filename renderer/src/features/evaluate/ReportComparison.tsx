import { useEffect, useId, useState } from 'react';
import { metricsChangeSentence, type EvalReportSummary, type ReportDiff } from '../../../../shared/eval';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { modelsLine, newestFirst } from './eval-reports';
import { formatDate, plural } from '../../common/format';
import { shortHash, shortModel } from './eval-metrics';
import { ErrorNote } from '../../common/ErrorNote';
import { MetricChanges, QuestionChanges } from './ComparisonTables';

interface ReportComparisonProps {
  /** The report on screen: the "after" side. */
  reportId: number;
  /** The report chosen at first (after "Run again": the one it repeated). */
  initialBefore: number | null;
  /** Changes when a run finishes, so the list of reports reloads. */
  refreshKey: number;
}

/** Differences that count against reproducing (versions and timings are reasons and noise, not failures). */
export function differenceCount(d: ReportDiff): number {
  return (d.corpus ? 1 : 0) + (d.questionSet ? 1 : 0) + (d.metricsVersions ? 1 : 0) + d.configsOnlyBefore.length + d.configsOnlyAfter.length + d.metrics.length + d.questions.length;
}

/** "Compare with…": what changed from another stored report to this one, from `compareEvalReports`. */
export function ReportComparison({ reportId, initialBefore, refreshKey }: ReportComparisonProps) {
  const client = useClient();
  const selectId = useId();
  const [reports, setReports] = useState<EvalReportSummary[] | null>(null);
  const [before, setBefore] = useState<number | null>(initialBefore);
  const [diff, setDiff] = useState<ReportDiff | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  useEffect(() => {
    let live = true;
    client.evalReports({}).then(
      (r) => live && setReports(newestFirst(r.reports.filter((x) => x.id !== reportId))),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [client, reportId, refreshKey]);

  useEffect(() => {
    setDiff(null);
    setError(null);
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
              {formatDate(r.at, { seconds: true })} · {r.questionSet} · {plural(r.configs, 'configuration')}
              {modelsLine(r) ? ` · ${modelsLine(r)}` : ''}
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
            {chosen && <span className="muted small"> · compared with {formatDate(chosen.at, { seconds: true })}</span>}
          </p>

          {diff.metricsVersions && (
            <p className="warning small" data-testid="eval-compare-metrics-version">
              {metricsChangeSentence(diff.metricsVersions.before, diff.metricsVersions.after, { before: 'the earlier evaluation', after: 'this one' })}
            </p>
          )}
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

          <MetricChanges key={`m${before}`} changes={diff.metrics} />
          <QuestionChanges key={`q${before}`} changes={diff.questions} />

          <p className="muted small eval-compare__timing" data-testid="eval-compare-timing">
            {diff.timing.length === 0 ? 'No timing figure moved' : `${plural(diff.timing.length, 'timing figure')} moved`} (timings never repeat exactly).
          </p>
        </div>
      )}
    </section>
  );
}
