import { documentTypeOf } from './document-types';

/**
 * Which names the import walk passes over without listing them, written once: the walk
 * (electron/core/ingest/walk.ts), the folder watcher, and what the Library counts as a change
 * waiting. No runtime, so the renderer and the core read the same rules.
 */

/** Hidden folders (.git, .obsidian, .trash) and dependency folders hold no notes. */
export function ignoredDir(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * macOS writes a `._name` AppleDouble file (binary metadata) beside every file it copies to a
 * volume without its attributes: a vault on a USB stick, an SMB share or some sync folders has one
 * per note, each a `.md` that would fail as binary. Other dotfiles stay notes (tldr's `..md`).
 */
export function ignoredFile(name: string): boolean {
  return name.startsWith('._');
}

/**
 * A path inside a folder ('/'-separated, relative) that an import would read: a file of a type
 * Quire reads, in no folder the walk leaves out, under no name it passes over. (Whether it is a
 * regular file within the size limit is for the import to find.)
 */
export function readablePath(relPath: string): boolean {
  const parts = relPath.split('/');
  return !parts.slice(0, -1).some(ignoredDir) && !ignoredFile(parts.at(-1)!) && documentTypeOf(relPath) !== null;
}
