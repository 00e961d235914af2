import { useState } from 'react';
import type { EvalSession } from '../../hooks/eval-session';
import { ErrorNote } from '../common/ErrorNote';
import { ReportList } from './ReportList';
import { ReportView } from './ReportView';
import { RunProgress } from './RunProgress';
import { SavedQuestionList } from './SavedQuestionList';
import { SetupForm } from './SetupForm';

/**
 * The model bench: set up a grid of models and retrieval settings, run a question set over it,
 * and compare the configurations. Earlier reports and saved questions sit beside the form.
 */
export function EvaluateView({ session }: { session: EvalSession }) {
  const { job, draft, setDraft, openReportId, openReport } = session;
  const [savedVersion, setSavedVersion] = useState(0);

  return (
    <div className="eval" data-testid="evaluate-view">
      <h1>Evaluate</h1>
      {job.running && <RunProgress progress={job.progress} startedAt={job.startedAt} onCancel={job.cancel} />}
      {!job.running && job.error && <ErrorNote error={job.error} />}
      {!job.running && job.cancelled && (
        <p className="notice" role="status">
          The evaluation was cancelled{job.reportId === null ? '; no report was written.' : '.'}
        </p>
      )}
      {openReportId !== null ? (
        <ReportView reportId={openReportId} onBack={() => openReport(null)} />
      ) : (
        <div className="eval__layout">
          <div className="eval__main">
            <SetupForm draft={draft} onDraft={setDraft} running={job.running} onStart={(input) => void job.start(input)} startError={job.startError} savedVersion={savedVersion} />
          </div>
          <aside className="eval__side" aria-label="Earlier evaluations and saved questions">
            <ReportList refreshKey={job.finishedRuns} openId={openReportId} onOpen={openReport} onDeleted={(id) => id === openReportId && openReport(null)} />
            <SavedQuestionList onChanged={() => setSavedVersion((n) => n + 1)} />
          </aside>
        </div>
      )}
    </div>
  );
}
