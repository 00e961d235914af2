import { useSyncExternalStore } from 'react';

/**
 * The folders questions and searches are limited to (collection ids; empty: every folder). One
 * store for the Ask view's picker, the conversation's asks and the passage search, so they never
 * disagree; kept for the session.
 */
let current: readonly string[] = [];
const listeners = new Set<() => void>();

/** The scope now (outside render: a loader pruning folders that left the library). */
export function getScope(): readonly string[] {
  return current;
}

export function setScope(ids: readonly string[]): void {
  current = [...new Set(ids)];
  for (const l of listeners) l();
}

export function useScope(): readonly string[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

/** What an `ask` or `search` call adds for the current scope: nothing when it is every folder. */
export function scopeInput(): { collections?: string[] } {
  return current.length > 0 ? { collections: [...current] } : {};
}
