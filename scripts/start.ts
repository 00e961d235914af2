/**
 * `npm start`: the desktop app. Builds the renderer (when its sources changed), main and preload, makes sure better-sqlite3
 * exists for Electron's ABI, and launches Electron. The runtime is fetched on the first start
 * (ensure-electron.ts); when it cannot be had, one sentence says why and browser mode starts instead.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildRendererIfChanged } from '../electron/web/renderer-build';
import { buildElectron } from './build-electron';
import { ensureElectronRuntime } from './ensure-electron';

const ROOT = path.resolve(import.meta.dirname, '..');
const runtime = await ensureElectronRuntime();

if (runtime.path === null) {
  process.stderr.write(`${runtime.sentence}\n`);
  await import('../electron/web/main');
} else {
  // Only when the renderer's sources changed since the last build (electron/web/renderer-build.ts).
  await buildRendererIfChanged({ repoRoot: ROOT, viteConfig: path.join(ROOT, 'vite.config.ts'), outDir: path.join(ROOT, 'dist', 'renderer'), note: (line) => process.stderr.write(`${line}\n`) });
  const { main } = await buildElectron();
  const { ensureElectronSqlite } = await import('./electron-native');
  const binding = await ensureElectronSqlite(ROOT, runtime.version);
  const child = spawn(runtime.path, [main], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, QUIRE_BETTER_SQLITE3_BINDING: binding, ELECTRON_ENABLE_SECURITY_WARNINGS: 'true' },
  });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
}
