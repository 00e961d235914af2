import { useEffect, useMemo, useState, type Ref } from 'react';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { sortConfigs, type SortState } from './eval-metrics';
import { failedConfigs, type EvalReport } from '../../../../shared/eval';
import { indexRuns } from './eval-questions';
import { formatDate } from '../../common/format';
import { ErrorNote } from '../../common/ErrorNote';
import { DrillDown } from './DrillDown';
import { ExportButtons } from './ExportButtons';
import { MetricChart } from './MetricChart';
import { ReportComparison } from './ReportComparison';
import { ReportHeader } from './ReportHeader';
import { ResultsTable } from './ResultsTable';
import { UseConfiguration } from './UseConfiguration';

interface ReportViewProps {
  reportId: number;
  onBack: () => void;
  /** The report's heading, there from the start (also while loading), so focus can be moved to it. */
  headingRef?: Ref<HTMLHeadingElement>;
  /** The report to compare with when it opens (after "Run again": the one it repeated). */
  compareWith?: number | null;
  /** Runs this report again; absent: no "Run again" button. */
  onRerun?: (reportId: number) => void;
  /** An evaluation is going on (so it cannot be run again now). */
  running?: boolean;
  /** Why the last "Run again" of this report was refused. */
  rerunError?: DescribedError | null;
  /** Changes when a run finishes, so the reports to compare with reload. */
  refreshKey?: number;
}

/** A refused "Run again" as a sentence about this report. */
function rerunSentence(error: DescribedError): DescribedError {
  if (error.code === 'NOT_A_FOLDER') return { ...error, sentence: 'This evaluation cannot be run again: the folder it ran on is gone or cannot be read.' };
  if (error.code === 'EVAL_REPORT_NOT_FOUND') return { ...error, sentence: 'This evaluation cannot be run again: its report no longer exists.' };
  if (error.code === 'EVAL_ALREADY_RUNNING') return { ...error, sentence: 'Another evaluation is running. Run this one again when it has finished, or cancel it.' };
  return error;
}

/** One saved report: what it ran on, the table, a chart of one metric, and every question's runs. */
export function ReportView({ reportId, onBack, headingRef, compareWith = null, onRerun, running = false, rerunError = null, refreshKey = 0 }: ReportViewProps) {
  const client = useClient();
  const [report, setReport] = useState<EvalReport | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [sort, setSort] = useState<SortState | null>(null);

  useEffect(() => {
    let live = true;
    setReport(null);
    setError(null);
    setSort(null);
    client.getEvalReport({ id: reportId }).then(
      (r) => live && setReport(r),
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [client, reportId]);

  // Looked up once per report: a large report holds many thousands of runs.
  const index = useMemo(() => (report ? indexRuns(report) : null), [report]);
  const failed = useMemo(() => (report && index ? failedConfigs(report, index.counts) : new Set<number>()), [report, index]);
  const order = useMemo(() => (report ? sortConfigs(report.configs, sort, failed) : []), [report, sort, failed]);

  return (
    <div className="eval-results" data-testid="eval-results" aria-busy={!report && !error}>
      <div className="row eval-results__bar">
        <button type="button" className="button button--quiet" onClick={onBack} data-testid="eval-back">
          ← Back to evaluations
        </button>
        {report && (
          <div className="row eval-results__actions">
            {onRerun && (
              <button
                type="button"
                className="button"
                onClick={() => onRerun(reportId)}
                disabled={running}
                title={running ? 'An evaluation is going on; wait for it to finish.' : 'Run the same questions over the same grid and folder again, and compare'}
                data-testid="eval-run-again"
              >
                Run again
              </button>
            )}
            <ExportButtons report={report} />
          </div>
        )}
      </div>
      {rerunError && !running && (
        <div data-testid="eval-rerun-error">
          <ErrorNote error={rerunSentence(rerunError)} />
        </div>
      )}
      <section className="card" aria-labelledby="eval-report-title">
        <h2 id="eval-report-title" ref={headingRef} tabIndex={-1} className="eval-report-head__title" data-testid="eval-report-title">
          {report ? (
            <>
              {report.run.questionSet.name} <span className="muted">· {formatDate(report.run.at)}</span>
            </>
          ) : error ? (
            'This evaluation could not be opened'
          ) : (
            'Loading the evaluation…'
          )}
        </h2>
        {error && <ErrorNote error={error} />}
        {report && index && (
          <>
            <ReportHeader report={report} />
            <ResultsTable configs={report.configs} order={order} sort={sort} onSort={setSort} failed={failed} />
            <p className="muted small eval-results__legend">
              Green: the best value in a column, among the configurations where no question run failed. —: not run (hover for why). “failed”: every question run of that
              configuration failed. Rates are shares of the questions they apply to. Headers sort; the table scrolls sideways for speed and stability.
            </p>
          </>
        )}
      </section>
      {report && <UseConfiguration key={reportId} report={report} failed={failed} />}
      {report && <ReportComparison key={`${reportId}:${compareWith ?? ''}`} reportId={reportId} initialBefore={compareWith} refreshKey={refreshKey} />}
      {report && index && (
        <>
          <MetricChart report={report} failed={failed} />
          <DrillDown report={report} index={index} order={order} />
        </>
      )}
    </div>
  );
}
