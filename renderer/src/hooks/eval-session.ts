import { useCallback, useState } from 'react';
import type { QuestionSetRef, QuestionSetSummary } from '../../../shared/eval';
import type { GridDraft } from '../lib/eval-grid';
import { useEvalJob, type EvalJob, type EvalJobOptions } from './eval-job';

/** A question-set file the person loaded, with the text that is sent when it is run. */
export interface LoadedSet {
  ref: Extract<QuestionSetRef, { kind: 'file' }>;
  summary: QuestionSetSummary;
}

/** The Evaluate form as filled in so far. */
export interface SetupDraft {
  collectionId: string | null;
  /** setKey() of the chosen question set. */
  set: string | null;
  files: LoadedSet[];
  grid: GridDraft;
}

/** "folder", "saved", or "file:<name>": one key per question set in the picker. */
export function setKey(ref: QuestionSetRef): string {
  return ref.kind === 'file' ? `file:${ref.name}` : ref.kind;
}

/** A new draft, or a change to the draft as it is when the change is applied (so edits made meanwhile are kept). */
export type DraftUpdate = SetupDraft | ((current: SetupDraft) => SetupDraft);

export interface EvalSession {
  job: EvalJob;
  draft: SetupDraft | null;
  /** Sets the draft; an updater function gets the latest draft (it is not called while there is none). */
  setDraft: (update: DraftUpdate) => void;
  /** The report shown in place of the form; null shows the form. */
  openReportId: number | null;
  openReport: (id: number | null) => void;
  /** Counts every change of what is shown (a report opened, by the person or at the end of a run, or closed), so the view can move focus. */
  navigations: number;
}

/**
 * What the Evaluate view keeps while the person is elsewhere: the form, the running job, and the
 * report on screen. A finished run opens its report.
 */
export function useEvalSession(options: EvalJobOptions = {}): EvalSession {
  const [draft, setDraftState] = useState<SetupDraft | null>(null);
  const [openReportId, setOpenReportId] = useState<number | null>(null);
  const [navigations, setNavigations] = useState(0);
  const openReport = useCallback((id: number | null) => {
    setOpenReportId(id);
    setNavigations((n) => n + 1);
  }, []);
  const setDraft = useCallback((update: DraftUpdate) => {
    setDraftState((current) => (typeof update === 'function' ? (current ? update(current) : current) : update));
  }, []);
  const onDone = useCallback(
    (reportId: number | null) => {
      if (reportId !== null) openReport(reportId);
    },
    [openReport],
  );
  const job = useEvalJob(onDone, options);
  return { job, draft, setDraft, openReportId, openReport, navigations };
}
