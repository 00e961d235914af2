import { plural } from '../../../shared/plural';
import path from 'node:path';
import type { ImportReport } from '../../core/engine';
import { skipReason } from '../../../shared/skip-reasons';
import { DOCUMENT_TYPE_LABELS, extensionList, type DocumentType } from '../../../shared/document-types';
import { contractInput, numberFlag } from '../args';
import { rememberModel, settleVectorSearch, type CliContext } from '../context';

export interface ImportFlags {
  model?: string | undefined;
  noEmbed: boolean;
  chunker?: string | undefined;
  maxFileMb?: string | undefined;
  batch?: string | undefined;
}

export async function importCommand(ctx: CliContext, folder: string, flags: ImportFlags): Promise<number> {
  const input = contractInput(
    'importFolder',
    { path: folder, chunker: flags.chunker, maxFileMb: numberFlag('max-file-mb', flags.maxFileMb, { integer: false }), batch: numberFlag('batch', flags.batch), embed: !flags.noEmbed },
    { maxFileMb: '--max-file-mb', batch: '--batch', chunker: '--chunker' },
  );
  await rememberModel(ctx, 'embedModel', flags.model);
  // The report's time counts this import's own work; a wait behind another one is said apart, not hidden.
  let waitStarted: number | null = null;
  let waitedMs = 0;
  const report = await ctx.engine.importFolder(input, {
    signal: ctx.signal,
    onProgress: (p) => {
      if (p.phase === 'waiting') {
        waitStarted ??= performance.now();
        ctx.out.note(`Another import into this database (${p.currentFile ?? 'another process'}) is running; waiting for it to finish… (Ctrl-C to stop)`);
        return;
      }
      if (waitStarted !== null && waitedMs === 0) waitedMs = performance.now() - waitStarted;
      const label = p.phase === 'indexing' ? `${p.filesDone}/${plural(p.filesTotal, 'file')} · ${plural(p.chunks, 'chunk')} · ${p.currentFile ?? ''}` : p.phase;
      ctx.out.progress(p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0, label);
    },
  });
  if (!report.cancelled) await settleVectorSearch(ctx);
  ctx.out.result(toJson(report), () => human(report, ctx.program, waitedMs));
  return report.cancelled ? 130 : 0;
}

/** The documented `import --json` shape, plus what a script needs to know about embedding. */
function toJson(r: ImportReport) {
  return {
    documents: r.documents,
    chunks: r.chunks,
    embedded: r.embedded,
    embedRequests: r.embedRequests,
    errors: r.errors,
    skipped: r.skipped,
    ms: r.ms,
    embedding: r.embedding,
    cancelled: r.cancelled,
    collection: r.collection,
    indexedByType: r.indexedByType,
    warnings: r.warnings,
    notices: r.notices,
  };
}

function human(r: ImportReport, program: string, waitedMs: number): string {
  const d = r.documents;
  const lines = [
    `${r.cancelled ? `Import of ${r.collection.root} cancelled after` : `Imported ${r.collection.root} in`} ${(r.ms / 1000).toFixed(1)} s${waitedMs > 0 ? `, after waiting ${(waitedMs / 1000).toFixed(1)} s for another import` : ''}`,
    // Skipped counts every entry listed below (links and folders the walk left out too), so the two agree.
    `  documents: ${d.added} added, ${d.updated} updated, ${d.unchanged} unchanged, ${d.moved} moved, ${d.deleted} deleted, ${r.skipped.length} skipped, ${d.failed} failed`,
    `  chunks written: ${r.chunks}; embedded: ${r.embedded} in ${plural(r.embedRequests, 'request')}`,
  ];
  const types = Object.entries(r.indexedByType).filter(([, n]) => n > 0);
  // All zeros and nothing listed below would leave a person guessing whether the right folder was named.
  if (types.length === 0 && d.failed === 0 && !r.cancelled) lines.push(`  nothing to index: no ${extensionList('or')} file in this folder${r.skipped.length > 0 ? ' (what it holds is listed below)' : ''}`);
  if (types.length > 0) lines.push(`  in the index now: ${types.map(([t, n]) => `${n} ${DOCUMENT_TYPE_LABELS[t as DocumentType]}`).join(', ')}`);
  if (r.embedding.status === 'unavailable') {
    lines.push(...withoutVectorsLines(r, program));
  } else if (r.embedding.status === 'off') {
    lines.push(`  embeddings: off (--no-embed) — keyword search only until "${program} embed".`);
  }
  if (r.errors.length > 0) {
    lines.push(`  failed files:`);
    lines.push(...listed(r.errors.map((e) => `${e.path}: ${e.message}`)));
  }
  if (r.notices.length > 0) {
    lines.push(`  read in a guessed encoding (not UTF-8; check their text, or re-save them as UTF-8):`);
    lines.push(...listed(r.notices.map((n) => `${n.path}: read as ${n.encoding}`)));
  }
  lines.push(...skippedLines(r.skipped));
  // After the documents were saved, so the import still succeeded (exit 0), but said.
  for (const w of r.warnings) lines.push(`  warning: ${w.message}`);
  return lines.join('\n');
}

/** Ollama itself was not there (as against a model it lacks, or an answer it refused). */
const GONE: ReadonlySet<string> = new Set(['OLLAMA_UNREACHABLE', 'OLLAMA_TIMEOUT']);

/**
 * Embedding stopped (Ollama gone before or during the import): which documents have no vectors,
 * in a sentence, and what to do. "embedded: 0 in 16 requests" alone left a person guessing.
 */
function withoutVectorsLines(r: ImportReport, program: string): string[] {
  const why = r.embedding.error?.message ?? 'the embedding model could not be used.';
  const missing = r.withoutVectors;
  if (!missing || missing.documents === 0) return [`  embeddings: stopped (${why}), but every document here has its vectors.`];
  const total = Math.max(missing.documents, Object.values(r.indexedByType).reduce((a: number, n) => a + (n ?? 0), 0));
  const named = missing.paths.join(', ') + (missing.documents > missing.paths.length ? `, … and ${missing.documents - missing.paths.length} more` : '');
  const which = missing.documents < total ? `${missing.documents} of the ${total} documents here have no vectors` : total === 1 ? 'The document here has no vectors' : `None of the ${total} documents here has vectors`;
  return [
    `  embeddings: stopped after ${r.embedded} ${r.embedded === 1 ? 'vector' : 'vectors'}: ${why}`,
    `  ${which} (${named}): keyword search still finds them, meaning search does not yet.`,
    `  ${GONE.has(r.embedding.error?.code ?? '') ? 'Once Ollama is back' : 'Once that is put right'}, run "${program} import ${quoteArg(r.collection.root)}" again: it embeds only what is missing.`,
  ];
}

/** A path as a shell reads it: quoted when it holds anything but plain characters. */
function quoteArg(p: string): string {
  return /^[\w@%+=:,./~-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

const LISTED = 20;

function listed(items: string[]): string[] {
  const shown = items.slice(0, LISTED).map((i) => `    ${i}`);
  if (items.length > LISTED) shown.push(`    … and ${items.length - LISTED} more (use --json for all)`);
  return shown;
}

/**
 * Each skipped file or link by name with why (the walk's or reader's own sentence when it gave
 * one), so a person can act on it; files of a type Quire does not read are expected in a notes
 * folder and only counted, by extension.
 */
function skippedLines(skipped: ImportReport['skipped']): string[] {
  if (skipped.length === 0) return [];
  const unsupported = skipped.filter((s) => s.reason === 'unsupported-type');
  const others = skipped.filter((s) => s.reason !== 'unsupported-type');
  const lines = ['  skipped:'];
  lines.push(...listed(others.map((s) => `${s.path}: ${s.message ?? `${skipReason(s.reason)}.`}`)));
  if (unsupported.length > 0) {
    const byExt = new Map<string, number>();
    for (const s of unsupported) {
      const ext = path.posix.extname(s.path).toLowerCase() || 'no extension';
      byExt.set(ext, (byExt.get(ext) ?? 0) + 1);
    }
    const exts = [...byExt].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([e, n]) => `${e} ${n}`);
    lines.push(`    ${unsupported.length} ${unsupported.length === 1 ? 'file' : 'files'} of a type Quire does not read (${exts.join(', ')}); it reads ${extensionList('and')}`);
  }
  return lines;
}
