import { ApiError, createClient, type ApiEvent, type Client, type MethodName, type Transport } from '../../../shared/contract';

type Handler = (input: never) => unknown;

export interface FakeTransport extends Transport {
  /** Every call, in order. */
  calls: Array<{ method: MethodName; input: unknown }>;
  /** Sends an event to every subscriber, as the server would. */
  emit(event: ApiEvent): void;
  listenerCount(): number;
}

/** An in-memory Transport for tests and demos: handlers per method, events pushed by hand. */
export function createFakeTransport(handlers: Partial<Record<MethodName, Handler>> = {}): FakeTransport {
  const listeners = new Set<(e: ApiEvent) => void>();
  const calls: FakeTransport['calls'] = [];
  return {
    calls,
    async invoke(method, input) {
      calls.push({ method, input });
      const h = handlers[method];
      if (!h) throw new ApiError('INTERNAL', `The fake has no handler for ${method}.`);
      return await (h as (i: unknown) => unknown)(input);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event) {
      for (const l of [...listeners]) l(event);
    },
    listenerCount: () => listeners.size,
  };
}

export function createFakeClient(handlers: Partial<Record<MethodName, Handler>> = {}): { client: Client; transport: FakeTransport } {
  const transport = createFakeTransport(handlers);
  return { client: createClient(transport), transport };
}
