/**
 * The entry's wiring, run against a fake `electron` module (the real runtime cannot start here):
 * what happens before ready, the single-instance lock, the window, IPC end to end on a real
 * database in a temporary userData, startup failure, and shutdown order.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../core/engine';

interface Fake {
  calls: string[];
  app: EventEmitter & Record<string, unknown>;
  windows: FakeWindow[];
  ipcHandlers: Map<string, (event: unknown, input: unknown) => Promise<unknown>>;
  protocolHandlers: Map<string, (request: Request) => Promise<Response>>;
  errorBoxes: Array<[string, string]>;
  messageBoxes: Array<{ title?: string; detail?: string; buttons?: string[] }>;
  sessionHandlers: Record<string, unknown>;
  menuTemplate: unknown[] | null;
  electron: Record<string, unknown>;
}

interface FakeWindow extends EventEmitter {
  options: { webPreferences: Record<string, unknown> };
  loaded: string[];
  webContents: EventEmitter & { mainFrame: { url: string }; sent: unknown[][]; send(...a: unknown[]): void; isDestroyed(): boolean; setWindowOpenHandler(h: unknown): void; openHandler: unknown };
  destroyed: boolean;
}

const h = vi.hoisted(() => ({ fake: null as Fake | null, lock: true, userData: '', messageBoxAnswer: 1, isPackaged: false, storageBackend: 'gnome_libsecret' }));

const ELECTRON_EXPORTS = ['app', 'BrowserWindow', 'protocol', 'session', 'ipcMain', 'Menu', 'dialog', 'shell', 'safeStorage'] as const;

// The factory runs once per file; every export reads the current test's fake when used.
vi.mock('electron', () => {
  const mod: Record<string, unknown> = {};
  for (const name of ELECTRON_EXPORTS) Object.defineProperty(mod, name, { enumerable: true, get: () => h.fake!.electron[name] });
  return mod;
});

/** A fresh fake electron module for one boot of main. */
function fakeElectron(f: Fake): Record<(typeof ELECTRON_EXPORTS)[number], unknown> {
  const app = f.app;
  const protocol = {
    registerSchemesAsPrivileged: (s: unknown) => f.calls.push(`registerSchemesAsPrivileged ${JSON.stringify(s)}`),
    handle: (scheme: string, handler: (r: Request) => Promise<Response>) => {
      f.calls.push(`protocol.handle ${scheme}`);
      f.protocolHandlers.set(scheme, handler);
    },
  };
  class BrowserWindow extends EventEmitter {
    options: FakeWindow['options'];
    loaded: string[] = [];
    destroyed = false;
    webContents: FakeWindow['webContents'];
    constructor(options: FakeWindow['options']) {
      super();
      this.options = options;
      const wc = Object.assign(new EventEmitter(), {
        mainFrame: { url: 'app://quire/index.html' },
        sent: [] as unknown[][],
        send: (...a: unknown[]) => void wc.sent.push(a),
        isDestroyed: () => this.destroyed,
        openHandler: null as unknown,
        setWindowOpenHandler: (handler: unknown) => void (wc.openHandler = handler),
      });
      this.webContents = wc;
      app.emit('web-contents-created', {}, wc);
      f.windows.push(this as unknown as FakeWindow);
      f.calls.push('new BrowserWindow');
    }
    isDestroyed() {
      return this.destroyed;
    }
    loadURL(url: string) {
      this.loaded.push(url);
      f.calls.push(`loadURL ${url}`);
      return Promise.resolve();
    }
    isMinimized() {
      return false;
    }
    restore() {}
    show() {}
    focus() {
      f.calls.push('focus');
    }
  }
  const session = {
    defaultSession: {
      on: (name: string, x: unknown) => void (f.sessionHandlers[`on:${name}`] = x),
      setPermissionRequestHandler: (x: unknown) => void (f.sessionHandlers.request = x),
      setPermissionCheckHandler: (x: unknown) => void (f.sessionHandlers.check = x),
      webRequest: {
        onBeforeRequest: (x: unknown) => void (f.sessionHandlers.before = x),
        onHeadersReceived: (x: unknown) => void (f.sessionHandlers.headers = x),
      },
    },
  };
  const ipcMain = {
    handle: (channel: string, l: (e: unknown, i: unknown) => Promise<unknown>) => void f.ipcHandlers.set(channel, l),
    removeHandler: (channel: string) => void f.ipcHandlers.delete(channel),
  };
  const Menu = {
    buildFromTemplate: (t: unknown[]) => {
      f.menuTemplate = t;
      return { t };
    },
    setApplicationMenu: () => f.calls.push('setApplicationMenu'),
  };
  const dialog = {
    showErrorBox: (title: string, content: string) => void f.errorBoxes.push([title, content]),
    showMessageBoxSync: (options: { title?: string; detail?: string; buttons?: string[] }) => {
      f.messageBoxes.push(options);
      return h.messageBoxAnswer;
    },
    showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  };
  const shell = { openPath: async () => '' };
  // "Encrypts" by marking and reversing the bytes, so a test can tell a sealed value from the value.
  const safeStorage = {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => h.storageBackend,
    encryptString: (plain: string) => {
      f.calls.push('safeStorage.encryptString');
      return Buffer.concat([Buffer.from('v11'), Buffer.from(plain).reverse()]);
    },
    decryptString: (sealed: Buffer) => Buffer.from(sealed.subarray(3)).reverse().toString(),
  };
  return { app, BrowserWindow, protocol, session, ipcMain, Menu, dialog, shell, safeStorage };
}

function makeFake(): Fake {
  const calls: string[] = [];
  const app = Object.assign(new EventEmitter(), {
    isPackaged: h.isPackaged,
    name: 'Quire',
    getAppPath: () => path.resolve(__dirname, '..', '..'),
    getVersion: () => '0.1.0',
    getPath: (name: string) => {
      if (name !== 'userData') throw new Error(`unexpected getPath(${name})`);
      return h.userData;
    },
    enableSandbox: () => calls.push('enableSandbox'),
    requestSingleInstanceLock: () => {
      calls.push('requestSingleInstanceLock');
      return h.lock;
    },
    quit: () => calls.push('quit'),
    exit: (code: number) => calls.push(`exit ${code}`),
    whenReady: () => {
      calls.push('whenReady');
      return new Promise<void>((resolve) => setTimeout(resolve, 0));
    },
  }) as unknown as EventEmitter & Record<string, unknown>;
  const f: Fake = { calls, app, windows: [], ipcHandlers: new Map(), protocolHandlers: new Map(), errorBoxes: [], messageBoxes: [], sessionHandlers: {}, menuTemplate: null, electron: {} };
  f.electron = fakeElectron(f);
  return f;
}

async function boot(): Promise<Fake> {
  h.fake = makeFake();
  vi.resetModules();
  await import('./main');
  await new Promise((r) => setTimeout(r, 20));
  return h.fake;
}

beforeEach(() => {
  h.userData = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-main-'));
  h.lock = true;
  h.messageBoxAnswer = 1;
  h.isPackaged = false;
  h.storageBackend = 'gnome_libsecret';
  delete process.env.QUIRE_BETTER_SQLITE3_BINDING;
  delete process.env.NODE_BINDINGS_COMPILED_DIR;
});

afterEach(() => {
  h.fake?.app.emit('before-quit', { preventDefault: () => {} });
  fs.rmSync(h.userData, { recursive: true, force: true });
});

describe('main', () => {
  it('makes app:// privileged and enables the sandbox before ready, then takes the lock', async () => {
    const f = await boot();
    const ready = f.calls.indexOf('whenReady');
    expect(f.calls.findIndex((c) => c.startsWith('registerSchemesAsPrivileged'))).toBeLessThan(ready);
    expect(f.calls.indexOf('enableSandbox')).toBeLessThan(ready);
    expect(f.calls.indexOf('requestSingleInstanceLock')).toBeLessThan(ready);
    expect(f.calls).toContain('registerSchemesAsPrivileged [{"scheme":"app","privileges":{"standard":true,"secure":true,"supportFetchAPI":true}}]');
  });

  it('quits without a window when another instance holds the lock', async () => {
    h.lock = false;
    const f = await boot();
    expect(f.calls).toContain('quit');
    expect(f.calls).not.toContain('whenReady');
    expect(f.windows).toHaveLength(0);
  });

  it('opens one locked-down window on app://quire/index.html, with the preload next to main', async () => {
    const f = await boot();
    expect(f.windows).toHaveLength(1);
    const win = f.windows[0]!;
    expect(win.loaded).toEqual(['app://quire/index.html']);
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(path.basename(String(win.options.webPreferences.preload))).toBe('preload.cjs');
    expect(win.webContents.openHandler).toBeTypeOf('function');
    expect(win.webContents.listenerCount('will-navigate')).toBe(1);
    expect(f.protocolHandlers.has('app')).toBe(true);
    expect(Object.keys(f.sessionHandlers).sort()).toEqual(['before', 'check', 'headers', 'on:will-download', 'request']);
    expect(f.calls).toContain('setApplicationMenu');
    expect(fs.existsSync(path.join(h.userData, 'quire.db'))).toBe(true);
  });

  it('answers IPC from its window through the real service and database, and forbids others', async () => {
    const f = await boot();
    const win = f.windows[0]!;
    const getSettings = f.ipcHandlers.get('quire:getSettings')!;
    const ok = (await getSettings({ senderFrame: win.webContents.mainFrame }, {})) as { ok: boolean; value: { k: number } };
    expect(ok.ok).toBe(true);
    expect(ok.value.k).toBeTypeOf('number');
    const forbidden = await getSettings({ senderFrame: { url: 'app://quire/index.html' } }, {});
    expect(forbidden).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    const chooseFolder = await f.ipcHandlers.get('quire:chooseFolder')!({ senderFrame: win.webContents.mainFrame }, {});
    expect(chooseFolder).toEqual({ ok: true, value: { supported: true, path: null } });
  });

  it('hands the engine safeStorage: a header saved through IPC is stored sealed, and Settings says so', async () => {
    const f = await boot();
    const from = { senderFrame: f.windows[0]!.webContents.mainFrame };
    const saved = (await f.ipcHandlers.get('quire:setSettings')!(from, { ollamaHeaders: { Authorization: 'Bearer s3cret' } })) as { ok: boolean; value: { ollamaHeaderStorage: unknown } };
    expect(saved).toMatchObject({ ok: true });
    expect(f.calls).toContain('safeStorage.encryptString');
    if (process.platform === 'linux') expect(saved.value.ollamaHeaderStorage).toEqual({ sealed: true, detail: 'Saved values are encrypted with the system keyring (gnome_libsecret).' });
    else expect(saved.value.ollamaHeaderStorage).toMatchObject({ sealed: true });
    const db = openDatabase(path.join(h.userData, 'quire.db'));
    const row = db.prepare("SELECT value FROM settings WHERE key = 'ollama_headers'").pluck().get() as string;
    db.close();
    expect(row).not.toContain('s3cret');
    expect(Buffer.from((JSON.parse(row) as { Authorization: { sealed: string } }).Authorization.sealed, 'base64').toString()).toBe(`v11${[...'Bearer s3cret'].reverse().join('')}`);
  });

  it.runIf(process.platform === 'linux')('with only Linux basic_text, nothing is sealed and Settings says values are stored unencrypted', async () => {
    h.storageBackend = 'basic_text';
    const f = await boot();
    const from = { senderFrame: f.windows[0]!.webContents.mainFrame };
    const saved = (await f.ipcHandlers.get('quire:setSettings')!(from, { ollamaHeaders: { Authorization: 'Bearer s3cret' } })) as { value: { ollamaHeaderStorage: { sealed: boolean; detail: string } } };
    expect(saved.value.ollamaHeaderStorage.sealed).toBe(false);
    expect(saved.value.ollamaHeaderStorage.detail).toMatch(/stored unencrypted .*no system keyring was found/);
    expect(f.calls).not.toContain('safeStorage.encryptString');
  });

  it('on before-quit removes IPC, holds the quit until the database is closed, then quits', async () => {
    const f = await boot();
    expect(f.ipcHandlers.size).toBeGreaterThan(0);
    const preventDefault = vi.fn();
    f.app.emit('before-quit', { preventDefault });
    expect(preventDefault).toHaveBeenCalledOnce();
    expect(f.ipcHandlers.size).toBe(0);
    // The database file is closed (its WAL is checkpointed away on close), and only then does it quit.
    await vi.waitFor(() => expect(f.calls.includes('quit')).toBe(true));
    expect(fs.existsSync(path.join(h.userData, 'quire.db-wal'))).toBe(false);
    // The second before-quit (from app.quit) goes through.
    const again = vi.fn();
    f.app.emit('before-quit', { preventDefault: again });
    expect(again).not.toHaveBeenCalled();
  });

  it('quits when all windows close (except on macOS)', async () => {
    const f = await boot();
    f.app.emit('window-all-closed');
    expect(f.calls.includes('quit')).toBe(process.platform !== 'darwin');
  });

  it('focuses the window on a second instance', async () => {
    const f = await boot();
    f.app.emit('second-instance', {}, [], '');
    expect(f.calls).toContain('focus');
  });

  it('shows a named error box and exits when the database cannot be opened, with no window', async () => {
    process.env.QUIRE_BETTER_SQLITE3_BINDING = path.join(h.userData, 'no-such', 'better_sqlite3.node');
    const f = await boot();
    expect(f.errorBoxes).toHaveLength(1);
    expect(f.errorBoxes[0]![0]).toContain('better-sqlite3');
    expect(f.errorBoxes[0]![1]).toContain(process.env.QUIRE_BETTER_SQLITE3_BINDING);
    expect(f.calls).toContain('exit 1');
    expect(f.windows).toHaveLength(0);
    expect(f.ipcHandlers.size).toBe(0);
  });

  it('a packaged app ignores the development switches that load code: it opens with its own build and clears them', async () => {
    h.isPackaged = true;
    // In development this exact setting fails to start (the test above); packaged, it is never read.
    process.env.QUIRE_BETTER_SQLITE3_BINDING = path.join(h.userData, 'no-such', 'better_sqlite3.node');
    process.env.NODE_BINDINGS_COMPILED_DIR = '../../../../tmp/evil';
    const f = await boot();
    expect(f.errorBoxes).toEqual([]);
    expect(f.windows).toHaveLength(1);
    expect(process.env.QUIRE_BETTER_SQLITE3_BINDING).toBeUndefined();
    expect(process.env.NODE_BINDINGS_COMPILED_DIR).toBeUndefined();
    const getSettings = f.ipcHandlers.get('quire:getSettings')!;
    expect(await getSettings({ senderFrame: f.windows[0]!.webContents.mainFrame }, {})).toMatchObject({ ok: true });
  });

  describe('a damaged database at startup', () => {
    const damage = () => {
      const file = path.join(h.userData, 'quire.db');
      fs.writeFileSync(file, Buffer.alloc(16_384, 0x5a));
      return { file, bytes: fs.readFileSync(file) };
    };

    it('offers to rebuild; Quit shows the named error and leaves the file as it was', async () => {
      const { file, bytes } = damage();
      h.messageBoxAnswer = 1;
      const f = await boot();
      expect(f.messageBoxes).toHaveLength(1);
      expect(f.messageBoxes[0]!.buttons).toEqual(['Rebuild the index from my folders', 'Quit']);
      expect(f.messageBoxes[0]!.detail).toContain(file);
      expect(f.errorBoxes[0]![0]).toContain('DB_CORRUPT');
      expect(f.calls).toContain('exit 1');
      expect(f.windows).toHaveLength(0);
      expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    });

    it('Rebuild sets the damaged file aside unchanged and starts on a fresh index', async () => {
      const { file, bytes } = damage();
      h.messageBoxAnswer = 0;
      const f = await boot();
      expect(f.errorBoxes).toEqual([]);
      expect(f.windows).toHaveLength(1);
      const aside = fs.readdirSync(h.userData).filter((n) => n.startsWith('quire.db.damaged-'));
      expect(aside).toHaveLength(1);
      expect(fs.readFileSync(path.join(h.userData, aside[0]!)).equals(bytes)).toBe(true);
      const win = f.windows[0]!;
      const status = (await f.ipcHandlers.get('quire:status')!({ senderFrame: win.webContents.mainFrame }, {})) as { ok: boolean; value: { documents: { total: number } } };
      expect(status).toMatchObject({ ok: true, value: { documents: { total: 0 } } });
      expect(fs.existsSync(file)).toBe(true);
    });
  });
});
