import { runsPerConfig, type EvalQuestionRun, type EvalReport, type Question } from '../../../../shared/eval';

/** The per-question side of a report: what each configuration did with one question. */

export type RunVerdict = 'pass' | 'fail' | 'n/a';

/**
 * One run judged as a whole. An answerable question passes when every check that ran holds: the
 * fact was retrieved in the top k, the answer matches, it cites the fact, and it was not refused.
 * An unanswerable one passes when the model refused. A failed ask fails; a retrieval-only run of
 * an unanswerable question has nothing to judge.
 */
export function runVerdict(run: EvalQuestionRun): RunVerdict {
  if (run.error) return 'fail';
  const { score } = run;
  const a = score.answer;
  if (!score.answerable) return a ? (a.refused ? 'pass' : 'fail') : 'n/a';
  const checks = [score.retrieval?.hitK ?? null, a?.answerHasFact ?? null, a?.citesFact ?? null, a ? !a.refused : null].filter((c): c is boolean => c !== null);
  if (checks.length === 0) return 'n/a';
  return checks.every(Boolean) ? 'pass' : 'fail';
}

export interface QuestionSummary {
  question: Question;
  pass: number;
  fail: number;
  /** Runs with nothing to judge. */
  na: number;
}

/** Every question of the report with how many of its runs (all configurations and repeats) passed. */
export function questionSummaries(report: EvalReport): QuestionSummary[] {
  const byId = new Map<string, QuestionSummary>();
  for (const q of report.run.questionSet.questions) byId.set(q.id, { question: q, pass: 0, fail: 0, na: 0 });
  for (const run of report.perQuestion) {
    const s = byId.get(run.score.questionId);
    if (!s) continue;
    const v = runVerdict(run);
    if (v === 'pass') s.pass++;
    else if (v === 'fail') s.fail++;
    else s.na++;
  }
  return [...byId.values()];
}

/**
 * The runs of a report looked up by configuration, question and repeat without scanning: built
 * once per report, since a report can hold hundreds of thousands of runs.
 */
export interface RunIndex {
  /** The run of `questionId` under `config` at `repeat`; null where the report has none. */
  get(config: number, questionId: string, repeat: number): EvalQuestionRun | null;
  /** Every repeat of `questionId` under `config`, in repeat order. */
  repeats(config: number, questionId: string): readonly EvalQuestionRun[];
  /** How many runs each configuration has. */
  counts: readonly number[];
}

const key = (config: number, questionId: string) => `${config}\u0000${questionId}`;

export function indexRuns(report: EvalReport): RunIndex {
  const byQuestion = new Map<string, EvalQuestionRun[]>();
  const byRepeat = new Map<string, EvalQuestionRun>();
  for (const run of report.perQuestion) {
    const k = key(run.config, run.score.questionId);
    let list = byQuestion.get(k);
    if (!list) byQuestion.set(k, (list = []));
    list.push(run);
    const rk = `${k}\u0000${run.score.repeat}`;
    if (!byRepeat.has(rk)) byRepeat.set(rk, run);
  }
  for (const list of byQuestion.values()) list.sort((a, b) => a.score.repeat - b.score.repeat);
  return {
    get: (config, questionId, repeat) => byRepeat.get(`${key(config, questionId)}\u0000${repeat}`) ?? null,
    repeats: (config, questionId) => byQuestion.get(key(config, questionId)) ?? [],
    counts: runsPerConfig(report),
  };
}

/** The repeat numbers present in the report, ascending. */
export function repeatsOf(report: EvalReport): number[] {
  return [...new Set(report.perQuestion.map((r) => r.score.repeat))].sort((a, b) => a - b);
}

/** One configuration's repeats of one question, taken together. */
export interface RepeatSummary {
  total: number;
  passed: number;
  /** Runs with something to judge (pass or fail). */
  judged: number;
  /** Runs that failed with an error. */
  errors: number;
  /** Whether the answer differed between the answered repeats; null with fewer than two answers. */
  changed: boolean | null;
}

export function repeatSummary(runs: readonly EvalQuestionRun[]): RepeatSummary {
  let passed = 0;
  let judged = 0;
  let errors = 0;
  const answers = new Set<string>();
  let answered = 0;
  for (const run of runs) {
    const v = runVerdict(run);
    if (v !== 'n/a') judged++;
    if (v === 'pass') passed++;
    if (run.error) errors++;
    else if (run.score.answer) {
      answered++;
      answers.add(run.score.answer.normalisedText);
    }
  }
  return { total: runs.length, passed, judged, errors, changed: answered < 2 ? null : answers.size > 1 };
}

/** "passed 2/3 repeats · answer changed". */
export function repeatSummaryText(s: RepeatSummary): string {
  const parts = [s.judged === 0 ? `not judged in ${s.total} repeats` : `passed ${s.passed}/${s.total} repeats`];
  if (s.errors > 0) parts.push(s.errors === 1 ? '1 failed with an error' : `${s.errors} failed with an error`);
  if (s.changed !== null) parts.push(s.changed ? 'answer changed' : 'same answer each time');
  return parts.join(' · ');
}
