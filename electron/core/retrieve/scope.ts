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
 * The filter as one SQL parameter: a JSON array of `{ c: collection id, p: first path, e: the
 * first path past the folder }` for `json_each`, or null for every folder. A folder's paths are
 * the range [`work/`, `work0`) ('0' follows '/'), so `work/` never takes in `workshop/…`; a whole
 * collection is `p: ''` with no end.
 */
export function scopeParam(filter: ScopeFilter): string | null {
  const parts = [
    ...(filter.collectionIds ?? []).map((c) => ({ c, p: '', e: null })),
    ...(filter.folders ?? []).map((f) => {
      const p = folderPrefix(f.path);
      return { c: f.collectionId, p, e: p === '' ? null : `${p.slice(0, -1)}0` };
    }),
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
 * The condition that a document (alias `d`) is in the scope bound as `@<param>`. The scope's
 * documents are found once, each part a range of the documents' (collection_id, rel_path) index,
 * and each row is then a lookup in that set. Paths are compared as ranges, not with LIKE, so no
 * character of a folder's name acts as a wildcard.
 */
export function inScopeSql(param: string): string {
  return `d.id IN (SELECT sd.id FROM json_each(@${param}) sc
                    JOIN documents sd ON sd.collection_id = sc.value ->> 'c' AND sd.rel_path >= sc.value ->> 'p'
                     AND (sc.value ->> 'e' IS NULL OR sd.rel_path < sc.value ->> 'e'))`;
}
