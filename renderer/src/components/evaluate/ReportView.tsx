import { useEffect, useState } from 'react';
import type { EvalReport } from '../../../../shared/eval';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../hooks/client';
import { ErrorNote } from '../common/ErrorNote';
import { DrillDown } from './DrillDown';
import { ExportButtons } from './ExportButtons';
import { MetricChart } from './MetricChart';
import { ReportHeader } from './ReportHeader';
import { ResultsTable } from './ResultsTable';

interface ReportViewProps {
  reportId: number;
  onBack: () => void;
}

/** One saved report: what it ran on, the table, a chart of one metric, and every question's runs. */
export function ReportView({ reportId, onBack }: ReportViewProps) {
  const client = useClient();
  const [report, setReport] = useState<EvalReport | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  useEffect(() => {
    let live = true;
    setReport(null);
    setError(null);
    client.getEvalReport({ id: reportId }).then(
      (r) => live && setReport(r),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [client, reportId]);

  return (
    <div className="eval-results" data-testid="eval-results" aria-busy={!report && !error}>
      <div className="row eval-results__bar">
        <button type="button" className="button button--quiet" onClick={onBack} data-testid="eval-back">
          ← Back to evaluations
        </button>
        {report && <ExportButtons report={report} />}
      </div>
      {error && <ErrorNote error={error} />}
      {!report && !error && <p className="muted">Loading the report…</p>}
      {report && (
        <>
          <section className="card" aria-label="Report">
            <ReportHeader report={report} />
            <ResultsTable configs={report.configs} />
            <p className="muted small eval-results__legend">
              Green: the best value in a column. —: not run (hover for why). Rates are shares of the questions they apply to. Headers sort; the table scrolls
              sideways for speed and stability.
            </p>
          </section>
          <MetricChart report={report} />
          <DrillDown report={report} />
        </>
      )}
    </div>
  );
}
