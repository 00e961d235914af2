/**
 * Bundles the `quire` command line into dist/cli/ with esbuild, so the `bin` runs plain JavaScript
 * (no TypeScript compiled on each run). Runs from `npm install`/`npm ci` (the `prepare` script).
 * Packages stay external (better-sqlite3 and sqlite-vec load their native code from node_modules),
 * but for those in BUNDLED. The parse worker is its own file beside it; the CLI hands its path to
 * the engine. Code that only some commands run is imported dynamically (the commands, the readers),
 * and each such import is a chunk of its own: `quire search` loads no reader.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
export const CLI_OUT = path.join(ROOT, 'dist', 'cli');

/**
 * Pure-JavaScript ES packages every command loads, bundled in: zod is about 95 small modules, and
 * Node resolving, reading and linking each one on every start cost more than parsing them as one.
 */
const BUNDLED: ReadonlySet<string> = new Set(['zod']);

/** What `packages: 'external'` does, but for the packages in BUNDLED. */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const parts = args.path.split('/');
      const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
      return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

export async function buildCli(): Promise<{ cli: string; parseWorker: string }> {
  const common = { bundle: true, platform: 'node', target: 'node20', format: 'esm', logLevel: 'warning' } as const;
  const cli = path.join(CLI_OUT, 'quire.mjs');
  const parseWorker = path.join(CLI_OUT, 'parse-worker.mjs');
  fs.rmSync(CLI_OUT, { recursive: true, force: true });
  // Split: each dynamic import (run.ts, each command, each reader) is a chunk of its own, so --help
  // loads no command and search no reader.
  await build({
    ...common,
    plugins: [externalPackages],
    entryPoints: { quire: path.join(ROOT, 'electron/cli/main.ts'), 'parse-worker': path.join(ROOT, 'electron/core/ingest/parse/worker-main.ts') },
    outdir: CLI_OUT,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  });
  fs.chmodSync(cli, 0o755);
  return { cli, parseWorker };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const out = await buildCli();
  process.stderr.write(`built ${path.relative(ROOT, out.cli)}\n`);
}
