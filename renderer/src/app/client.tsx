import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import type { Client } from '../../../shared/contract';
import { createJobHub, type JobHub } from './job-hub';

interface ClientContextValue {
  client: Client;
  jobs: JobHub;
}

const ClientContext = createContext<ClientContextValue | null>(null);

/** Gives every component the API client and the job-event hub; tests pass a fake client. */
export function ClientProvider({ client, children }: { client: Client; children: ReactNode }) {
  const jobs = useMemo(() => createJobHub(client), [client]);
  useEffect(() => jobs.connect(), [jobs]);
  const value = useMemo(() => ({ client, jobs }), [client, jobs]);
  return <ClientContext.Provider value={value}>{children}</ClientContext.Provider>;
}

function useCtx(): ClientContextValue {
  const v = useContext(ClientContext);
  if (!v) throw new Error('ClientProvider is missing above this component.');
  return v;
}

export const useClient = (): Client => useCtx().client;
export const useJobs = (): JobHub => useCtx().jobs;
