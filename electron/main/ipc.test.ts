import type { IpcMain, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { API, METHOD_NAMES, type ApiEvent } from '../../shared/contract';
import { dispatch, type Handlers } from '../core/api/dispatch';
import { EVENT_CHANNEL, ipcChannel, registerIpc, sendEvent, trustedSender, type IpcReply, type WindowLike } from './ipc';

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  const registered: string[] = [];
  const ipcMain = {
    handle: (channel: string, listener: Listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      registered.push(channel);
      handlers.set(channel, listener);
    },
    removeHandler: (channel: string) => {
      handlers.delete(channel);
    },
  };
  const invoke = async (channel: string, event: Partial<IpcMainInvokeEvent>, input?: unknown) => {
    const l = handlers.get(channel);
    if (!l) throw new Error(`No handler registered for '${channel}'`);
    return (await l(event as IpcMainInvokeEvent, input)) as IpcReply;
  };
  return { ipcMain: ipcMain as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>, handlers, registered, invoke };
}

/** Every contract method as a spy; cancel answers a valid result. */
function fakeHandlers() {
  const spies = Object.fromEntries(METHOD_NAMES.map((m) => [m, vi.fn(async () => ({}))])) as unknown as Record<keyof Handlers, ReturnType<typeof vi.fn>>;
  spies.cancel = vi.fn(async () => ({ cancelled: true }));
  const anyCalled = () => Object.values(spies).some((s) => s.mock.calls.length > 0);
  // The engine's dispatch over these handlers: the real validation, fake work.
  return { handlers: { dispatch: (method: string, input: unknown) => dispatch(spies as unknown as Handlers, method, input) }, spies, anyCalled };
}

function frame(url: string): WebFrameMain {
  return { url } as unknown as WebFrameMain;
}

function fakeWindow(mainFrameUrl = 'app://quire/index.html') {
  const send = vi.fn();
  const state = { destroyed: false, contentsDestroyed: false };
  const mainFrame = frame(mainFrameUrl);
  const win = {
    isDestroyed: () => state.destroyed,
    webContents: { mainFrame, send, isDestroyed: () => state.contentsDestroyed },
  };
  return { win: win as unknown as WindowLike, mainFrame, send, state };
}

const allowAll = () => true;

describe('registerIpc', () => {
  it('registers exactly one quire:<method> channel per contract method and nothing else', () => {
    const { ipcMain, registered } = fakeIpcMain();
    registerIpc(ipcMain, fakeHandlers().handlers, allowAll);
    expect(registered).toHaveLength(METHOD_NAMES.length);
    expect(new Set(registered).size).toBe(registered.length);
    expect([...registered].sort()).toEqual(Object.keys(API).map((m) => `quire:${m}`).sort());
    expect(registered).toEqual(METHOD_NAMES.map(ipcChannel));
    expect(registered).not.toContain(EVENT_CHANNEL);
  });

  it('dispose removes every channel it registered', () => {
    const { ipcMain, handlers } = fakeIpcMain();
    const dispose = registerIpc(ipcMain, fakeHandlers().handlers, allowAll);
    dispose();
    expect(handlers.size).toBe(0);
  });

  it('passes a valid call through the dispatcher to the handler', async () => {
    const { ipcMain, invoke } = fakeIpcMain();
    const { handlers, spies } = fakeHandlers();
    registerIpc(ipcMain, handlers, allowAll);
    await expect(invoke('quire:cancel', {}, { jobId: 'j1' })).resolves.toEqual({ ok: true, value: { cancelled: true } });
    expect(spies.cancel).toHaveBeenCalledExactlyOnceWith({ jobId: 'j1' });
  });

  it.each([
    ['a wrong type', { jobId: 5 }],
    ['an extra key', { jobId: 'j1', extra: true }],
    ['a missing key', {}],
    ['not an object', 'j1'],
  ])('answers INVALID_ARGUMENT for %s and never calls the handler', async (_what, input) => {
    const { ipcMain, invoke } = fakeIpcMain();
    const { handlers, anyCalled } = fakeHandlers();
    registerIpc(ipcMain, handlers, allowAll);
    const reply = await invoke('quire:cancel', {}, input);
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error.code).toBe('INVALID_ARGUMENT');
    expect(anyCalled()).toBe(false);
  });

  it('answers FORBIDDEN when the sender check fails or throws, without calling anything', async () => {
    for (const check of [() => false, () => { throw new Error('frame gone'); }]) {
      const { ipcMain, invoke } = fakeIpcMain();
      const { handlers, anyCalled } = fakeHandlers();
      registerIpc(ipcMain, handlers, check);
      for (const method of METHOD_NAMES) {
        const reply = await invoke(ipcChannel(method), {}, {});
        expect(reply).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: expect.any(String) } });
      }
      expect(anyCalled()).toBe(false);
    }
  });
});

describe('trustedSender through registerIpc', () => {
  async function callAs(senderFrame: WebFrameMain | null, getWindow: () => WindowLike | null) {
    const { ipcMain, invoke } = fakeIpcMain();
    const { handlers, spies } = fakeHandlers();
    registerIpc(ipcMain, handlers, trustedSender(getWindow));
    const reply = await invoke('quire:cancel', { senderFrame } as Partial<IpcMainInvokeEvent>, { jobId: 'j1' });
    return { reply, called: spies.cancel.mock.calls.length > 0 };
  }

  it('trusts our window’s main frame on app://quire', async () => {
    const ours = fakeWindow();
    const { reply, called } = await callAs(ours.mainFrame, () => ours.win);
    expect(reply).toEqual({ ok: true, value: { cancelled: true } });
    expect(called).toBe(true);
  });

  const untrusted: Array<[string, () => { senderFrame: WebFrameMain | null; getWindow: () => WindowLike | null }]> = [
    ['a null senderFrame', () => { const o = fakeWindow(); return { senderFrame: null, getWindow: () => o.win }; }],
    ['a subframe of our window (same URL)', () => { const o = fakeWindow(); return { senderFrame: frame('app://quire/index.html'), getWindow: () => o.win }; }],
    ['another frame on another origin', () => { const o = fakeWindow(); return { senderFrame: frame('https://evil.example/'), getWindow: () => o.win }; }],
    ['another window’s main frame', () => { const o = fakeWindow(); const other = fakeWindow(); return { senderFrame: other.mainFrame, getWindow: () => o.win }; }],
    ['our main frame showing a non-app URL', () => { const o = fakeWindow('https://evil.example/index.html'); return { senderFrame: o.mainFrame, getWindow: () => o.win }; }],
    ['our main frame on file://', () => { const o = fakeWindow('file:///app/dist/renderer/index.html'); return { senderFrame: o.mainFrame, getWindow: () => o.win }; }],
    ['our main frame on a look-alike app host', () => { const o = fakeWindow('app://quire.evil/index.html'); return { senderFrame: o.mainFrame, getWindow: () => o.win }; }],
    ['no window at all', () => { const o = fakeWindow(); return { senderFrame: o.mainFrame, getWindow: () => null }; }],
    ['a destroyed window', () => { const o = fakeWindow(); o.state.destroyed = true; return { senderFrame: o.mainFrame, getWindow: () => o.win }; }],
    ['destroyed webContents', () => { const o = fakeWindow(); o.state.contentsDestroyed = true; return { senderFrame: o.mainFrame, getWindow: () => o.win }; }],
  ];

  it.each(untrusted)('forbids %s and never calls the handler', async (_what, setup) => {
    const { senderFrame, getWindow } = setup();
    const { reply, called } = await callAs(senderFrame, getWindow);
    expect(reply).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: expect.any(String) } });
    expect(called).toBe(false);
  });
});

describe('sendEvent', () => {
  const event: ApiEvent = { type: 'library.changed' };

  it('sends on the event channel to our window only', () => {
    const ours = fakeWindow();
    const other = fakeWindow();
    expect(sendEvent(() => ours.win, event)).toBe(true);
    expect(ours.send).toHaveBeenCalledExactlyOnceWith(EVENT_CHANNEL, event);
    expect(other.send).not.toHaveBeenCalled();
  });

  it('sends nothing when the window is gone or destroyed', () => {
    const ours = fakeWindow();
    expect(sendEvent(() => null, event)).toBe(false);
    ours.state.destroyed = true;
    expect(sendEvent(() => ours.win, event)).toBe(false);
    ours.state.destroyed = false;
    ours.state.contentsDestroyed = true;
    expect(sendEvent(() => ours.win, event)).toBe(false);
    expect(ours.send).not.toHaveBeenCalled();
  });

  it('uses the channel names shared with the preload', () => {
    expect(EVENT_CHANNEL).toBe('quire:event');
    expect(ipcChannel('search')).toBe('quire:search');
  });
});
