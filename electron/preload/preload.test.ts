import { describe, expect, it, vi } from 'vitest';
import { API, METHOD_NAMES } from '../../shared/contract';
import { EVENT_CHANNEL } from '../core/ipc-channels';
import { buildBridge, type IpcRendererLike, type QuireBridge } from './expose';

function fakeIpc() {
  const listeners = new Map<string, Set<(e: unknown, ...a: unknown[]) => void>>();
  const ipc: IpcRendererLike & { invoked: Array<[string, unknown]> } = {
    invoked: [],
    invoke: async (channel, input) => {
      ipc.invoked.push([channel, input]);
      return { ok: true, value: channel };
    },
    on: (channel, l) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(l)),
    removeListener: (channel, l) => listeners.get(channel)?.delete(l),
  };
  const emit = (channel: string, payload: unknown) => listeners.get(channel)?.forEach((l) => l({}, payload));
  return { ipc, emit, listeners };
}

describe('preload bridge', () => {
  it('exposes exactly the contract’s method names plus onEvent — no generic invoke, no ipcRenderer', () => {
    const bridge = buildBridge(METHOD_NAMES, fakeIpc().ipc);
    expect(Object.keys(bridge).sort()).toEqual([...Object.keys(API), 'onEvent', 'pathForFile'].sort());
    expect(bridge).not.toHaveProperty('invoke');
    expect(bridge).not.toHaveProperty('ipcRenderer');
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('each function invokes only its own channel with the input (or {})', async () => {
    const { ipc } = fakeIpc();
    const bridge = buildBridge(METHOD_NAMES, ipc);
    await bridge.search({ query: 'keys' });
    await bridge.status();
    expect(ipc.invoked).toEqual([
      ['quire:search', { query: 'keys' }],
      ['quire:status', {}],
    ]);
  });

  it('delivers events and unsubscribes', () => {
    const { ipc, emit, listeners } = fakeIpc();
    const bridge = buildBridge(METHOD_NAMES, ipc);
    const seen = vi.fn();
    const off = bridge.onEvent(seen);
    emit(EVENT_CHANNEL, { type: 'library.changed' });
    expect(seen).toHaveBeenCalledWith({ type: 'library.changed' });
    off();
    expect(listeners.get(EVENT_CHANNEL)?.size).toBe(0);
    emit(EVENT_CHANNEL, { type: 'library.changed' });
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it('tells the page a dropped file’s path, and null when it has none or webUtils refuses', () => {
    const paths: Record<string, string> = { notes: '/home/ana/notes', web: '' };
    const webUtils = {
      getPathForFile: (f: never) => {
        const name = (f as { name: string }).name;
        if (!(name in paths)) throw new TypeError('not a File');
        return paths[name]!;
      },
    };
    const bridge = buildBridge(METHOD_NAMES, fakeIpc().ipc, webUtils);
    expect(bridge.pathForFile({ name: 'notes' })).toBe('/home/ana/notes');
    expect(bridge.pathForFile({ name: 'web' })).toBeNull();
    expect(bridge.pathForFile({ name: 'other' })).toBeNull();
    expect(buildBridge(METHOD_NAMES, fakeIpc().ipc).pathForFile({ name: 'notes' })).toBeNull();
  });

  it('the preload entry passes the real contract list and nothing else to contextBridge', async () => {
    const exposeInMainWorld = vi.fn();
    const getPathForFile = vi.fn(() => '/home/ana/Work notes');
    vi.doMock('electron', () => ({ contextBridge: { exposeInMainWorld }, ipcRenderer: fakeIpc().ipc, webUtils: { getPathForFile } }));
    await import('./preload');
    expect(exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, bridge] = exposeInMainWorld.mock.calls[0]!;
    expect(name).toBe('quire');
    expect(Object.keys(bridge as object).sort()).toEqual([...METHOD_NAMES, 'onEvent', 'pathForFile'].sort());
    const dropped = { name: 'Work notes' };
    expect((bridge as QuireBridge).pathForFile(dropped)).toBe('/home/ana/Work notes');
    expect(getPathForFile).toHaveBeenCalledWith(dropped);
    vi.doUnmock('electron');
  });
});
