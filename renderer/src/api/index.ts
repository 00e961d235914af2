import { createClient, type Client, type Transport } from '../../../shared/contract';
import { createBridgeTransport, isBridge, type Bridge } from './bridge-transport';
import { createHttpTransport, takeToken } from './http-transport';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent in browser mode. */
    quire?: Bridge;
  }
}

/** Electron's preload bridge when present, else browser mode's HTTP transport. */
export function pickTransport(win: Window = window): Transport {
  if (isBridge(win.quire)) return createBridgeTransport(win.quire);
  return createHttpTransport({ token: takeToken(win) });
}

/** The app's one client. Only main.tsx imports this; components get the client from context. */
export const api: Client = createClient(pickTransport());

export type { Client };
