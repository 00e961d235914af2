import type { ApiEvent, MethodName } from '../../shared/contract';
import { EVENT_CHANNEL, ipcChannel } from '../core/ipc-channels';

/** The slice of ipcRenderer the preload uses; the real one is passed in, tests pass a fake. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** What the page sees as window.quire: one named function per contract method, and events. */
export type QuireBridge = { [M in MethodName]: (input?: unknown) => Promise<unknown> } & {
  onEvent(listener: (event: ApiEvent) => void): () => void;
};

/**
 * Builds the bridge from the contract's method names. Each function invokes exactly its own
 * channel; ipcRenderer itself, and any way to name an arbitrary channel, stay in here. Replies are
 * the dispatcher's { ok, value } / { ok: false, error } envelope, which survives contextBridge.
 */
export function buildBridge(methods: readonly MethodName[], ipc: IpcRendererLike): QuireBridge {
  const bridge: Record<string, unknown> = {};
  for (const method of methods) {
    const channel = ipcChannel(method);
    bridge[method] = (input?: unknown) => ipc.invoke(channel, input ?? {});
  }
  bridge.onEvent = (listener: (event: ApiEvent) => void) => {
    const forward = (_e: unknown, event: unknown) => listener(event as ApiEvent);
    ipc.on(EVENT_CHANNEL, forward);
    return () => {
      ipc.removeListener(EVENT_CHANNEL, forward);
    };
  };
  return Object.freeze(bridge) as QuireBridge;
}
