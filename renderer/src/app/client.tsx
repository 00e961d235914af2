import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { Client } from '../../../shared/contract';
import { createJobHub, type JobHub } from './job-hub';
import { createSettingsStore, type SettingsState, type SettingsStore } from './settings-store';

interface ClientContextValue {
  client: Client;
  jobs: JobHub;
  settings: SettingsStore;
}

const ClientContext = createContext<ClientContextValue | null>(null);

/** Gives every component the API client, the job-event hub and the saved settings; tests pass a fake client. */
export function ClientProvider({ client, children }: { client: Client; children: ReactNode }) {
  const jobs = useMemo(() => createJobHub(client), [client]);
  useEffect(() => jobs.connect(), [jobs]);
  const settings = useMemo(() => createSettingsStore(client, jobs), [client, jobs]);
  useEffect(() => settings.connect(), [settings]);
  const value = useMemo(() => ({ client, jobs, settings }), [client, jobs, settings]);
  return <ClientContext.Provider value={value}>{children}</ClientContext.Provider>;
}

function useCtx(): ClientContextValue {
  const v = useContext(ClientContext);
  if (!v) throw new Error('ClientProvider is missing above this component.');
  return v;
}

export const useClient = (): Client => useCtx().client;
export const useJobs = (): JobHub => useCtx().jobs;
/** The settings store itself, to save or read afresh; a view that shows the settings uses useSettings. */
export const useSettingsStore = (): SettingsStore => useCtx().settings;

/** The saved settings, as every view sees them (read on first use, then kept current: settings-store.ts). */
export function useSettings(): SettingsState {
  const store = useSettingsStore();
  useEffect(() => store.load(), [store]);
  return useSyncExternalStore(store.subscribe, store.state);
}
