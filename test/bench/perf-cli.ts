/**
 * How soon the built `quire` command answers (issue 35): cold runs of `node dist/cli/quire.mjs`
 * (what `npm link` users run), each a fresh process, timed against a bare `node -e 0` run beside
 * them, so the targets hold on any machine:
 *
 *   search --mode lexical on the sample notes   within +150 ms of node -e 0
 *   status on the sample notes                  within +150 ms
 *   search --mode lexical at 100k chunks        within +300 ms
 *
 * Each figure is the median of `runs` runs, node -e 0 taken in turn with them (a busy machine
 * slows both alike). OLLAMA_HOST points at a closed port: status finds no Ollama at once, and no
 * model's time is counted. The 100k-chunk database is grown from the scale corpus
 * (scale-corpus.ts); `db` keeps it between runs.
 *
 *   npx tsx test/bench/perf-cli.ts [--runs 9] [--db /tmp/quire-cli-100k.db] [--cli other/quire.mjs]
 *   (or npm run perf -- --cli-only). --cli times another build (an older one, to compare) instead
 *   of building this tree's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureCollection } from '../../electron/core/db/collections';
import { openDatabase } from '../../electron/core/db/open';
import { buildCli } from '../../scripts/build-cli';
import { benchQueries, growTo } from './perf-lexical';
import { scaleCorpus } from './scale-corpus';

const REPO = path.resolve(import.meta.dirname, '../..');
const SAMPLE_NOTES = path.join(REPO, 'resources/sample-notes');
const SCALE_CHUNKS = 100_000;

/** The most each run may take over a bare `node -e 0`, in ms. */
export const CLI_TARGETS = { sampleSearch: 150, status: 150, scaleSearch: 300 } as const;

export interface CliTiming {
  /** Median wall time of the command, ms. */
  ms: number;
  /** Median of node -e 0 taken in turn with it, ms. */
  nodeMs: number;
  /** ms − nodeMs: what Quire adds to starting Node. */
  overMs: number;
  targetMs: number;
  met: boolean;
}

export interface CliBenchResult {
  sampleSearch: CliTiming;
  status: CliTiming;
  scaleSearch: CliTiming;
  runs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timeOnce(args: string[], env: NodeJS.ProcessEnv): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.toString().trim()}`);
  return ms;
}

/** Median of `runs` cold runs of the command and of node -e 0, in turn; one untimed run first (the page cache, any upkeep the first open does). */
function timeCommand(cli: string, args: string[], runs: number, targetMs: number, env: NodeJS.ProcessEnv): CliTiming {
  timeOnce([cli, ...args], env);
  const command: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(timeOnce(['-e', '0'], env));
    command.push(timeOnce([cli, ...args], env));
  }
  const ms = median(command);
  const nodeMs = median(bare);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { ms: round(ms), nodeMs: round(nodeMs), overMs: round(ms - nodeMs), targetMs, met: ms - nodeMs <= targetMs };
}

/** A database of `SCALE_CHUNKS` chunks at `file`, grown from the scale corpus unless it already holds them. */
function scaleDatabase(file: string, log: (s: string) => void): string {
  const db = openDatabase(file);
  try {
    const t = performance.now();
    const corpus = scaleCorpus();
    const have = growTo(db, corpus.documents(SCALE_CHUNKS), ensureCollection(db, '/scale').id, SCALE_CHUNKS);
    log(`  ${have} chunks (${corpus.source} text) in ${file}, ready in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return corpus.source === 'shared' ? benchQueries()[0]! : corpus.queries(1)[0]!;
  } finally {
    db.close();
  }
}

export async function runCliBench(opts: { runs?: number; scaleDb?: string; cli?: string; log: (s: string) => void }): Promise<CliBenchResult> {
  const runs = opts.runs ?? 9;
  const cli = opts.cli ?? (await buildCli()).cli;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-perf-cli-'));
  // A closed port: status learns at once that no Ollama runs; keyword search never asks it.
  const env = { ...process.env, OLLAMA_HOST: 'http://127.0.0.1:9', npm_lifecycle_event: '' };
  try {
    const sampleDb = path.join(tmp, 'sample.db');
    execFileSync(process.execPath, [cli, 'import', SAMPLE_NOTES, '--no-embed', '--db', sampleDb], { env, stdio: 'ignore' });
    opts.log(`== quire, built (${cli}), ${runs} cold runs each beside node -e 0`);
    const sampleSearch = timeCommand(cli, ['search', '--mode', 'lexical', 'sourdough starter', '--db', sampleDb], runs, CLI_TARGETS.sampleSearch, env);
    opts.log(`  search on the sample notes: ${describe(sampleSearch)}`);
    const status = timeCommand(cli, ['status', '--db', sampleDb], runs, CLI_TARGETS.status, env);
    opts.log(`  status: ${describe(status)}`);
    const scaleFile = opts.scaleDb ?? path.join(tmp, 'scale.db');
    const query = scaleDatabase(scaleFile, opts.log);
    const scaleSearch = timeCommand(cli, ['search', '--mode', 'lexical', query, '--db', scaleFile], runs, CLI_TARGETS.scaleSearch, env);
    opts.log(`  search at ${SCALE_CHUNKS} chunks ("${query}"): ${describe(scaleSearch)}`);
    return { sampleSearch, status, scaleSearch, runs };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export function describe(t: CliTiming): string {
  return `${t.ms} ms, node -e 0 ${t.nodeMs} ms: +${t.overMs} ms (target +${t.targetMs}: ${t.met ? 'met' : 'NOT met'})`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' }, db: { type: 'string' }, cli: { type: 'string' } } });
  const result = await runCliBench({ runs: Number(values.runs), log: (s) => process.stderr.write(`${s}\n`), ...(values.db ? { scaleDb: values.db } : {}), ...(values.cli ? { cli: path.resolve(values.cli) } : {}) });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
