import { EvalReportSchema, evalModelName, type EvalReport, type EvalReportSummary } from '../../../shared/eval';
import { QuireError } from '../../../shared/errors';
import type { Db } from './open';

export function insertEvalReport(db: Db, report: EvalReport): number {
  const info = db
    .prepare('INSERT INTO eval_reports (created_at, docs, question_set, configs, questions, ms, report) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(
      report.run.at,
      report.run.docs,
      report.run.questionSet.name,
      report.configs.length,
      report.run.questionSet.questions.length,
      report.run.ms,
      JSON.stringify(report),
    );
  return Number(info.lastInsertRowid);
}

/** A JSON array of names as json_extract gives it, or null when it is not one. */
function names(json: string | null): string[] | null {
  if (json === null) return null;
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.map(evalModelName) : null;
  } catch {
    return null;
  }
}

/** Newest first, each with the models it compared (read from the report by SQLite, not parsed whole here). */
export function listEvalReports(db: Db): EvalReportSummary[] {
  const rows = db
    .prepare(
      `SELECT id, created_at, docs, question_set, configs, questions, ms,
              json_extract(report, '$.run.grid.chatModels') AS chat, json_extract(report, '$.run.grid.embedModels') AS embed
         FROM eval_reports ORDER BY id DESC`,
    )
    .all() as Array<{ id: number; created_at: string; docs: string; question_set: string; configs: number; questions: number; ms: number; chat: string | null; embed: string | null }>;
  return rows.map((r) => {
    const chat = names(r.chat);
    const embed = names(r.embed);
    return {
      id: r.id, at: r.created_at, docs: r.docs, questionSet: r.question_set, configs: r.configs, questions: r.questions, ms: r.ms,
      ...(chat && embed ? { models: { chat, embed } } : {}),
    };
  });
}

export function getEvalReport(db: Db, id: number): EvalReport {
  const json = db.prepare('SELECT report FROM eval_reports WHERE id = ?').pluck().get(id) as string | undefined;
  if (json === undefined) throw new QuireError('EVAL_REPORT_NOT_FOUND', `There is no evaluation report ${id}.`);
  const parsed = EvalReportSchema.safeParse(JSON.parse(json));
  if (!parsed.success) throw new QuireError('DB_CORRUPT', `Evaluation report ${id} is stored in a shape this version of Quire cannot read.`);
  return parsed.data;
}

export function deleteEvalReport(db: Db, id: number): boolean {
  return db.prepare('DELETE FROM eval_reports WHERE id = ?').run(id).changes > 0;
}

/**
 * Deletes the reports run over a folder, whichever path named it when they ran (a symlink to it,
 * say): each stored path is compared after `resolve`. Returns how many went.
 */
export function deleteEvalReportsOver(db: Db, root: string, resolve: (folder: string) => string): number {
  const folders = db.prepare('SELECT DISTINCT docs FROM eval_reports').pluck().all() as string[];
  const remove = db.prepare('DELETE FROM eval_reports WHERE docs = ?');
  return folders.filter((docs) => docs === root || resolve(docs) === root).reduce((n, docs) => n + remove.run(docs).changes, 0);
}
