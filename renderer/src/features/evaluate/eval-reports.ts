import type { EvalReportSummary } from '../../../../shared/eval';

/** Stored evaluations, newest first (a later id breaks a tie on the time). */
export function newestFirst(reports: readonly EvalReportSummary[]): EvalReportSummary[] {
  return [...reports].sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id);
}
