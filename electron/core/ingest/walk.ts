import fs from 'node:fs/promises';
import path from 'node:path';
import { kindOf } from './read-file';

export interface WalkedFile {
  /** Relative to the collection root, '/'-separated on every platform. */
  relPath: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

export interface WalkSkip {
  relPath: string;
  reason: 'symlink-outside-root' | 'symlink-loop' | 'unreadable' | 'not-a-regular-file' | 'unsupported-file-name';
  message?: string;
}

export interface WalkResult {
  files: WalkedFile[];
  skipped: WalkSkip[];
  /** Folders that could not be listed: documents under them must not be taken for deleted. */
  unreadableDirs: string[];
  /** Entries that exist but could not be examined (permissions, I/O): likewise not deleted. */
  unreadableFiles: string[];
}

/** Hidden folders (.git, .obsidian, .trash) and dependency folders hold no notes. */
function ignoredDir(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * A folder's entries whose names are valid UTF-8. Node decodes other names with U+FFFD, a path
 * that then names no file (ENOENT); such entries are reported plainly instead, with the bytes
 * that could not be read shown as \xNN.
 */
async function readableEntries(dirAbs: string, dirRel: string, result: WalkResult): Promise<import('node:fs').Dirent[]> {
  const raw = await fs.readdir(dirAbs, { withFileTypes: true, encoding: 'buffer' });
  const entries: import('node:fs').Dirent[] = [];
  for (const entry of raw) {
    const bytes = entry.name as unknown as Buffer;
    const name = bytes.toString('utf8');
    if (Buffer.from(name, 'utf8').equals(bytes)) {
      entries.push(Object.assign(entry, { name }) as unknown as import('node:fs').Dirent);
      continue;
    }
    const shown = [...bytes].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
    result.skipped.push({
      relPath: dirRel === '' ? shown : `${dirRel}/${shown}`,
      reason: 'unsupported-file-name',
      message: 'Its name is not valid UTF-8, so Quire cannot index it. Rename it to index it.',
    });
  }
  return entries;
}

/**
 * Lists the files under `root` (already resolved with realpath). Symbolic links are resolved
 * once: a link leading outside the root, or back into a folder already being walked, is skipped
 * and reported rather than followed.
 */
export async function walkFolder(root: string): Promise<WalkResult> {
  const result: WalkResult = { files: [], skipped: [], unreadableDirs: [], unreadableFiles: [] };
  const visitedDirs = new Set<string>([root]);
  const seenFiles = new Set<string>();

  async function visit(dirAbs: string, dirRel: string): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readableEntries(dirAbs, dirRel, result);
    } catch (e) {
      result.unreadableDirs.push(dirRel);
      if (dirRel !== '') result.skipped.push({ relPath: dirRel, reason: 'unreadable', message: (e as Error).message });
      else throw e;
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.isDirectory() && ignoredDir(entry.name)) continue;
      const abs = path.join(dirAbs, entry.name);
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      let real = abs;
      let stat: import('node:fs').Stats;
      try {
        if (entry.isSymbolicLink()) {
          real = await fs.realpath(abs);
          if (real !== root && !real.startsWith(root + path.sep)) {
            result.skipped.push({ relPath: rel, reason: 'symlink-outside-root' });
            continue;
          }
        }
        stat = await fs.stat(real);
      } catch (e) {
        result.skipped.push({ relPath: rel, reason: 'unreadable', message: (e as Error).message });
        // A dangling link or a loop is gone for good; anything else (EACCES, EIO) may come back.
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ELOOP') result.unreadableFiles.push(rel);
        continue;
      }
      if (stat.isDirectory()) {
        if (ignoredDir(entry.name)) continue;
        if (visitedDirs.has(real)) {
          result.skipped.push({ relPath: rel, reason: 'symlink-loop' });
          continue;
        }
        visitedDirs.add(real);
        await visit(real, rel);
      } else if (stat.isFile()) {
        // A link to a file already listed would index the same text twice.
        if (seenFiles.has(real)) continue;
        seenFiles.add(real);
        result.files.push({ relPath: rel, absPath: real, size: stat.size, mtimeMs: stat.mtimeMs });
      } else {
        // A named pipe, socket or device: reading one can block forever or never end.
        result.skipped.push({ relPath: rel, reason: 'not-a-regular-file', message: `It is ${kindOf(stat)}, not a file.` });
      }
    }
  }

  await visit(root, '');
  return result;
}
