/**
 * `npm run serve`: Quire in a browser. Opens the database, builds the renderer with Vite (unless
 * --no-build, or its sources are unchanged since the last build: renderer-build.ts), serves it and the API on 127.0.0.1 with a random token, and prints one line to
 * stdout — the address to open. Everything else goes to stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { toErrorShape } from '../../shared/errors';
import { createEngine, defaultDatabasePath, type Engine } from '../core/engine';
import { buildRendererIfChanged } from './renderer-build';
import { startBrowserMode, type BrowserMode } from './server';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const VITE_CONFIG = path.join(REPO_ROOT, 'vite.config.ts');
const DEFAULT_STATIC_DIR = path.join(REPO_ROOT, 'dist', 'renderer');
const SAMPLE_NOTES_DIR = path.join(REPO_ROOT, 'resources', 'sample-notes');

const USAGE = `Usage: npm run serve -- [options]

Serves Quire's interface and API on this computer only (127.0.0.1), guarded by a random token.
Open the address printed on stdout in a browser.

Options:
  --db PATH       database file (or QUIRE_DB; default ${defaultDatabasePath()})
  --port N        port to listen on (default 0: any free port)
  --no-build      serve the renderer already in dist/renderer instead of building it first
                  (without it, the renderer is built only when its sources changed since the last build)
  --build         build the renderer even if its sources did not change
  --static DIR    serve the renderer from DIR (implies --no-build)
  -h, --help      this text`;

// Vite and other libraries log with console.log; stdout carries only the address line.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

const note = (line: string) => process.stderr.write(`${line}\n`);

async function buildRenderer(force: boolean): Promise<boolean> {
  if (!fs.existsSync(VITE_CONFIG)) {
    note(`Quire: cannot build the renderer: ${VITE_CONFIG} does not exist yet.`);
    note(`Serving whatever is already in ${path.relative(REPO_ROOT, DEFAULT_STATIC_DIR)} (if anything).`);
    return true;
  }
  try {
    await buildRendererIfChanged({ repoRoot: REPO_ROOT, viteConfig: VITE_CONFIG, outDir: DEFAULT_STATIC_DIR, force, note });
    return true;
  } catch (e) {
    note(`Quire: the renderer build failed: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
}

async function main(argv: string[]): Promise<number> {
  let values: { db?: string | undefined; port?: string | undefined; 'no-build'?: boolean | undefined; build?: boolean | undefined; static?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        db: { type: 'string' },
        port: { type: 'string' },
        'no-build': { type: 'boolean' },
        build: { type: 'boolean' },
        static: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    note(`Quire: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    note(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || (values.port !== undefined && !/^\d+$/.test(values.port))) {
    note(`Quire: --port must be a whole number from 0 to 65535, not "${values.port}".`);
    return 2;
  }
  const dbPath = values.db ? path.resolve(values.db) : defaultDatabasePath();
  const staticDir = values.static ? path.resolve(values.static) : DEFAULT_STATIC_DIR;

  if (!values['no-build'] && !values.static && !(await buildRenderer(values.build === true))) return 1;

  let engine: Engine | null = null;
  let app: BrowserMode | null = null;
  try {
    engine = createEngine({ dbPath, sampleNotesDir: SAMPLE_NOTES_DIR, resumeMigration: true, watch: true });
    app = await startBrowserMode({ engine, staticDir, port });
  } catch (e) {
    await engine?.close();
    const shape = toErrorShape(e);
    note(`Quire: could not start browser mode (${shape.code}): ${shape.message}`);
    return 1;
  }

  process.stdout.write(`Quire is running at ${app.url}\n`);
  note(`Database: ${dbPath}`);
  note(`Serving: ${staticDir}${fs.existsSync(path.join(staticDir, 'index.html')) ? '' : ' (no index.html: the renderer is not built)'}`);
  note('Open the address above in a browser; it works only on this computer. Press Ctrl+C to stop.');

  const running = app;
  const openEngine = engine;
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        note('Quire: stopping now.');
        process.exit(130);
      }
      stopping = true;
      note(`Quire: ${signal} received, stopping (cancelling running jobs)…`);
      running
        .close()
        // Cancels running jobs and lets them stop writing before the database closes.
        .then(() => openEngine.close())
        .then(() => resolve(0))
        .catch((e: unknown) => {
          note(`Quire: error while stopping: ${e instanceof Error ? e.message : String(e)}`);
          resolve(1);
        });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    note(`Quire: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
