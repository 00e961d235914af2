import { QuireError } from '../../../shared/errors';
import { normaliseScopePath } from '../../../shared/scope-path';

/** A folder inside an imported folder: its collection and its path relative to the root, '' for all of it. */
export interface ScopeFolder {
  collectionId: string;
  path: string;
}

/**
 * Which folders a search may return passages from: these collection ids (whole) and these folders
 * inside collections; every folder when both are absent or empty.
 */
export interface ScopeFilter {
  collectionIds?: readonly string[];
  folders?: readonly ScopeFolder[];
}

/**
 * The filter as one SQL parameter: a JSON array of `{ c: collection id, p: path prefix }` for
 * `json_each`, or null for every folder. The prefix ends in '/', so `work/` never matches
 * `workshop/…`; '' is the whole collection.
 */
export function scopeParam(filter: ScopeFilter): string | null {
  const parts = [
    ...(filter.collectionIds ?? []).map((c) => ({ c, p: '' })),
    ...(filter.folders ?? []).map((f) => ({ c: f.collectionId, p: folderPrefix(f.path) })),
  ];
  return parts.length > 0 ? JSON.stringify(parts) : null;
}

/** A relative folder path as stored paths start with it: forward slashes, no leading or trailing one, then '/'. */
export function folderPrefix(path: string): string {
  const clean = normaliseScopePath(path);
  if (clean === null) throw new QuireError('INVALID_ARGUMENT', `A scope's folder must lie inside its imported folder, not “${path}”.`);
  return clean === '' ? '' : `${clean}/`;
}

/**
 * The condition that a document (alias `d`) is in the scope bound as `@<param>`. The collection's
 * `IN` keeps the documents' collection index in the plan; the prefix is compared with `substr`, not
 * LIKE, so no character of a folder's name acts as a wildcard.
 */
export function inScopeSql(param: string): string {
  return `d.collection_id IN (SELECT sc.value ->> 'c' FROM json_each(@${param}) sc)
      AND EXISTS (SELECT 1 FROM json_each(@${param}) sc
                   WHERE sc.value ->> 'c' = d.collection_id AND substr(d.rel_path, 1, length(sc.value ->> 'p')) = sc.value ->> 'p')`;
}
