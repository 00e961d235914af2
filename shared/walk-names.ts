import { documentTypeOf } from './document-types';

/**
 * Which names the import walk passes over without listing them, written once: the walk
 * (electron/core/ingest/walk.ts), the folder watcher, and what the Library counts as a change
 * waiting. No runtime, so the renderer and the core read the same rules.
 */

/**
 * Hidden folders (.git, .obsidian, .trash) and dependency folders hold no notes. Nor do a Logseq
 * graph's `logseq/bak` and `logseq/version-files`: Logseq's own copies of pages it found changed
 * on disk, each a duplicate of a page beside it. `parent` is the name of the folder holding this one.
 */
export function ignoredDir(name: string, parent?: string): boolean {
  return name.startsWith('.') || name === 'node_modules' || (parent === 'logseq' && LOGSEQ_COPIES.has(name));
}

const LOGSEQ_COPIES = new Set(['bak', 'version-files']);

/** Whether any folder on a path ('/'-separated parts, outermost first) is one the walk leaves out. */
export function ignoredDirs(parts: readonly string[]): boolean {
  return parts.some((p, i) => ignoredDir(p, parts[i - 1]));
}

/**
 * Files the walk passes over, as it does hidden folders (a hidden note is named in the report: hiddenNote).
 *
 * A name that starts with a dot is hidden: file managers, Obsidian and Logseq do not show it, and
 * the notes apps neither list nor link it. What such a file is in a notes folder is mostly a
 * program's: macOS's `.DS_Store` and the `._name` AppleDouble file it writes beside every file it
 * copies to a USB stick or a share (a binary `.md` that would fail), Emacs's `.#note.md` lock (a
 * link to nothing), a sync tool's `.syncthing.note.md.tmp`, LibreOffice's `.~lock.report.odt#`. A
 * note a person names `.draft.md` is one they hid, from everything that follows those rules; read
 * it, and Quire would quote a note its own app does not show. So a hidden file is skipped as a
 * hidden folder is, whatever its type (tldr's page for the `.` command, `..md`, with it): rename it
 * to have it read. So is `~$report.docx`, the owner file Word keeps beside a document while it is
 * open (162 bytes, no document).
 */
export function ignoredFile(name: string): boolean {
  return name.startsWith('.') || name.startsWith('~$');
}

/**
 * A file passed over that the import report names all the same (`hidden-name`), as it names other
 * files it does not read: a note someone hid (`.draft.md`, tldr's `..md`), so its absence is no
 * mystery. Not a program's file beside a note (macOS's `._name`, an editor's `.#name` or `.~name`
 * lock: one beside every note on a USB stick would bury the report), nor a file of a type Quire
 * does not read (`.DS_Store`), nor anything in a hidden folder (`.git`, `.obsidian`, `.trash`),
 * which the walk never enters.
 */
export function hiddenNote(name: string): boolean {
  return name.startsWith('.') && !/^\.[_#~]/.test(name) && documentTypeOf(name) !== null;
}

/**
 * A path inside a folder ('/'-separated, relative) that an import would read: a file of a type
 * Quire reads, in no folder the walk leaves out, under no name it passes over. (Whether it is a
 * regular file within the size limit is for the import to find.)
 */
export function readablePath(relPath: string): boolean {
  return !passedOver(relPath) && documentTypeOf(relPath) !== null;
}

/**
 * A path ('/'-separated, relative) the walk passes over by its names, whatever its type: in a
 * folder it leaves out, or under a name it passes over. An index an older Quire made may hold
 * documents at such paths (hidden files and Logseq's copies were read before these rules).
 */
export function passedOver(relPath: string): boolean {
  const parts = relPath.split('/');
  return ignoredDirs(parts.slice(0, -1)) || ignoredFile(parts.at(-1)!);
}
