/**
 * Retrieval quality on real questions, Quire beside the section baseline, in one run:
 *
 *   npm run bench:retrieval [-- --set rust-book --set tldr] [--modes lexical,hybrid] [--k 6] [--fusion rrf:60,weighted:0.3] [--chunkers heading:256,heading:128] [--embed sentence-encoder]
 *
 * Each question set (test/bench/questions/, written in people's words, each fact checked by
 * verify-questions.ts) goes through `runEval`, the same path as `quire eval`: Quire's own search,
 * and the sources an answer would send fitted by the answer path's budget. The baseline
 * (baseline.ts) ranks whole heading sections; its "fact sent" is measured at the same source
 * budget, its sections sent whole, in rank order, each in a source block like Quire's, the last
 * one cut to fit. The misses are then
 * sorted into causes (diagnose.ts). Vectors come from the Ollama stand-in: by default its hashed
 * n-grams, whose hybrid rows show the pipeline works, not how a real embedding model ranks; with
 * `--embed sentence-encoder`, a real (small, 2018) language model's, served through the same
 * /api/embed (test/support/ollama-standin/sentence-encoder.ts). Its first run embeds every corpus
 * on the CPU (about ten minutes here); the index cache keeps the vectors.
 *
 * Indexes are cached in $QUIRE_BENCH_DIR (default <tmp>/quire-retrieval-bench); remove it after
 * changing how documents are indexed or searched.
 *
 * Prints a table and writes bench-results/retrieval-<date>.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { containsFact, percentileNearestRank } from '../../electron/core/eval/metrics';
import { parseQuestionSet } from '../../electron/core/eval/questions';
import { runEval } from '../../electron/core/eval/run';
import { countTokens } from '../../electron/core/text/tokenizer';
import { formatSource } from '../../electron/core/answer/prompt';
import { OllamaGateway } from '../../electron/core/ollama/gateway';
import type { EvalReport, Question } from '../../shared/eval';
import type { SearchMode } from '../../shared/search';
import { DEFAULT_MODELS } from '../support/ollama-standin/models';
import { SENTENCE_ENCODER_MODEL, sentenceEncoderAvailable, sentenceEncoderSpec } from '../support/ollama-standin/sentence-encoder';
import { startStandin } from '../support/ollama-standin/server';
import { buildBaseline } from './baseline';
import { diagnose, type Diagnosis } from './diagnose';
import { SET_FILES } from './sets';
import { DEFAULT_FUSION, formatFusion } from '../../shared/fusion';
import { checkTargets, targetsLine } from './targets';

const REPO = path.resolve(import.meta.dirname, '../..');

/** The baseline's sections are sent whole, in rank order, up to this many source tokens. */
const BASELINE_BUDGET = 1600;

interface Row {
  name: string;
  hit1: number | null;
  hit3: number | null;
  hit5: number | null;
  mrr: number | null;
  factSent: number | null;
  sourceTokensP50: number | null;
}

function baselineRow(docs: string, questions: Question[]): Row {
  const baseline = buildBaseline(docs);
  const answerable = questions.filter((q) => q.expect.answerable && q.expect.chunkFact);
  let hit1 = 0, hit3 = 0, hit5 = 0, rr = 0, sent = 0;
  const tokens: number[] = [];
  for (const q of answerable) {
    const fact = q.expect.chunkFact!;
    const hits = baseline.search(q.question, 50);
    const rank = hits.slice(0, 10).findIndex((h) => containsFact(h.text, fact));
    if (rank === 0) hit1++;
    if (rank >= 0 && rank < 3) hit3++;
    if (rank >= 0 && rank < 5) hit5++;
    if (rank >= 0 && rank < 6) rr += 1 / (rank + 1);
    // Charged as Quire's sources are: each section in a <source> block with an id, path, heading and lines.
    let used = countTokens('Sources:\n\n');
    let got = false;
    for (const h of hits) {
      const block = (text: string) => countTokens(formatSource({ chunkId: '0123456789ab#0', path: h.file, heading: h.text.split('\n')[0]!.replace(/^#+\s*/, ''), lines: [1, 99], text, flags: [] })) + 1;
      if (used + block('') >= BASELINE_BUDGET) break;
      let text = h.text;
      if (used + block(text) > BASELINE_BUDGET) text = text.slice(0, Math.floor((text.length * (BASELINE_BUDGET - used - block(''))) / countTokens(text)));
      used += block(text);
      if (containsFact(text, fact)) got = true;
    }
    if (got) sent++;
    tokens.push(used);
  }
  baseline.close();
  const n = answerable.length;
  return { name: 'baseline (sections)', hit1: hit1 / n, hit3: hit3 / n, hit5: hit5 / n, mrr: rr / n, factSent: sent / n, sourceTokensP50: percentileNearestRank(tokens, 50) };
}

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

function table(title: string, rows: Row[]): string {
  const head = ['', 'hit@1', 'hit@3', 'hit@5', 'MRR', 'fact sent', 'src tok p50'];
  const body = rows.map((r) => [r.name, pct(r.hit1), pct(r.hit3), pct(r.hit5), r.mrr === null ? '—' : r.mrr.toFixed(3), pct(r.factSent), r.sourceTokensP50 === null ? '—' : String(r.sourceTokensP50)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [title, line(head), ...body.map(line)].join('\n');
}

async function main() {
  const { values } = parseArgs({ options: { set: { type: 'string', multiple: true }, modes: { type: 'string', default: 'lexical' }, k: { type: 'string', default: '6' }, fusion: { type: 'string', default: formatFusion(DEFAULT_FUSION) }, chunkers: { type: 'string', default: 'heading:256' }, embed: { type: 'string', default: 'embeddinggemma' } } });
  const names = values.set ?? Object.keys(SET_FILES);
  const modes = values.modes.split(',') as SearchMode[];
  const realVectors = values.embed === 'sentence-encoder';
  if (realVectors && !(await sentenceEncoderAvailable())) throw new Error('--embed sentence-encoder needs the dev dependencies installed (npm ci)');
  const embedModel = realVectors ? SENTENCE_ENCODER_MODEL : values.embed;
  const ollama = await startStandin(realVectors ? { models: [...DEFAULT_MODELS, sentenceEncoderSpec()] } : {});
  const gateway = new OllamaGateway({ host: ollama.url });
  // Engineers benchmarking side by side each need their own: an index cached by another branch's code gives its numbers.
  const workDir = process.env.QUIRE_BENCH_DIR ?? path.join(os.tmpdir(), 'quire-retrieval-bench');
  const out: Record<string, unknown> = { when: new Date().toISOString(), embedModel, k: Number(values.k), baselineBudget: BASELINE_BUDGET, sets: {} };
  try {
    for (const name of names) {
      const entry = SET_FILES[name];
      if (!entry) throw new Error(`unknown set ${name}: ${Object.keys(SET_FILES).join(', ')}`);
      const set = { questions: entry.questions, docs: path.resolve(REPO, entry.docs) };
      if (!fs.existsSync(set.docs)) {
        console.error(`${name}: ${set.docs} not found (the corpora live in ../shared/corpora beside the repo); skipped.`);
        continue;
      }
      const questions = parseQuestionSet(fs.readFileSync(path.join(REPO, set.questions), 'utf8'), set.questions);
      const report: EvalReport = await runEval({
        docs: set.docs,
        questions,
        questionSetName: set.questions,
        grid: { chatModels: [], embedModels: [embedModel], chunkers: values.chunkers.split(','), ks: [Number(values.k)], modes, fusions: values.fusion.split(','), repeats: 1 },
        gateway,
        version: 'bench',
        workDir,
        onProgress: (done, total, label) => {
          if (done === 0 || done === total) console.error(`  ${name}: ${label} ${done}/${total}`);
        },
      });
      const rows: Row[] = [baselineRow(set.docs, questions)];
      for (const c of report.configs) rows.push({ name: `quire ${c.mode} ${c.chunker}${c.mode === 'hybrid' ? ` ${c.fusion}` : ''}`, ...c.metrics });
      const diagnosis: Diagnosis[] = report.configs.map((_, i) => diagnose(report, i, questions, workDir));
      console.log(`\n${table(`${name}: ${report.questions.answerable} answerable, ${report.questions.unanswerable} unanswerable questions over ${report.corpus.documents} documents (k=${values.k})`, rows)}`);
      for (const d of diagnosis) console.log(`  misses (${d.config}): ${d.summary}\n  first passage (${d.config}): ${d.firstSummary}`);
      // #11's targets are for keyword search at default settings; every row is checked, so a hybrid row can be read beside them.
      const targets = rows.slice(1).map((r) => ({ name: r.name, checks: checkTargets(r, rows[0]!) }));
      for (const t of targets) console.log(`  targets (${t.name}): ${targetsLine(t.checks)}`);
      (out.sets as Record<string, unknown>)[name] = { rows, diagnosis, targets, report };
    }
  } finally {
    await ollama.close();
  }
  const dir = path.join(REPO, 'bench-results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `retrieval-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.error(`\nwritten to ${path.relative(REPO, file)}`);
}

await main();
