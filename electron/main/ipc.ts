/**
 * The IPC registry: one `quire:<method>` channel per contract method (from METHOD_NAMES, no list
 * kept here), each checking its sender and then handing the raw input to the dispatcher, which
 * validates it with the method's zod schema. Replies are the dispatcher's envelope.
 */
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { METHOD_NAMES, type ApiEvent } from '../../shared/contract';
import { EVENT_CHANNEL, ipcChannel } from '../core/ipc-channels';
import type { DispatchResult, Engine } from '../core/engine';
import { isAppUrl } from './app-origin';

export { EVENT_CHANNEL, ipcChannel } from '../core/ipc-channels';

/** FORBIDDEN is the shell's own refusal (a sender that is not our window's app page). */
export type IpcReply = DispatchResult | { ok: false; error: { code: 'FORBIDDEN'; message: string } };

export const FORBIDDEN_REPLY: IpcReply = Object.freeze({
  ok: false,
  error: Object.freeze({ code: 'FORBIDDEN', message: 'This page may not call Quire.' }),
}) as IpcReply;

/** The slice of a BrowserWindow the shell reads; a real BrowserWindow satisfies it. */
export type WindowLike = Pick<BrowserWindow, 'isDestroyed'> & {
  readonly webContents: Pick<WebContents, 'mainFrame' | 'send' | 'isDestroyed'>;
};

export type SenderCheck = (event: Pick<IpcMainInvokeEvent, 'senderFrame'>) => boolean;

/**
 * Registers every contract method; returns a function removing them all again. A sender check
 * that throws counts as untrusted.
 */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, engine: Pick<Engine, 'dispatch'>, isTrusted: SenderCheck): () => void {
  const channels: string[] = [];
  for (const method of METHOD_NAMES) {
    const channel = ipcChannel(method);
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, input: unknown): Promise<IpcReply> => {
      let trusted = false;
      try {
        trusted = isTrusted(event);
      } catch {
        trusted = false;
      }
      if (!trusted) return FORBIDDEN_REPLY;
      return engine.dispatch(method, input);
    });
    channels.push(channel);
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}

/**
 * Trusted: the sending frame still exists, is the main frame of our window's webContents (not a
 * subframe, not another window), and shows a page on app://quire.
 */
export function trustedSender(getWindow: () => WindowLike | null): SenderCheck {
  return (event) => {
    const frame = event.senderFrame;
    if (!frame) return false;
    const win = getWindow();
    if (!win || win.isDestroyed() || win.webContents.isDestroyed()) return false;
    if (frame !== win.webContents.mainFrame) return false;
    return isAppUrl(frame.url);
  };
}

/** Sends an engine event to our window only, and only while it is alive. */
export function sendEvent(getWindow: () => WindowLike | null, event: ApiEvent): boolean {
  const win = getWindow();
  if (!win || win.isDestroyed() || win.webContents.isDestroyed()) return false;
  win.webContents.send(EVENT_CHANNEL, event);
  return true;
}
