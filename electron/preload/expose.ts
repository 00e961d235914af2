import type { ApiEvent, MethodName } from '../../shared/contract';
import { EVENT_CHANNEL, ipcChannel } from '../core/ipc-channels';

/** The slice of ipcRenderer the preload uses; the real one is passed in, tests pass a fake. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** The slice of Electron's webUtils the preload uses (a fake in tests). */
export interface WebUtilsLike {
  getPathForFile(file: never): string;
}

/** What the page sees as window.quire: one named function per contract method, and events. */
export type QuireBridge = { [M in MethodName]: (input?: unknown) => Promise<unknown> } & {
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** Where a file or folder dropped on the window is on disk; null when it has no path (e.g. dragged from a web page). */
  pathForFile(file: unknown): string | null;
};

/**
 * Builds the bridge from the contract's method names. Each function invokes exactly its own
 * channel; ipcRenderer itself, and any way to name an arbitrary channel, stay in here. Replies are
 * the dispatcher's { ok, value } / { ok: false, error } envelope, which survives contextBridge.
 */
export function buildBridge(methods: readonly MethodName[], ipc: IpcRendererLike, webUtils?: WebUtilsLike): QuireBridge {
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
  // Pages are never told where a dropped file is (File.path is gone since Electron 32); the preload
  // may ask. Only a path comes back, nothing is read: importing it goes through the contract.
  bridge.pathForFile = (file: unknown) => {
    try {
      const found = webUtils?.getPathForFile(file as never);
      return typeof found === 'string' && found !== '' ? found : null;
    } catch {
      return null;
    }
  };
  return Object.freeze(bridge) as QuireBridge;
}
