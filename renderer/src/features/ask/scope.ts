import { useSyncExternalStore } from 'react';
import type { ScopeRef } from '../../../../shared/contract';
import { holdsFolder } from '../../../../shared/scope-path';

/** One ticked place: an imported folder (path '') or a folder inside it (its path relative to the root). */
export interface ScopePlace {
  collectionId: string;
  path: string;
}

export interface ScopeState {
  places: readonly ScopePlace[];
  /** The places are those of the open conversation's last question, set when it was opened, not ticked by the person. */
  fromConversation: boolean;
}

/**
 * The folders questions and searches are limited to (empty: every folder). One store for the Ask
 * view's picker, the conversation's asks and the passage search, so they never disagree; kept for
 * the session. Opening a stored conversation shows its folders without forgetting the person's own
 * choice (`chosen`), which a new conversation returns to.
 */
let state: ScopeState = { places: [], fromConversation: false };
let chosen: readonly ScopePlace[] = [];
const listeners = new Set<() => void>();

export const sameScopePlace = (a: ScopePlace, b: ScopePlace) => a.collectionId === b.collectionId && a.path === b.path;

/** A folder ticked covers the folders inside it, at any depth, which are dropped; so are repeats. */
function tidy(places: readonly ScopePlace[]): readonly ScopePlace[] {
  const covered = (p: ScopePlace) => places.some((o) => o.collectionId === p.collectionId && holdsFolder(o.path, p.path));
  return places.filter((p, i) => places.findIndex((o) => sameScopePlace(o, p)) === i && !covered(p));
}

function publish(next: ScopeState): void {
  state = next;
  for (const l of listeners) l();
}

/** The scope now (outside render). */
export function getScope(): readonly ScopePlace[] {
  return state.places;
}

/** The person's choice (the picker): also what a new conversation starts with. */
export function setScope(places: readonly ScopePlace[]): void {
  chosen = tidy(places);
  publish({ places: chosen, fromConversation: false });
}

/**
 * Shows the folders an opened conversation's last question was asked of ([]: every folder), so a
 * follow-up is asked of them; null (not known) returns to the person's choice.
 */
export function followConversationScope(places: readonly ScopePlace[] | null): void {
  publish(places === null ? { places: chosen, fromConversation: false } : { places: tidy(places), fromConversation: true });
}

/** A new conversation: back to what the person chose (every folder if nothing). */
export function restoreChosenScope(): void {
  if (state.places !== chosen || state.fromConversation) publish({ places: chosen, fromConversation: false });
}

/** Drops the places that left the library (a folder forgotten, or emptied of documents), from what is shown and what was chosen. */
export function pruneScope(there: (p: ScopePlace) => boolean): void {
  if (chosen.some((p) => !there(p))) chosen = chosen.filter(there);
  if (state.places.some((p) => !there(p))) publish({ ...state, places: state.places.filter(there) });
}

export function useScopeState(): ScopeState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

/**
 * What an `ask` or `search` call adds for the current scope: a whole folder by its id; `[]` for every
 * folder, said outright, since a follow-up that names no folders is asked of its conversation's.
 */
export function scopeInput(): { collections: ScopeRef[] } {
  return { collections: state.places.map((p) => (p.path === '' ? p.collectionId : { collectionId: p.collectionId, path: p.path })) };
}
