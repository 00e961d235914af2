import { useSyncExternalStore } from 'react';
import type { ScopeRef } from '../../../../shared/contract';
import { holdsFolder } from '../../../../shared/scope-path';

/** One ticked place: an imported folder (path '') or a folder inside it (its path relative to the root). */
export interface ScopePlace {
  collectionId: string;
  path: string;
}

/**
 * The folders questions and searches are limited to (empty: every folder). One store for the Ask
 * view's picker, the conversation's asks and the passage search, so they never disagree; kept for
 * the session.
 */
let current: readonly ScopePlace[] = [];
const listeners = new Set<() => void>();

export const sameScopePlace = (a: ScopePlace, b: ScopePlace) => a.collectionId === b.collectionId && a.path === b.path;

/** The scope now (outside render: a loader pruning folders that left the library). */
export function getScope(): readonly ScopePlace[] {
  return current;
}

/** Sets the scope; a folder ticked covers the folders inside it, at any depth, which are dropped. */
export function setScope(places: readonly ScopePlace[]): void {
  const covered = (p: ScopePlace) => places.some((o) => o.collectionId === p.collectionId && holdsFolder(o.path, p.path));
  current = places.filter((p, i) => places.findIndex((o) => sameScopePlace(o, p)) === i && !covered(p));
  for (const l of listeners) l();
}

export function useScope(): readonly ScopePlace[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

/**
 * What an `ask` or `search` call adds for the current scope: a whole folder by its id; `[]` for every
 * folder, said outright, since a follow-up that names no folders is asked of its conversation's.
 */
export function scopeInput(): { collections: ScopeRef[] } {
  return { collections: current.map((p) => (p.path === '' ? p.collectionId : { collectionId: p.collectionId, path: p.path })) };
}
