import { useCallback, useRef, useState } from 'react';
import type { Input } from '../../../../shared/contract';
import type { QuestionSetRef, QuestionSetSummary } from '../../../../shared/eval';
import type { GridDraft } from './eval-grid';
import { useClient } from '../../app/client';
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
  /** Opens a report (null: the form); `compareWith` preselects a report to compare it with. */
  openReport: (id: number | null, compareWith?: number | null) => void;
  /** The report the open one is compared with when it opens (after "Run again": the one it repeated). */
  compareWith: number | null;
  /** Starts a run from the form. */
  run: (input: Input<'startEval'>) => void;
  /** Runs a stored report again; its new report opens compared with this one. */
  rerun: (reportId: number) => void;
  /** The report the last start repeated, or null when it came from the form (so a refusal is shown where it was asked for). */
  rerunOf: number | null;
  /** Counts every change of what is shown (a report opened, by the person or at the end of a run, or closed), so the view can move focus. */
  navigations: number;
}

/**
 * What the Evaluate view keeps while the person is elsewhere: the form, the running job, and the
 * report on screen. A finished run opens its report.
 */
export function useEvalSession(options: EvalJobOptions = {}): EvalSession {
  const client = useClient();
  const [draft, setDraftState] = useState<SetupDraft | null>(null);
  const [openReportId, setOpenReportId] = useState<number | null>(null);
  const [compareWith, setCompareWith] = useState<number | null>(null);
  const [navigations, setNavigations] = useState(0);
  const [rerunOf, setRerunOf] = useState<number | null>(null);
  /** The report the run going on repeats: its new report opens compared with it. */
  const repeating = useRef<number | null>(null);
  const openReport = useCallback((id: number | null, compare: number | null = null) => {
    setOpenReportId(id);
    setCompareWith(id === null ? null : compare);
    setNavigations((n) => n + 1);
  }, []);
  const setDraft = useCallback((update: DraftUpdate) => {
    setDraftState((current) => (typeof update === 'function' ? (current ? update(current) : current) : update));
  }, []);
  const onDone = useCallback(
    (reportId: number | null) => {
      const repeated = repeating.current;
      repeating.current = null;
      if (reportId !== null) openReport(reportId, repeated !== null && repeated !== reportId ? repeated : null);
    },
    [openReport],
  );
  const job = useEvalJob(onDone, options);
  const { start } = job;
  const run = useCallback(
    (input: Input<'startEval'>) => {
      if (job.running) return;
      repeating.current = null;
      setRerunOf(null);
      void start(() => client.startEval(input));
    },
    [client, start, job.running],
  );
  const rerun = useCallback(
    (reportId: number) => {
      if (job.running) return;
      const before = repeating.current;
      setRerunOf(reportId);
      repeating.current = reportId;
      void start(() => client.rerunEval({ reportId })).then((started) => {
        // A refused start may follow another window's run: that one is not a repeat of this report.
        if (!started) repeating.current = before;
      });
    },
    [client, start, job.running],
  );
  return { job, draft, setDraft, openReportId, openReport, compareWith, run, rerun, rerunOf, navigations };
}
