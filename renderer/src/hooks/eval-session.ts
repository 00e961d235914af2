import { useCallback, useState } from 'react';
import type { QuestionSetRef, QuestionSetSummary } from '../../../shared/eval';
import type { GridDraft } from '../lib/eval-grid';
import { useEvalJob, type EvalJob } from './eval-job';

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

export interface EvalSession {
  job: EvalJob;
  draft: SetupDraft | null;
  setDraft: (d: SetupDraft) => void;
  /** The report shown in place of the form; null shows the form. */
  openReportId: number | null;
  openReport: (id: number | null) => void;
}

/**
 * What the Evaluate view keeps while the person is elsewhere: the form, the running job, and the
 * report on screen. A finished run opens its report.
 */
export function useEvalSession(): EvalSession {
  const [draft, setDraft] = useState<SetupDraft | null>(null);
  const [openReportId, openReport] = useState<number | null>(null);
  const onDone = useCallback((reportId: number | null) => {
    if (reportId !== null) openReport(reportId);
  }, []);
  const job = useEvalJob(onDone);
  return { job, draft, setDraft, openReportId, openReport };
}
