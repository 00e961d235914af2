import { Fragment, useCallback, useEffect, useState } from 'react';
import type { EvalReportSummary } from '../../../../shared/eval';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { modelsLine, newestFirst } from './eval-reports';
import { formatDate, formatDuration, plural } from '../../common/format';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { ErrorNote } from '../../common/ErrorNote';

interface ReportListProps {
  /** Changes when a run finishes, so the list reloads. */
  refreshKey: number;
  onOpen: (id: number) => void;
}

/** Earlier evaluations, newest first: open one, or delete it after a confirmation. */
export function ReportList({ refreshKey, onOpen }: ReportListProps) {
  const client = useClient();
  const [reports, setReports] = useState<EvalReportSummary[] | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [confirm, setConfirm] = useState<EvalReportSummary | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    client.evalReports({}).then(
      (r) => {
        setReports(newestFirst(r.reports));
        setError(null);
      },
      (e: unknown) => setError(describeError(e)),
    );
  }, [client]);

  useEffect(() => load(), [load, refreshKey]);

  const remove = async (r: EvalReportSummary) => {
    setBusy(true);
    try {
      await client.deleteEvalReport({ id: r.id });
      load();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };

  return (
    <section className="card eval-reports" data-testid="eval-reports" aria-labelledby="eval-reports-title">
      <h2 id="eval-reports-title" className="section-title">
        Earlier evaluations
      </h2>
      {error && <ErrorNote error={error} />}
      {reports && reports.length === 0 && <p className="muted small">None yet. A finished run is kept here.</p>}
      {reports && reports.length > 0 && (
        <ul className="eval-list">
          {reports.map((r) => (
            <li key={r.id} className="eval-list__item" data-report={r.id}>
              <button type="button" className="eval-list__open" onClick={() => onOpen(r.id)}>
                <span className="eval-list__title">{formatDate(r.at)}</span>
                <span className="muted small eval-list__meta">
                  {[r.questionSet, plural(r.configs, 'configuration'), plural(r.questions, 'question'), formatDuration(r.ms)].map((part, i) => (
                    <Fragment key={i}>
                      {i > 0 && ' · '}
                      <span>{part}</span>
                    </Fragment>
                  ))}
                </span>
                {modelsLine(r) && (
                  <span className="muted small mono eval-list__models" data-testid="eval-list-models">
                    {modelsLine(r)}
                  </span>
                )}
                <span className="muted small mono eval-list__path" title={r.docs}>
                  {r.docs}
                </span>
              </button>
              <button type="button" className="button button--quiet small" onClick={() => setConfirm(r)} aria-label={`Delete the evaluation of ${formatDate(r.at)}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {confirm && (
        <ConfirmDialog title="Delete this evaluation?" confirmLabel="Delete evaluation" busy={busy} onCancel={() => setConfirm(null)} onConfirm={() => void remove(confirm)}>
          <p>
            The report of {formatDate(confirm.at)} ({plural(confirm.configs, 'configuration')}) is removed from Quire. Exported files are not touched.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
