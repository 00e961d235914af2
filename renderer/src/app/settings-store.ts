import type { Client, Input, Output } from '../../../shared/contract';
import { describeError, type DescribedError } from '../api/messages';
import type { JobHub } from './job-hub';

export type Settings = Output<'getSettings'>;

export interface SettingsState {
  /** The saved settings; null until the first read answers (or when it failed). */
  settings: Settings | null;
  /** Why the last read failed; null once a read or a save succeeds. */
  error: DescribedError | null;
}

/**
 * The renderer's one copy of the saved settings, which every view reads (useSettings). Read once,
 * when a view first needs it; then it takes the answer of every save made through it, and is read
 * again after missed events (`events.gap`) and whenever the window comes back to the front. No
 * event says the settings changed: one saved by another process (`quire settings set`, browser
 * mode in another window) could send this window none, and a person makes it from elsewhere, so
 * coming back is when it is read.
 */
export interface SettingsStore {
  state(): SettingsState;
  subscribe(listener: () => void): () => void;
  /** The first read; does nothing once one has started. */
  load(): void;
  /** Reads the settings now (for a decision that must not rest on a copy: a change under review). */
  refresh(): Promise<Settings>;
  /** Saves through setSettings; its answer is what every view then reads. Rejects as setSettings does. */
  save(patch: Input<'setSettings'>): Promise<Settings>;
  /** Starts following missed events and the window's focus; returns the function that stops it. */
  connect(): () => void;
}

export function createSettingsStore(client: Client, jobs: JobHub): SettingsStore {
  let state: SettingsState = { settings: null, error: null };
  let started = false;
  const listeners = new Set<() => void>();
  // Each read or save takes the next number; an answer older than the one shown is dropped, so a
  // read sent before a save (answered after it) cannot bring the old values back.
  let issued = 0;
  let shown = 0;

  const set = (next: SettingsState) => {
    state = next;
    for (const l of [...listeners]) l();
  };

  const refresh = async (): Promise<Settings> => {
    started = true;
    const ticket = ++issued;
    try {
      const settings = await client.getSettings({});
      if (ticket > shown) {
        shown = ticket;
        set({ settings, error: null });
      }
      return settings;
    } catch (e) {
      if (ticket > shown) set({ settings: state.settings, error: describeError(e) });
      throw e;
    }
  };

  const quietly = () => void refresh().catch(() => {});

  return {
    state: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load() {
      if (!started) quietly();
    },
    refresh,
    async save(patch) {
      const after = await client.setSettings(patch);
      // Newer than any read still on its way: those may have been answered before this save.
      shown = ++issued;
      set({ settings: after, error: null });
      return after;
    },
    connect() {
      const onFocus = () => {
        if (started) quietly();
      };
      window.addEventListener('focus', onFocus);
      const off = jobs.onEvent((e) => {
        if (e.type === 'events.gap' && started) quietly();
      });
      return () => {
        window.removeEventListener('focus', onFocus);
        off();
      };
    },
  };
}
