import fs from 'node:fs';
import path from 'node:path';
import type { ApiEvent } from '../../../shared/contract';
import { EvalGridSchema, type EvalReport } from '../../../shared/eval';
import { QuireError, toErrorShape } from '../../../shared/errors';
import { getCollection } from '../db/collections';
import type { Db } from '../db/open';
import { deleteEvalReport, getEvalReport, listEvalReports } from '../db/eval-reports';
import { deleteSavedQuestion, insertSavedQuestion, listSavedQuestions, savedQuestionIds } from '../db/saved-questions';
import { indexStorage, removeIndexes } from '../eval/index-files';
import { loadQuestionSet, questionSetsFor, summarise } from '../eval/question-sets';
import { lockHolder } from '../eval/run-lock';
import { parseQuestionSet } from '../eval/questions';
import { diffReports } from '../eval/diff';
import type { EvalOptions } from '../eval/run';
import { parseChunkerSpec } from '../ingest/chunkers/index';
import { factFromChunk, questionId } from '../eval/save-as-test';
import type { Handlers } from './dispatch';
import { chunkView } from './views';

type EvaluationMethods =
  | 'questionSets'
  | 'checkQuestionSet'
  | 'saveAsTest'
  | 'savedQuestions'
  | 'deleteSavedQuestion'
  | 'startEval'
  | 'evalReports'
  | 'getEvalReport'
  | 'deleteEvalReport'
  | 'rerunEval'
  | 'compareEvalReports'
  | 'evalStorage'
  | 'clearEvalIndexes';

export interface EvaluationDeps {
  db: Db;
  emit(event: ApiEvent): void;
  job(run: (jobId: string, signal: AbortSignal) => Promise<void>): { jobId: string };
  /**
   * Runs a question set through the engine (its gateway, version and, unless given, the context
   * cap from Settings, so an evaluation measures answers as the app gives them) and stores the report.
   */
  evaluate(o: Pick<EvalOptions, 'docs' | 'questions' | 'questionSetName' | 'grid' | 'numCtxCap' | 'signal' | 'onProgress'>): Promise<{ report: EvalReport; reportId: number }>;
  evalDir: string;
}

/** Evaluation behind the contract: question sets, "save as test", and evaluation jobs. */
export interface Evaluation {
  handlers: Pick<Handlers, EvaluationMethods>;
  /** Removes the indexes built for one folder (when it leaves the library); not while a run may use them. */
  forgetFolder(root: string): void;
  /** The evaluation under way, with its latest progress; null when none is. */
  running(): { jobId: string; startedAt: string; done: number; total: number; label: string } | null;
}

export function createEvaluation({ db, emit, job, evaluate, evalDir }: EvaluationDeps): Evaluation {
  const rootOf = (collectionId: string): string => getCollection(db, collectionId).root;

  // Two runs would import into the same evaluation indexes at once; one at a time. The folder of
  // the run under way, null when none is.
  let runningDocs: string | null = null;
  let current: { jobId: string; startedAt: string; done: number; total: number; label: string } | null = null;

  const refuseWhileRunning = () => {
    if (runningDocs !== null) throw new QuireError('EVAL_ALREADY_RUNNING', 'An evaluation is already running. Wait for it to finish, or cancel it, first.');
    const other = lockHolder(evalDir); // e.g. a `quire eval` over the same database
    if (other) throw new QuireError('EVAL_ALREADY_RUNNING', `Another evaluation (process ${other.pid}, over ${other.docs}) is running. Wait for it to finish, or stop it, first.`);
  };

  /** The evaluation job: progress as events, the report stored, and its id in job.done. */
  const startRun = (what: Pick<EvalOptions, 'docs' | 'questions' | 'questionSetName' | 'grid' | 'numCtxCap'>): { jobId: string } => {
    runningDocs = what.docs;
    const started = job(async (jobId, signal) => {
      try {
        const { report, reportId } = await evaluate({
          ...what,
          signal,
          onProgress: (done, total, label) => {
            current = { jobId, startedAt: current?.startedAt ?? new Date().toISOString(), done, total, label };
            emit({ type: 'job.progress', jobId, kind: 'eval', progress: { done, total, label } });
          },
        });
        // Cut short (a cancel, Ollama gone or not answering): the configurations measured are kept, and the report says what was not done.
        const { stopped } = report;
        const error = !stopped
          ? null
          : stopped.reason === 'cancelled'
            ? { code: 'CANCELLED', message: 'Evaluation cancelled; the configurations that finished are kept.' }
            : { code: stopped.reason === 'ollama-unreachable' ? 'OLLAMA_UNREACHABLE' : 'OLLAMA_TIMEOUT', message: stopped.message };
        emit({ type: 'job.done', jobId, kind: 'eval', result: { reportId }, error });
      } catch (e) {
        emit({ type: 'job.done', jobId, kind: 'eval', result: null, error: signal.aborted ? { code: 'CANCELLED', message: 'Evaluation cancelled.' } : toErrorShape(e) });
      } finally {
        runningDocs = null;
        current = null;
      }
    });
    current = { jobId: started.jobId, startedAt: new Date().toISOString(), done: 0, total: 0, label: 'starting' };
    return started;
  };

  const handlers: Evaluation['handlers'] = {
    async questionSets({ collectionId }) {
      return { sets: questionSetsFor(db, rootOf(collectionId)) };
    },

    async checkQuestionSet({ name, text }) {
      const summary = summarise({ kind: 'file', name, text }, name, () => parseQuestionSet(text, name));
      if (summary.error) throw new QuireError('INVALID_QUESTION_SET', summary.error);
      return summary;
    },

    async saveAsTest(input) {
      const taken = savedQuestionIds(db);
      const id = questionId(input.question, taken);
      if (input.expect === 'refusal') {
        return insertSavedQuestion(db, { id, question: input.question, expect: { answerable: false }, root: null });
      }
      let view;
      try {
        view = chunkView(db, input.chunkId);
      } catch {
        throw new QuireError('NOT_FOUND_IN_INDEX', 'The cited passage is no longer in the index (its file changed or was removed), so it cannot become a test.');
      }
      const chunkFact = factFromChunk(view.text, input.sentence);
      return insertSavedQuestion(db, { id, question: input.question, expect: { chunkFact, answerable: true }, file: view.path, root: view.root });
    },

    async savedQuestions() {
      return { questions: listSavedQuestions(db) };
    },

    async deleteSavedQuestion({ id }) {
      return { deleted: deleteSavedQuestion(db, id) };
    },

    async startEval({ collectionId, questionSet, grid }) {
      refuseWhileRunning();
      const root = rootOf(collectionId);
      // A bad set or grid is refused now, as an error on the call, not later as a failed job.
      const set = loadQuestionSet(db, questionSet, root);
      grid.chunkers.forEach(parseChunkerSpec);
      return startRun({ docs: root, questions: set.questions, questionSetName: set.name, grid: EvalGridSchema.parse(grid) });
    },

    async rerunEval({ reportId }) {
      refuseWhileRunning();
      const { run } = getEvalReport(db, reportId);
      if (!fs.existsSync(run.docs) || !fs.statSync(run.docs).isDirectory()) {
        throw new QuireError('NOT_A_FOLDER', `The folder that report was run over, ${run.docs}, is not there any more.`);
      }
      return startRun({ docs: run.docs, questions: run.questionSet.questions, questionSetName: run.questionSet.name, grid: run.grid, numCtxCap: run.answerSettings.numCtxCap });
    },

    async compareEvalReports({ before, after }) {
      return diffReports(getEvalReport(db, before), getEvalReport(db, after));
    },


    async evalReports() {
      return { reports: listEvalReports(db) };
    },

    async getEvalReport({ id }) {
      return getEvalReport(db, id);
    },

    async deleteEvalReport({ id }) {
      return { deleted: deleteEvalReport(db, id) };
    },

    async evalStorage() {
      return indexStorage(evalDir);
    },

    async clearEvalIndexes() {
      if (runningDocs !== null || lockHolder(evalDir)) throw new QuireError('EVAL_ALREADY_RUNNING', 'An evaluation is using the indexes. Wait for it to finish, or cancel it, first.');
      const { indexes, bytes, failed } = removeIndexes(evalDir);
      if (failed.length > 0) {
        throw new QuireError('WRITE_FAILED', `${failed.length} index file${failed.length === 1 ? '' : 's'} could not be removed (another program may have them open): ${failed.map((f) => path.basename(f)).join(', ')}`);
      }
      return { indexes, bytes };
    },
  };

  return {
    handlers,
    running: () => current,
    forgetFolder: (root) => {
      // Not the folder a run is using right now; any other folder's indexes can go at once.
      if (runningDocs !== root && lockHolder(evalDir)?.docs !== root) removeIndexes(evalDir, root);
    },
  };
}
