import fs from 'node:fs/promises';
import path from 'node:path';
import { hiddenNote, ignoredDir, ignoredDirs, ignoredFile } from '../../../shared/walk-names';
import { fsErrorSentence } from './fs-errors';
import { kindOf } from './read-file';
import { statFiles, type FileStat } from './stat-worker';

export interface WalkedFile {
  /** Relative to the collection root, '/'-separated on every platform. */
  relPath: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

export interface WalkSkip {
  relPath: string;
  reason: 'symlink-outside-root' | 'symlink-loop' | 'unreadable' | 'not-a-regular-file' | 'unsupported-file-name' | 'hidden-name';
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

// Which names the walk passes over (naming a hidden note as skipped): written once, with the watcher's and the Library's.
export { ignoredDir, ignoredFile };

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
  const walker = new Walker(root);
  await walker.visit(root, '');
  return walker.result;
}

export interface PathsWalkResult extends WalkResult {
  /** Paths asked about that no longer exist: their documents (and those under them) are gone. */
  gone: string[];
}

/**
 * Examines only these paths of a folder (relative, '/'-separated), as walkFolder would have met
 * them: a file is listed or skipped with its reason; a folder is walked whole; a path that no
 * longer exists is reported as gone. What a watcher saw change is imported this way.
 */
export async function walkPaths(root: string, relPaths: readonly string[]): Promise<PathsWalkResult> {
  const walker = new Walker(root);
  const gone: string[] = [];
  for (const rel of [...new Set(relPaths)].sort()) {
    const parts = rel.split('/');
    // Not a path inside the folder, or inside a folder the walk never enters.
    if (rel === '' || parts.some((p) => p === '' || p === '.' || p === '..') || ignoredDirs(parts.slice(0, -1))) continue;
    if (ignoredFile(parts.at(-1)!)) {
      if (hiddenNote(parts.at(-1)!) && (await walker.exists(path.join(root, ...parts)))) walker.result.skipped.push({ relPath: rel, reason: 'hidden-name' });
      continue;
    }
    const abs = path.join(root, ...parts);
    let isLink: boolean;
    try {
      isLink = (await fs.lstat(abs)).isSymbolicLink();
      // A folder on the way may be a link out of the root: only the real path decides.
      const parent = await fs.realpath(path.dirname(abs));
      if (parent !== root && !parent.startsWith(root + path.sep)) continue;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') gone.push(rel);
      else {
        walker.result.skipped.push({ relPath: rel, reason: 'unreadable', message: fsErrorSentence(e, 'file') });
        walker.result.unreadableFiles.push(rel);
      }
      continue;
    }
    await walker.entry(abs, rel, parts.at(-1)!, isLink);
  }
  return { ...walker.result, gone };
}

class Walker {
  readonly result: WalkResult = { files: [], skipped: [], unreadableDirs: [], unreadableFiles: [] };
  private readonly visitedDirs: Set<string>;
  private readonly seenFiles = new Set<string>();

  constructor(private readonly root: string) {
    this.visitedDirs = new Set([root]);
  }

  async visit(dirAbs: string, dirRel: string): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readableEntries(dirAbs, dirRel, this.result);
    } catch (e) {
      this.result.unreadableDirs.push(dirRel);
      if (dirRel !== '') this.result.skipped.push({ relPath: dirRel, reason: 'unreadable', message: fsErrorSentence(e, 'folder') });
      else throw e;
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // The folder's plain files are stat'ed together, off the main thread (stat-worker.ts).
    const plain = entries.flatMap((e, i) => (e.isFile() ? [i] : []));
    const stats = new Map<number, FileStat>();
    (await statFiles(plain.map((i) => path.join(dirAbs, entries[i]!.name)))).forEach((s, k) => s && stats.set(plain[k]!, s));
    for (const [i, entry] of entries.entries()) {
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      if (entry.isDirectory() ? ignoredDir(entry.name, path.posix.basename(dirRel)) : ignoredFile(entry.name)) {
        if (!entry.isDirectory() && hiddenNote(entry.name)) this.result.skipped.push({ relPath: rel, reason: 'hidden-name' });
        continue;
      }
      const abs = path.join(dirAbs, entry.name);
      const stat = stats.get(i);
      if (stat) this.file(abs, rel, stat);
      else await this.entry(abs, rel, entry.name, entry.isSymbolicLink());
    }
  }

  /** Whether something is at this path (a watched hidden note may be gone already). */
  async exists(abs: string): Promise<boolean> {
    try {
      await fs.lstat(abs);
      return true;
    } catch {
      return false;
    }
  }

  /** A regular file, listed once however many links lead to it. */
  private file(real: string, rel: string, stat: FileStat): void {
    // A link to a file already listed would index the same text twice.
    if (this.seenFiles.has(real)) return;
    this.seenFiles.add(real);
    this.result.files.push({ relPath: rel, absPath: real, size: stat.size, mtimeMs: stat.mtimeMs });
  }

  /** One entry of a folder: listed, walked into, or skipped with its reason. */
  async entry(abs: string, rel: string, name: string, isLink: boolean): Promise<void> {
    const { root, result } = this;
    let real = abs;
    let stat: import('node:fs').Stats;
    try {
      if (isLink) {
        real = await fs.realpath(abs);
        if (real !== root && !real.startsWith(root + path.sep)) {
          result.skipped.push({ relPath: rel, reason: 'symlink-outside-root' });
          return;
        }
      }
      stat = await fs.stat(real);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // A link to itself (or a ring of links) is a loop, as a link back to a folder on the way is.
      result.skipped.push({ relPath: rel, reason: code === 'ELOOP' ? 'symlink-loop' : 'unreadable', message: fsErrorSentence(e, isLink ? 'link' : 'file') });
      // A dangling link or a loop is gone for good; anything else (EACCES, EIO) may come back.
      if (code !== 'ENOENT' && code !== 'ELOOP') result.unreadableFiles.push(rel);
      return;
    }
    if (stat.isDirectory()) {
      if (ignoredDir(name, path.posix.basename(path.posix.dirname(rel)))) return;
      if (this.visitedDirs.has(real)) {
        result.skipped.push({ relPath: rel, reason: 'symlink-loop' });
        return;
      }
      this.visitedDirs.add(real);
      await this.visit(real, rel);
    } else if (stat.isFile()) {
      this.file(real, rel, stat);
    } else {
      // A named pipe, socket or device: reading one can block forever or never end.
      result.skipped.push({ relPath: rel, reason: 'not-a-regular-file', message: `It is ${kindOf(stat)}, not a file.` });
    }
  }
}
