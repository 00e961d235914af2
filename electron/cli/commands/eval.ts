import fs from 'node:fs';
import path from 'node:path';
import { EvalGridSchema, EvalReportSchema, failedConfigs, indexReuseSentence, metricsChangeSentence, type EvalGrid, type EvalReport } from '../../../shared/eval';
import { QuireError } from '../../../shared/errors';
import { DEFAULT_FUSION, formatFusion, FUSION_USAGE, parseFusion } from '../../../shared/fusion';
import { SEARCH_MODES, type SearchMode } from '../../../shared/search';
import { BOUNDS } from '../../../shared/settings';
import { diffReports, parseChunkerSpec, parseQuestionSet, type ReportDiff } from '../../core/engine';
import { evalTable } from './eval-table';
import type { CliContext } from '../context';

export interface EvalFlags {
  docs?: string | undefined;
  chatModels?: string | undefined;
  embedModels?: string | undefined;
  chunkers?: string | undefined;
  k?: string | undefined;
  modes?: string | undefined;
  fusion?: string | undefined;
  repeat?: string | undefined;
  out?: string | undefined;
  rerun?: string | undefined;
  freshIndex?: boolean | undefined;
}

const list = (v: string | undefined, fallback: string[]) => (v === undefined ? fallback : v.split(',').map((s) => s.trim()).filter(Boolean));

function gridFromFlags(flags: EvalFlags): EvalGrid {
  const ks = list(flags.k, ['6']).map((k) => {
    const n = Number(k);
    if (!Number.isInteger(n) || n < BOUNDS.k.min || n > BOUNDS.k.max) throw new QuireError('INVALID_ARGUMENT', `--k takes whole numbers from ${BOUNDS.k.min} to ${BOUNDS.k.max}, not "${k}".`);
    return n;
  });
  const modes = list(flags.modes, ['hybrid']).map((m) => {
    if (!(SEARCH_MODES as readonly string[]).includes(m)) throw new QuireError('INVALID_ARGUMENT', `--modes takes ${SEARCH_MODES.join(', ')}, not "${m}".`);
    return m as SearchMode;
  });
  const fusions = list(flags.fusion, [formatFusion(DEFAULT_FUSION)]).map((spec) => {
    if (parseFusion(spec) === null) throw new QuireError('INVALID_ARGUMENT', `--fusion takes rrf:<k> or weighted:<w>, not "${spec}": ${FUSION_USAGE}.`);
    return spec;
  });
  const repeats = Number(flags.repeat ?? 1);
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > 20) throw new QuireError('INVALID_ARGUMENT', '--repeat takes a whole number from 1 to 20.');
  const chunkers = list(flags.chunkers, ['heading:256']);
  chunkers.forEach(parseChunkerSpec); // a bad spec is named before any work starts
  const grid = { chatModels: list(flags.chatModels, []), embedModels: list(flags.embedModels, ['embeddinggemma']), chunkers, ks, modes, fusions, repeats };
  const checked = EvalGridSchema.safeParse(grid);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new QuireError('INVALID_ARGUMENT', `The grid is too large or empty at "${issue.path.join('.')}": ${issue.message}.`);
  }
  return checked.data;
}

/** Why a file given on the command line could not be read, in words (the path is already in the sentence). */
function readFailure(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'there is no such file.';
  if (code === 'EISDIR') return 'it is a folder, not a file.';
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code}).`;
  return (e as Error).message;
}

function readReport(file: string): EvalReport {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new QuireError('INVALID_ARGUMENT', `Could not read the report ${file}: ${e instanceof SyntaxError ? `it is not JSON (${e.message})` : readFailure(e)}`);
  }
  const parsed = EvalReportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new QuireError('INVALID_ARGUMENT', `${file} is not a Quire eval report (written with --out): "${issue.path.join('.')}" ${issue.message}.`);
  }
  return parsed.data;
}

/**
 * `quire eval questions.json --docs DIR [...]`: the grid, run through the app's own search and
 * ask. `quire eval --rerun report.json` repeats a saved run and shows what changed; it exits
 * {@link EXIT_DIFFERENT} when anything but timings differs (1 stays "could not run", as everywhere, and so
 * does a run where every question failed, or one that stopped because Ollama went away: its report
 * is printed and saved, but it measured nothing, or not all it was asked to).
 */
export const EXIT_DIFFERENT = 3;

export async function evalCommand(ctx: CliContext, questionsFile: string | null, flags: EvalFlags): Promise<number> {
  let previous: EvalReport | null = null;
  let questions;
  let grid: EvalGrid;
  let docs: string;
  let name: string;
  if (flags.rerun) {
    previous = readReport(flags.rerun);
    questions = previous.run.questionSet.questions;
    grid = previous.run.grid;
    docs = flags.docs ?? previous.run.docs;
    if (!fs.existsSync(docs)) {
      throw new QuireError('NOT_A_FOLDER', `The report's documents folder ${docs} is not there any more. Point the rerun at where they are now with --docs <folder>.`);
    }
    name = previous.run.questionSet.name;
  } else {
    if (!questionsFile) throw new QuireError('INVALID_ARGUMENT', `eval needs a questions file, or --rerun report.json. See: ${ctx.program} eval --help`);
    if (!flags.docs) throw new QuireError('INVALID_ARGUMENT', 'eval needs --docs <folder>: the documents the questions are about.');
    let text: string;
    try {
      text = fs.readFileSync(questionsFile, 'utf8');
    } catch (e) {
      throw new QuireError('INVALID_ARGUMENT', `Could not read the question set ${questionsFile}: ${readFailure(e)}`);
    }
    questions = parseQuestionSet(text, questionsFile);
    grid = gridFromFlags(flags);
    docs = flags.docs;
    name = path.basename(questionsFile);
  }

  // A rerun keeps its report's context cap; a new run takes the one saved in the app, as ask does.
  const report = await ctx.engine.evaluate({
    docs,
    questions,
    questionSetName: name,
    grid,
    ...(previous ? { numCtxCap: previous.run.answerSettings.numCtxCap } : {}),
    ...(flags.freshIndex ? { freshIndexes: true } : {}),
    signal: ctx.signal,
    onProgress: (done, total, label) => ctx.out.progress(total ? done / total : 0, `${done}/${total} · ${label}`),
  });
  if (flags.out) fs.writeFileSync(flags.out, `${JSON.stringify(report, null, 2)}\n`);
  const reused = indexReuseSentence(report.run, (them) => `--fresh-index builds ${them} anew.`);
  if (reused) ctx.out.note(reused);
  // Ollama went away (or stopped answering) mid-run: the run stopped rather than fail every question left, and says so.
  const ollamaGone = report.stopped !== undefined && report.stopped.reason !== 'cancelled';
  if (ollamaGone) ctx.out.note(report.stopped!.message);

  // Every question run of every configuration failed (Ollama gone, no model it was asked for): the
  // report is printed and saved with the reasons, but a script must not read it as a measurement.
  const nothingMeasured = !ctx.signal.aborted && report.configs.length > 0 && failedConfigs(report).size === report.configs.length;
  const noteNothingMeasured = () => {
    if (nothingMeasured) ctx.out.note("Every question run failed, so nothing was measured: the report's warnings say why.");
  };
  // Under each Best line, the command that applies its leader: only what differs from the settings now.
  const apply = { current: ctx.engine.settings.all(), program: ctx.program };
  if (!previous || ctx.signal.aborted) {
    ctx.out.result(report, () => evalTable(report, apply));
    noteNothingMeasured();
    // Ctrl-C with whole configurations done: they are printed and saved, and the exit says it was cut short.
    return ctx.signal.aborted ? 130 : nothingMeasured || ollamaGone ? 1 : 0;
  }
  const diff = diffReports(previous, report);
  ctx.out.result({ ...report, diff }, () => `${evalTable(report, apply)}\n\n${describeDiff(diff, flags.rerun!)}`);
  noteNothingMeasured();
  return nothingMeasured || ollamaGone ? 1 : diff.same ? 0 : EXIT_DIFFERENT;
}

const num = (v: number | null) => (v === null ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(3));

export function describeDiff(d: ReportDiff, file: string): string {
  const lines: string[] = [];
  lines.push(d.same ? `Reproduced ${file}: every score and answer is the same.` : `Differences from ${file}:`);
  if (d.corpus) lines.push(`  documents changed: ${d.corpus.before.documents} (${d.corpus.before.fingerprint.slice(0, 12)}) → ${d.corpus.after.documents} (${d.corpus.after.fingerprint.slice(0, 12)})`);
  if (d.questionSet) lines.push('  the question set changed');
  if (d.metricsVersions) lines.push(`  ${metricsChangeSentence(d.metricsVersions.before, d.metricsVersions.after, { before: `the report in ${file}`, after: 'this run' })}`);
  for (const v of d.versions) lines.push(`  ${v.what}: ${v.before ?? '(none)'} → ${v.after ?? '(none)'}`);
  for (const c of d.configsOnlyBefore) lines.push(`  only in the old report: ${c}`);
  for (const c of d.configsOnlyAfter) lines.push(`  only in the new report: ${c}`);
  for (const m of d.metrics) lines.push(`  ${m.config}: ${m.metric} ${num(m.before)} → ${num(m.after)}`);
  for (const q of d.questions) lines.push(`  ${q.config}: question "${q.questionId}"${q.repeat > 0 ? ` (repeat ${q.repeat + 1})` : ''} ${q.what}: ${q.before} → ${q.after}`);
  if (d.timing.length > 0) lines.push(`  (${d.timing.length} timing figures moved, as timings do; they are in --json under diff.timing)`);
  return lines.join('\n');
}
