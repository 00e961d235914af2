import { plural } from '../../../shared/plural';
import path from 'node:path';
import { QuireError } from '../../../shared/errors';
import { rebuildIndex, type RebuildOutcome } from '../../core/engine';
import type { Output } from '../output';
import { programName } from '../usage';

/**
 * `quire rebuild [folder…] --db DAMAGED [--into NEW]`: a new index from the source folders (named,
 * or read from a copy of the damaged file), leaving the damaged file exactly as it was.
 */
export async function rebuildCommand(
  run: { dbPath: string; out: Output; signal: AbortSignal; env: NodeJS.ProcessEnv; parseWorker?: URL | undefined },
  folders: string[],
  flags: { into?: string | undefined },
): Promise<number> {
  const into = path.resolve(flags.into ?? defaultInto(run.dbPath));
  if (into === path.resolve(run.dbPath)) throw new QuireError('INVALID_ARGUMENT', '--into must be a new file, not the damaged one.');
  const outcome = await rebuildIndex({
    damaged: run.dbPath,
    into,
    folders,
    env: run.env,
    ...(run.parseWorker ? { parseWorker: run.parseWorker } : {}),
    signal: run.signal,
    onProgress: (root, p) => run.out.progress(p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0, `${root} · ${p.phase}`),
  });
  run.out.result(outcome, () => human(outcome, run.dbPath, programName(run.env)));
  return outcome.folders.some((f) => f.error) ? 1 : 0;
}

/** Beside the damaged file, dated, so nothing is overwritten. */
function defaultInto(damaged: string): string {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return path.join(path.dirname(path.resolve(damaged)), `quire-rebuilt-${stamp}.db`);
}

function human(r: RebuildOutcome, damaged: string, program: string): string {
  const lines = [`Rebuilt the index into ${r.into} from ${r.folders.length} folder${r.folders.length === 1 ? '' : 's'} (${r.foldersFrom === 'database' ? 'listed in the damaged file' : 'as named'}); ${r.settingsKept} settings carried over.`];
  for (const f of r.folders) {
    lines.push(f.report ? `  ${f.root}: ${plural(f.report.documents.added, 'document')}, ${plural(f.report.chunks, 'chunk')}${f.report.documents.failed ? `, ${f.report.documents.failed} failed` : ''}` : `  ${f.root}: not rebuilt (${f.error})`);
    // Which files failed and why, as import says: a count alone hid every file failing for one reason.
    for (const e of f.report?.errors.slice(0, 5) ?? []) lines.push(`    ${e.path}: ${e.message}`);
    if ((f.report?.errors.length ?? 0) > 5) lines.push(`    … and ${f.report!.errors.length - 5} more (use --json for all)`);
    // Ollama away while rebuilding: the text is back, the vectors are not, and a count of zero said nothing.
    const missing = f.report?.withoutVectors?.documents ?? 0;
    if (missing > 0) lines.push(`    ${missing} ${missing === 1 ? 'document has' : 'documents have'} no vectors (${f.report!.embedding.error?.message ?? 'embedding stopped'}): keyword search finds them; run "${program} embed --db ${r.into}" once that is put right.`);
  }
  lines.push(`${damaged} was not changed. To use the new index, pass --db ${r.into} (or set QUIRE_DB), or move the damaged file aside and put the new one in its place.`);
  return lines.join('\n');
}
