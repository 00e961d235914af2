/**
 * `npm start`: the desktop app. Builds the renderer (when its sources changed), main and preload, makes sure better-sqlite3
 * exists for Electron's ABI, and launches Electron. The runtime is fetched on the first start
 * (ensure-electron.ts); when it cannot be had, one sentence says why and browser mode starts instead.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildRendererIfChanged } from '../electron/web/renderer-build';
import { buildElectron } from './build-electron';
import { browserModeSentence } from './electron-fetch-failure';
import { ensureElectronRuntime } from './ensure-electron';

const ROOT = path.resolve(import.meta.dirname, '..');
const runtime = await ensureElectronRuntime();

/** better-sqlite3 for Electron's ABI, or the sentence saying why not (its build needs Electron's headers, a download). */
async function electronSqlite(version: string): Promise<string | null> {
  try {
    const { ensureElectronSqlite } = await import('./electron-native');
    return await ensureElectronSqlite(ROOT, version);
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    process.stderr.write(`${browserModeSentence(`better-sqlite3 could not be built for Electron ${version} (${why})`, 'the build says why above')}\n`);
    return null;
  }
}

const binding = runtime.path === null ? null : await electronSqlite(runtime.version);
if (runtime.path === null || binding === null) {
  if (runtime.path === null) process.stderr.write(`${runtime.sentence}\n`);
  await import('../electron/web/main');
} else {
  // Only when the renderer's sources changed since the last build (electron/web/renderer-build.ts).
  await buildRendererIfChanged({ repoRoot: ROOT, viteConfig: path.join(ROOT, 'vite.config.ts'), outDir: path.join(ROOT, 'dist', 'renderer'), note: (line) => process.stderr.write(`${line}\n`) });
  const { main } = await buildElectron();
  const child = spawn(runtime.path, [main], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, QUIRE_BETTER_SQLITE3_BINDING: binding, ELECTRON_ENABLE_SECURITY_WARNINGS: 'true' },
  });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
}
