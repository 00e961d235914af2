/**
 * Builds better-sqlite3 for Electron's ABI into .electron-native/ (once per Electron version),
 * from a copy of the module, so node_modules keeps the Node build. Uses @electron/rebuild, which
 * needs Electron's headers (a download); run by `npm start` only when the runtime exists.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { electronSqliteBinding } from './electron-runtime';

export async function ensureElectronSqlite(root: string, electronVersion: string): Promise<string> {
  const target = electronSqliteBinding(root, electronVersion);
  if (fs.existsSync(target)) return target;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-electron-native-'));
  try {
    const copy = path.join(work, 'node_modules', 'better-sqlite3');
    fs.cpSync(path.join(root, 'node_modules', 'better-sqlite3'), copy, { recursive: true });
    fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'quire-native', private: true, dependencies: { 'better-sqlite3': '*' } }));
    // A nodedir in npm's config is for Node builds: node-gyp would take Node's headers for Electron's.
    for (const key of Object.keys(process.env)) if (key.toLowerCase() === 'npm_config_nodedir') delete process.env[key];
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({ buildPath: work, electronVersion, onlyModules: ['better-sqlite3'], force: true });
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(copy, 'build', 'Release', 'better_sqlite3.node'), target);
    return target;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
