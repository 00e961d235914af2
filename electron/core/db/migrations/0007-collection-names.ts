import type { Migration } from './types';

/**
 * A name for each imported folder, which a question's scope can use (`--collection notes`): the
 * folder's base name until a person renames it in the library. Existing folders get theirs here; a
 * second folder with the same base name gets " (2)", and so on, in the order they were added.
 * Uniqueness is kept by the code that names and renames (db/collections.ts), not by an index, so
 * that no existing database can fail this migration.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'collection-names',
  up: `
    ALTER TABLE collections ADD COLUMN name TEXT;

    UPDATE collections SET name = CASE WHEN r.n = 1 THEN r.b ELSE r.b || ' (' || r.n || ')' END
      FROM (SELECT id, b, row_number() OVER (PARTITION BY lower(b) ORDER BY created_at, id) AS n
              FROM (SELECT id, created_at,
                           -- The base name: what is left after the last / or \\.
                           replace(root, rtrim(root, replace(replace(root, '/', ''), '\\', '')), '') AS b
                      FROM collections)) r
     WHERE r.id = collections.id;
  `,
};
