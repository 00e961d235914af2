import fs from 'node:fs';
import path from 'node:path';

/**
 * Quire's version from package.json, for the shells that run from source (CLI, browser mode);
 * the desktop app asks Electron (app.getVersion()). Not imported by main: its bundle is CommonJS.
 */
export function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
