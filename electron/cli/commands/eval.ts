import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QuireError } from '../../../shared/errors';
import { SEARCH_MODES, type SearchMode } from '../../../shared/search';
import type { BenchMetrics } from '../../core/eval/metrics';
import { parseQuestionSet } from '../../core/eval/questions';
import { runEval, type EvalReport } from '../../core/eval/run';
import { parseChunkerSpec } from '../../core/ingest/chunkers/index';
import type { CliContext } from '../context';

export interface EvalFlags {
  docs?: string | undefined;
  chatModels?: string | undefined;
  embedModels?: string | undefined;
  chunkers?: string | undefined;
  k?: string | undefined;
  modes?: string | undefined;
  repeat?: string | undefined;
  out?: string | undefined;
}

const list = (v: string | undefined, fallback: string[]) => (v === undefined ? fallback : v.split(',').map((s) => s.trim()).filter(Boolean));

/** `quire eval questions.json --docs DIR [...]`: the grid, run through the app's own search and ask. */
export async function evalCommand(ctx: CliContext, questionsFile: string, flags: EvalFlags): Promise<number> {
  if (!flags.docs) throw new QuireError('INVALID_ARGUMENT', 'eval needs --docs <folder>: the documents the questions are about.');
  const questions = parseQuestionSet(fs.readFileSync(questionsFile, 'utf8'), questionsFile);
  const ks = list(flags.k, ['6']).map((k) => {
    const n = Number(k);
    if (!Number.isInteger(n) || n < 1 || n > 50) throw new QuireError('INVALID_ARGUMENT', `--k takes whole numbers from 1 to 50, not "${k}".`);
    return n;
  });
  const modes = list(flags.modes, ['hybrid']).map((m) => {
    if (!(SEARCH_MODES as readonly string[]).includes(m)) throw new QuireError('INVALID_ARGUMENT', `--modes takes ${SEARCH_MODES.join(', ')}, not "${m}".`);
    return m as SearchMode;
  });
  const repeats = Number(flags.repeat ?? 1);
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > 20) throw new QuireError('INVALID_ARGUMENT', '--repeat takes a whole number from 1 to 20.');
  const grid = {
    chatModels: list(flags.chatModels, []),
    embedModels: list(flags.embedModels, ['embeddinggemma']),
    chunkers: list(flags.chunkers, ['heading:256']).map(parseChunkerSpec),
    ks,
    modes,
    repeats,
  };
  const workDir = path.join(path.dirname(ctx.dbPath), 'eval-indexes');
  const started = performance.now();
  const report = await runEval({
    docs: flags.docs,
    questions,
    grid,
    gateway: ctx.gateway,
    workDir,
    signal: ctx.signal,
    onProgress: (done, total, label) => ctx.out.progress(total ? done / total : 0, `${done}/${total} · ${label}`),
  });
  const ollamaVersion = await ctx.gateway.version(AbortSignal.timeout(3000)).catch(() => null);
  // Which exact weights produced these numbers: a re-pulled model changes its digest.
  const digests: Record<string, string | null> = {};
  for (const model of [...grid.chatModels, ...grid.embedModels]) {
    digests[model] = await ctx.gateway.modelInfo(model).then((m) => m.digest, () => null);
  }
  const document = {
    ...report,
    run: {
      quire: (JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version,
      ollama: ollamaVersion,
      models: digests,
      host: os.hostname(),
      at: new Date().toISOString(),
      ms: Math.round(performance.now() - started),
      grid: { ...grid, chunkers: list(flags.chunkers, ['heading:256']) },
      questionsFile: path.resolve(questionsFile),
      docs: path.resolve(flags.docs),
    },
  };
  if (flags.out) fs.writeFileSync(flags.out, `${JSON.stringify(document, null, 2)}\n`);
  ctx.out.result(document, () => table(report));
  return 0;
}

const pct = (v: number | null) => (v === null ? '  —  ' : `${(v * 100).toFixed(0).padStart(3)}% `);

function table(r: EvalReport): string {
  const head = 'chat model           embed model              chunker          k  mode     hit@1 hit@k  MRR  fact  cite✓ refuse✓ falseR  p50 retrieve';
  const rows = r.configs.map((c) => {
    const m: BenchMetrics = c.metrics;
    return [
      (c.chatModel ?? '(retrieval only)').padEnd(20),
      c.embedModel.padEnd(24),
      c.chunker.padEnd(16),
      String(c.k).padStart(2),
      c.mode.padEnd(8),
      pct(m.hit1),
      pct(m.hitK),
      m.mrr === null ? '  — ' : m.mrr.toFixed(2),
      pct(m.answerHasFact),
      pct(m.citationValid),
      pct(m.refusalAccuracy),
      pct(m.falseRefusals),
      m.latencyMs.retrieve.p50 === null ? '—' : `${Math.round(m.latencyMs.retrieve.p50)} ms`,
    ].join(' ');
  });
  return [
    `${r.corpus.documents} documents (fingerprint ${r.corpus.fingerprint.slice(0, 12)}), ${r.questions.answerable} answerable and ${r.questions.unanswerable} unanswerable questions`,
    '',
    head,
    ...rows,
    '',
    '— = not run (no chat model, or nothing eligible). Rates are shares of eligible questions.',
  ].join('\n');
}
