import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One name for the feature that runs a question set over a grid of models and settings and scores
 * them: "evaluation" (verb "evaluate", short form `eval` in `quire eval`, the contract's methods,
 * electron/core/eval/ and shared/eval.ts). It used to be called "the bench" and "the model bench"
 * in places, while `npm run bench` timed import and search; that one is `npm run perf` now.
 *
 * "bench" stays where it means a benchmark: test/bench/ (retrieval-quality and timing scripts),
 * `npm run bench:retrieval`, bench-results/.
 */
const ROOT = path.resolve(__dirname, '..');

/** Where the feature's name shows: code, UI strings, error messages and the docs. */
const SCANNED_DIRS = ['electron', 'renderer', 'shared', 'scripts', 'docs'];
const SCANNED_FILES = ['README.md'];

/**
 * Shipped migrations are never edited (electron/core/db/migrations/index.ts), so the old comment
 * in the one that created the evaluation tables stays as it shipped.
 */
const KEPT_AS_SHIPPED = new Set(['electron/core/db/migrations/0003-bench.ts']);

/** Identifiers are matched case-sensitively; phrases in prose are not. */
const OLD_IDENTIFIERS = /\b(?:createBench|BenchMetrics(?:Schema)?|BenchDeps|BenchMethods|Bench)\b|api\/bench\b/;
const OLD_PHRASES = /model[- ]bench|\bthe bench\b|\bbench(?:'s)? (?:own )?ind(?:ex|exes)\b|npm run bench(?!:)/i;

/** The lines of a text that still use the old names, as "line: text". */
export function namingOffences(text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => OLD_IDENTIFIERS.test(line) || OLD_PHRASES.test(line))
    .map(({ line, n }) => `${n}: ${line.trim()}`);
}

/** What is wrong with package.json's scripts for these names; empty when nothing is. */
export function scriptProblems(scripts: Record<string, string>): string[] {
  const problems: string[] = [];
  if (!scripts.perf) problems.push('no "perf" script (import and search timings)');
  if ('bench' in scripts) problems.push('a "bench" script: the timings are "perf", the model comparison is `quire eval`');
  return problems;
}

function files(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return (fs.readdirSync(abs, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile() && /\.(ts|tsx|js|mjs|cjs|jsx|md|html|css|json)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)))
    .filter((f) => !f.split(path.sep).includes('node_modules'));
}

describe('one name for evaluation', () => {
  it('the check finds each old name and lets benchmarks be (so the checks below can fail)', () => {
    const stale = [
      "import { createBench } from './bench';",
      "import { createBench as c } from '../api/bench';",
      'const m: BenchMetrics = aggregate(scores);',
      'export const BenchMetricsSchema = z.object({});',
      'export interface Bench {',
      '/** The model bench: set up a grid. */',
      "// The bench's own indexes live next to the database.",
      'Removes every bench index; the next run rebuilds it.',
      'npm run bench                 # import and search timings',
    ];
    expect(namingOffences(stale.join('\n'))).toHaveLength(stale.length);

    const fine = [
      'const evaluation = createEvaluation({ db });',
      'const m: EvalMetrics = aggregate(scores);',
      '// at the same cost (test/bench/retrieval.ts)',
      'npm run bench:retrieval       # retrieval quality on the question sets',
      'writes bench-results/perf-<date>.json; a benchmark of import timings',
      'quire eval my-questions.json --docs ~/notes',
    ];
    expect(namingOffences(fine.join('\n'))).toEqual([]);

    expect(scriptProblems({ bench: 'tsx test/bench/run.ts', 'bench:retrieval': 'tsx test/bench/retrieval.ts' })).toHaveLength(2);
    expect(scriptProblems({ perf: 'tsx test/bench/perf.ts', 'bench:retrieval': 'tsx test/bench/retrieval.ts' })).toEqual([]);
  });

  it('no code, UI string or doc calls it the bench', () => {
    const scanned = [...SCANNED_DIRS.flatMap(files), ...SCANNED_FILES];
    expect(scanned.length).toBeGreaterThan(50);
    const offences = scanned
      .filter((f) => !KEPT_AS_SHIPPED.has(f.split(path.sep).join('/')))
      .flatMap((f) => namingOffences(fs.readFileSync(path.join(ROOT, f), 'utf8')).map((o) => `${f}:${o}`));
    expect(offences).toEqual([]);
  });

  it('package.json has `perf` for the timings and no `bench`', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scriptProblems(pkg.scripts)).toEqual([]);
    const target = /^tsx (\S+)$/.exec(pkg.scripts.perf ?? '')?.[1];
    expect(target && fs.existsSync(path.join(ROOT, target))).toBeTruthy();
  });
});
