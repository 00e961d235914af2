import { requireScopePath, scopePathRange } from '../../../shared/scope-path';

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
 * first path past the folder }` for `json_each`, or null for every folder: a folder's paths are
 * scopePathRange's (shared/scope-path.ts); a whole collection is `p: ''` with no end.
 */
export function scopeParam(filter: ScopeFilter): string | null {
  const parts = [
    ...(filter.collectionIds ?? []).map((c) => ({ c, p: '', e: null as string | null })),
    ...(filter.folders ?? []).map((f) => {
      const range = scopePathRange(requireScopePath(f.path));
      return { c: f.collectionId, p: range?.from ?? '', e: range?.to ?? null };
    }),
  ];
  return parts.length > 0 ? JSON.stringify(parts) : null;
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
