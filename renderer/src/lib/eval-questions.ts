import type { EvalQuestionRun, EvalReport, Question } from '../../../shared/eval';

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

/** The run of `questionId` for each configuration at `repeat` (null where the report has none). */
export function runsForQuestion(report: EvalReport, questionId: string, repeat: number): Array<EvalQuestionRun | null> {
  return report.configs.map((_, i) => report.perQuestion.find((r) => r.config === i && r.score.questionId === questionId && r.score.repeat === repeat) ?? null);
}

/** The repeat numbers present in the report, ascending. */
export function repeatsOf(report: EvalReport): number[] {
  return [...new Set(report.perQuestion.map((r) => r.score.repeat))].sort((a, b) => a - b);
}
