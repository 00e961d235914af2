/**
 * Whether the Electron runtime exists on this machine. The `electron` npm package downloads its
 * binary in a postinstall step, which is denied here (and fails offline); then requiring it throws.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export function electronBinary(): { path: string; version: string } | { path: null; reason: string } {
  let version = 'unknown';
  try {
    version = (require('electron/package.json') as { version: string }).version;
  } catch {
    return { path: null, reason: 'the electron package is not installed' };
  }
  try {
    const binary = require('electron') as unknown;
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
