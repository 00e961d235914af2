import type { Migration } from './types';

/**
 * Watched folders. `collections.watch` (since 0001) says a folder is watched; `watch_paused` says
 * watching is on but held, so nothing is imported until it is resumed. `import_queue` is the work
 * not yet done, kept across restarts: a path a watcher saw change, or '' for a whole-folder import
 * that was started and has not finished. Its rowid only goes up, so an import can remove exactly
 * the entries that were queued before it began and leave those that arrived while it ran.
 */
export const migration0005: Migration = {
  version: 5,
  name: 'watching',
  up: `
    ALTER TABLE collections ADD COLUMN watch_paused INTEGER NOT NULL DEFAULT 0 CHECK (watch_paused IN (0, 1));

    CREATE TABLE import_queue (
      rowid         INTEGER PRIMARY KEY AUTOINCREMENT,
      collection_id TEXT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
      rel_path      TEXT NOT NULL,
      queued_at     TEXT NOT NULL,
      UNIQUE (collection_id, rel_path)
    );
  `,
};
