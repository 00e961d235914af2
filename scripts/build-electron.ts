/**
 * Bundles the Electron main process and preload into dist/electron/ with esbuild. The preload
 * becomes one CommonJS file requiring only 'electron' (a sandboxed preload can load nothing
 * else); main keeps node_modules external so native modules load from disk (app.asar.unpacked).
 */
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { METHOD_NAMES } from '../shared/contract';

const ROOT = path.resolve(import.meta.dirname, '..');
export const ELECTRON_OUT = path.join(ROOT, 'dist', 'electron');

/**
 * The preload needs only the contract's method names, not its schemas: it forwards calls and
 * main validates them. So the contract is evaluated here, at build time, and the preload bundle
 * gets its METHOD_NAMES as a literal instead of zod and every schema (about 770 kB of script the
 * sandboxed preload would parse on every window). Still derived from the one contract.
 */
const contractNamesOnly: Plugin = {
  name: 'contract-method-names',
  setup(b) {
    b.onResolve({ filter: /shared\/contract$/ }, (args) => ({ path: path.resolve(args.resolveDir, args.path), namespace: 'contract-names' }));
    b.onLoad({ filter: /.*/, namespace: 'contract-names' }, () => ({ contents: `export const METHOD_NAMES = ${JSON.stringify(METHOD_NAMES)};`, loader: 'js' }));
  },
};

export async function buildElectron(): Promise<{ main: string; preload: string; parseWorker: string }> {
  const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: true, logLevel: 'warning' } as const;
  const main = path.join(ELECTRON_OUT, 'main.cjs');
  const preload = path.join(ELECTRON_OUT, 'preload.cjs');
  await build({ ...common, entryPoints: [path.join(ROOT, 'electron/main/main.ts')], outfile: main, format: 'cjs', packages: 'external' });
  await build({ ...common, entryPoints: [path.join(ROOT, 'electron/preload/preload.ts')], outfile: preload, format: 'cjs', external: ['electron'], plugins: [contractNamesOnly] });
  // The parse worker (core/ingest/parse/): a file of its own, which main hands to new Worker().
  const parseWorker = path.join(ELECTRON_OUT, 'parse-worker.cjs');
  await build({ ...common, entryPoints: [path.join(ROOT, 'electron/core/ingest/parse/worker-main.ts')], outfile: parseWorker, format: 'cjs', packages: 'external' });
  return { main, preload, parseWorker };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const out = await buildElectron();
  process.stderr.write(`built ${path.relative(ROOT, out.main)} and ${path.relative(ROOT, out.preload)}\n`);
}
