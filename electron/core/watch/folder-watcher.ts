import path from 'node:path';
import { watch } from 'chokidar';
import { ignoredDir, ignoredDirs, readablePath } from '../../../shared/walk-names';

export interface FolderWatch {
  close(): Promise<void>;
}

export interface WatchCallbacks {
  /** A path under the root ('/'-separated, relative) was added, changed or removed: file or folder. */
  onChange(relPath: string): void;
  /** The watch failed (the folder went away, the system's watch limit was reached). */
  onError(error: Error): void;
  /** Watching has begun: changes from now on are reported. */
  onReady?(): void;
}

/**
 * Watches a folder as the import walk sees it: hidden and dependency folders are not watched,
 * links are not followed out (the import decides what a link may reach). The only file that
 * knows chokidar, so the rest of Quire sees paths, not its events.
 */
export function watchFolder(root: string, callbacks: WatchCallbacks): FolderWatch {
  const relative = (p: string) => path.relative(root, p).split(path.sep).join('/');
  const watcher = watch(root, {
    ignoreInitial: true,
    followSymlinks: false,
    // Editors save by writing a temporary file and renaming it over the note: one change, not two.
    atomic: true,
    ignored: (p, stats) => {
      const parts = relative(p).split('/');
      if (parts[0] === '' || parts[0] === '..') return false;
      if (ignoredDirs(parts.slice(0, -1))) return true;
      return stats?.isDirectory() === true && ignoredDir(parts.at(-1)!, parts.at(-2));
    },
  });
  for (const event of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
    // A file the import would pass over (a picture, an editor's swap or lock file, a name the walk
    // leaves out: shared/walk-names.ts) never becomes a document, so its changes are nobody's
    // business: not queued, not counted as waiting, no import started.
    const files = event === 'add' || event === 'change' || event === 'unlink';
    watcher.on(event, (p: string) => {
      const rel = relative(p);
      if (rel !== '' && !rel.startsWith('..') && !(files && !readablePath(rel))) callbacks.onChange(rel);
    });
  }
  watcher.on('error', (e) => callbacks.onError(e instanceof Error ? e : new Error(String(e))));
  watcher.on('ready', () => callbacks.onReady?.());
  return { close: () => watcher.close() };
}
