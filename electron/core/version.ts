import fs from 'node:fs';
import path from 'node:path';

/** How far up from this file Quire's package.json may be: electron/core in the sources, dist/cli/chunks in the built command line. */
const LEVELS = 4;

/**
 * Quire's version from package.json, for the shells that run from source (CLI, browser mode);
 * the desktop app asks Electron (app.getVersion()). Not imported by main: its bundle is CommonJS.
 * Looked for upwards, since the built command line runs this from a chunk two folders deeper
 * than the sources do (a fixed path read "unknown" into every report `quire eval` saved).
 */
export function packageVersion(from: string = import.meta.dirname): string {
  let dir = from;
  for (let level = 0; level <= LEVELS; level++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'quire' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // none here, or not readable: look further up
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return 'unknown';
}
