import type { EvalReportSummary } from '../../../../shared/eval';

/** Stored evaluations, newest first (a later id breaks a tie on the time). */
export function newestFirst(reports: readonly EvalReportSummary[]): EvalReportSummary[] {
  return [...reports].sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id);
}

/** The models a stored evaluation compared, in a line: "llama3.2 · embeddinggemma, nomic-embed-text", "retrieval only · …". */
export function modelsLine(report: EvalReportSummary): string | null {
  if (!report.models) return null;
  const chat = report.models.chat.length > 0 ? report.models.chat.join(', ') : 'retrieval only';
  return `${chat} · ${report.models.embed.join(', ')}`;
}
