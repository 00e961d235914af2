/** Which folders a search may return passages from: these collection ids, or all when absent or empty. */
export interface ScopeFilter {
  collectionIds?: readonly string[];
}

/** The filter as one SQL parameter: a JSON array of ids for `json_each`, or null for every folder. */
export function scopeParam(filter: ScopeFilter): string | null {
  return filter.collectionIds && filter.collectionIds.length > 0 ? JSON.stringify(filter.collectionIds) : null;
}
