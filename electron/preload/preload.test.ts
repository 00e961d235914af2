import { describe, expect, it, vi } from 'vitest';
import { API, METHOD_NAMES } from '../../shared/contract';
import { EVENT_CHANNEL } from '../core/ipc-channels';
import { buildBridge, type IpcRendererLike } from './expose';

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
    expect(Object.keys(bridge).sort()).toEqual([...Object.keys(API), 'onEvent'].sort());
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

  it('the preload entry passes the real contract list and nothing else to contextBridge', async () => {
    const exposeInMainWorld = vi.fn();
    vi.doMock('electron', () => ({ contextBridge: { exposeInMainWorld }, ipcRenderer: fakeIpc().ipc }));
    await import('./preload');
    expect(exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, bridge] = exposeInMainWorld.mock.calls[0]!;
    expect(name).toBe('quire');
    expect(Object.keys(bridge as object).sort()).toEqual([...METHOD_NAMES, 'onEvent'].sort());
    vi.doUnmock('electron');
  });
});
