/**
 * Whether the Electron runtime exists on this machine. The `electron` npm package downloads its
 * binary in a postinstall step, which may be denied or fail offline; then requiring it throws.
 * Electron's own ELECTRON_OVERRIDE_DIST_PATH points the lookup at another folder, which is how
 * tests stage a missing runtime on a machine that has one.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export type ElectronRuntime = { path: string; version: string } | { path: null; reason: string };

/** `locate` is what the electron package exports (the binary's path); tests replace it. */
export function electronBinary(locate: () => unknown = () => require('electron')): ElectronRuntime {
  let version = 'unknown';
  try {
    version = (require('electron/package.json') as { version: string }).version;
  } catch {
    return { path: null, reason: 'the electron package is not installed' };
  }
  try {
    const binary = locate();
    if (typeof binary === 'string' && fs.existsSync(binary)) return { path: binary, version };
    return { path: null, reason: `Electron ${version}'s runtime binary is missing` };
  } catch {
    return { path: null, reason: `Electron ${version}'s runtime binary was never downloaded (offline, or its download is blocked)` };
  }
}

/**
 * better-sqlite3 compiled for Electron's ABI, kept outside node_modules so the Node build that
 * the tests use stays in place: `npm start` and `npm test` work in either order.
 */
export function electronSqliteBinding(root: string, electronVersion: string): string {
  return path.join(root, '.electron-native', `electron-${electronVersion}-${process.platform}-${process.arch}`, 'better_sqlite3.node');
}
