import { useEffect, useRef, useState } from 'react';
import type { EvalJob } from './eval-job';
import type { EvalSession } from './eval-session';
import { ErrorNote } from '../../common/ErrorNote';
import { IndexStorage } from './IndexStorage';
import { ReportList } from './ReportList';
import { ReportView } from './ReportView';
import { RunProgress } from './RunProgress';
import { SavedQuestionList } from './SavedQuestionList';
import { SetupForm } from './SetupForm';

/** What a screen reader hears when a run ends; a failure is an alert of its own, so it is not repeated here. */
function endSentence(job: EvalJob): string {
  if (job.cancelled) return `The evaluation was cancelled${job.reportId === null ? '; no report was written.' : '.'}`;
  if (job.error) return '';
  if (job.lost) return 'The evaluation ended, but its result was not received.';
  return job.reportId !== null ? 'The evaluation finished; its report is open.' : 'The evaluation finished.';
}

/**
 * Evaluation: set up a grid of models and retrieval settings, run a question set over it,
 * and compare the configurations. Earlier reports and saved questions sit beside the form.
 * Opening a report (by hand or at the end of a run) and going back move focus to the heading of
 * what is now shown; the end of a run is announced.
 */
export function EvaluateView({ session }: { session: EvalSession }) {
  const { job, draft, setDraft, openReportId, openReport, navigations, compareWith, run, rerun, rerunOf } = session;
  const [savedVersion, setSavedVersion] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const pageHeading = useRef<HTMLHeadingElement>(null);
  const reportHeading = useRef<HTMLHeadingElement>(null);

  // Only changes while the view is on screen move focus or speak, not the state it finds when it opens.
  const seenNavigations = useRef(navigations);
  useEffect(() => {
    if (seenNavigations.current === navigations) return;
    seenNavigations.current = navigations;
    (openReportId !== null ? reportHeading.current : pageHeading.current)?.focus();
  }, [navigations, openReportId]);

  const seenRuns = useRef(job.finishedRuns);
  useEffect(() => {
    if (seenRuns.current === job.finishedRuns) return;
    seenRuns.current = job.finishedRuns;
    setAnnouncement(endSentence(job));
  }, [job]);

  return (
    <div className="eval" data-testid="evaluate-view">
      <h1 ref={pageHeading} tabIndex={-1}>
        Evaluate
      </h1>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="eval-announce">
        {announcement}
      </p>
      {job.running && <RunProgress progress={job.progress} startedAt={job.startedAt} onCancel={job.cancel} />}
      {!job.running && job.error && <ErrorNote error={job.error} />}
      {!job.running && job.cancelled && (
        <p className="notice" data-testid="eval-cancelled">
          The evaluation was cancelled{job.reportId === null ? '; no report was written.' : '.'}
        </p>
      )}
      {!job.running && job.lost && (
        <p className="notice" data-testid="eval-lost">
          The evaluation ended, but its result was not received, and no report of it was found. If it wrote one, it is under Earlier evaluations.
        </p>
      )}
      {openReportId !== null ? (
        <ReportView
          reportId={openReportId}
          onBack={() => openReport(null)}
          headingRef={reportHeading}
          compareWith={compareWith}
          onRerun={rerun}
          running={job.running}
          rerunError={rerunOf === openReportId ? job.startError : null}
          refreshKey={job.finishedRuns}
        />
      ) : (
        <div className="eval__layout">
          <div className="eval__main">
            <SetupForm draft={draft} onDraft={setDraft} running={job.running} onStart={run} startError={rerunOf === null ? job.startError : null} savedVersion={savedVersion} />
          </div>
          <aside className="eval__side" aria-label="Earlier evaluations and saved questions">
            <ReportList refreshKey={job.finishedRuns} onOpen={openReport} />
            <SavedQuestionList onChanged={() => setSavedVersion((n) => n + 1)} />
            <IndexStorage refreshKey={job.finishedRuns} running={job.running} />
          </aside>
        </div>
      )}
    </div>
  );
}
