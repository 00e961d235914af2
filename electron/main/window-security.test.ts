import { EventEmitter } from 'node:events';
import type { Session, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../core/static/renderer-serving';
import { hardenContents, hardenSession, isAllowedRequest, secureWebPreferences, withContentSecurityPolicy } from './window-security';

describe('secureWebPreferences', () => {
  it('is exactly the locked-down set, with the preload', () => {
    expect(secureWebPreferences('/app/dist/electron/preload.cjs')).toStrictEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      preload: '/app/dist/electron/preload.cjs',
    });
  });
});

/** A webContents stand-in: real events, and the window-open handler captured. */
function fakeContents() {
  const emitter = new EventEmitter();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  const contents = Object.assign(emitter, {
    setWindowOpenHandler: (h: (details: { url: string }) => { action: string }) => {
      openHandler = h;
    },
  });
  const fire = (name: string, url: string) => {
    const event = { url, preventDefault: vi.fn() };
    emitter.emit(name, event, url);
    return event.preventDefault.mock.calls.length > 0;
  };
  return {
    contents: contents as unknown as WebContents,
    fire,
    open: (url: string) => openHandler?.({ url }),
    hasOpenHandler: () => openHandler !== null,
  };
}

describe('hardenContents', () => {
  const foreign = [
    'https://example.com/',
    'http://127.0.0.1:11434/api/tags',
    'file:///etc/passwd',
    'app://evil/index.html',
    'app://quire.evil.com/index.html',
    'app://quire:81/index.html',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'about:blank',
    'devtools://devtools/bundled/inspector.html',
    'not a url',
  ];

  it.each(['will-navigate', 'will-frame-navigate', 'will-redirect'])('%s: prevents anything off app://quire and lets app pages through', (name) => {
    const f = fakeContents();
    hardenContents(f.contents);
    for (const url of foreign) expect(f.fire(name, url), url).toBe(true);
    expect(f.fire(name, 'app://quire/index.html')).toBe(false);
    expect(f.fire(name, 'app://quire/library?x=1')).toBe(false);
  });

  it('denies every new window', () => {
    const f = fakeContents();
    hardenContents(f.contents);
    expect(f.hasOpenHandler()).toBe(true);
    for (const url of ['https://example.com/', 'app://quire/index.html', 'about:blank']) expect(f.open(url)).toEqual({ action: 'deny' });
  });

  it('hands web and mail links to the system browser, and still opens no window', () => {
    const f = fakeContents();
    const openExternal = vi.fn();
    hardenContents(f.contents, openExternal);
    for (const url of ['https://example.com/a', 'mailto:a@b.example', 'app://quire/index.html', 'file:///etc/passwd', 'javascript:alert(1)']) expect(f.open(url)).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://example.com/a'], ['mailto:a@b.example']]);
  });

  it('never attaches a webview', () => {
    const f = fakeContents();
    hardenContents(f.contents);
    const event = { preventDefault: vi.fn() };
    (f.contents as unknown as EventEmitter).emit('will-attach-webview', event, {}, { src: 'app://quire/index.html' });
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
  });

  it('is idempotent: hardening twice adds no second set of listeners', () => {
    const f = fakeContents();
    hardenContents(f.contents);
    hardenContents(f.contents);
    expect((f.contents as unknown as EventEmitter).listenerCount('will-navigate')).toBe(1);
  });
});

describe('request filter', () => {
  const cancelled = [
    'http://example.com/',
    'https://example.com/x.js',
    'http://127.0.0.1:11434/api/chat',
    'http://localhost:5173/',
    'file:///etc/passwd',
    'ws://127.0.0.1:9229/',
    'wss://example.com/socket',
    'ftp://example.com/',
    'app://evil/index.html',
    'app://quire.evil/index.html',
    'about:blank',
    'not a url',
  ];
  const allowed = [
    'app://quire/index.html',
    'app://quire/assets/app.js',
    'devtools://devtools/bundled/devtools_app.html',
    'chrome-extension://abcdefghijklmnop/panel.html',
    'data:image/png;base64,iVBORw0KGgo=',
  ];
  it.each(cancelled)('cancels %s', (url) => expect(isAllowedRequest(url)).toBe(false));
  it.each(allowed)('allows %s', (url) => expect(isAllowedRequest(url)).toBe(true));
});

/** A session stand-in capturing what hardenSession installs. */
function fakeSession() {
  const captured: {
    request?: (wc: unknown, permission: string, cb: (granted: boolean) => void, details: unknown) => void;
    check?: (wc: unknown, permission: string, origin: string, details: unknown) => boolean;
    before?: (details: { url: string }, cb: (r: { cancel?: boolean }) => void) => void;
    headers?: (details: { url: string; responseHeaders?: Record<string, string[]> }, cb: (r: { cancel?: boolean; responseHeaders?: Record<string, string[]> }) => void) => void;
    download?: (event: { preventDefault(): void }, item: { getURL(): string }) => void;
  } = {};
  const session = {
    on: (name: string, h: typeof captured.download) => {
      if (name === 'will-download') captured.download = h;
    },
    setPermissionRequestHandler: (h: typeof captured.request) => void (captured.request = h),
    setPermissionCheckHandler: (h: typeof captured.check) => void (captured.check = h),
    webRequest: {
      onBeforeRequest: (h: typeof captured.before) => void (captured.before = h),
      onHeadersReceived: (h: typeof captured.headers) => void (captured.headers = h),
    },
  };
  return { session: session as unknown as Session, captured };
}

describe('hardenSession', () => {
  it('denies every permission request and check', () => {
    const { session, captured } = fakeSession();
    hardenSession(session);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'unknown']) {
      const cb = vi.fn();
      captured.request!({}, permission, cb, {});
      expect(cb).toHaveBeenCalledExactlyOnceWith(false);
      expect(captured.check!({}, permission, 'app://quire', {})).toBe(false);
    }
  });

  it('cancels http(s), file and ws requests and lets app:// and devtools:// through', () => {
    const { session, captured } = fakeSession();
    hardenSession(session);
    const decide = (url: string) => {
      const cb = vi.fn();
      captured.before!({ url }, cb);
      expect(cb).toHaveBeenCalledTimes(1);
      return cb.mock.calls[0]![0] as { cancel?: boolean };
    };
    for (const url of ['https://example.com/', 'http://127.0.0.1:11434/api/tags', 'file:///etc/passwd', 'ws://localhost:8080/']) expect(decide(url)).toEqual({ cancel: true });
    for (const url of ['app://quire/index.html', 'devtools://devtools/bundled/inspector.html']) expect(decide(url)).toEqual({ cancel: false });
  });

  it('adds the CSP to responses, keeping a stricter existing one, and leaves DevTools alone', () => {
    const { session, captured } = fakeSession();
    hardenSession(session);
    const cb = vi.fn();
    captured.headers!({ url: 'https://example.com/', responseHeaders: { 'content-type': ['text/html'] } }, cb);
    expect(cb.mock.calls[0]![0]).toEqual({ responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    const cb2 = vi.fn();
    captured.headers!({ url: 'devtools://devtools/x.html', responseHeaders: {} }, cb2);
    expect(cb2.mock.calls[0]![0]).toEqual({ cancel: false });
    expect(withContentSecurityPolicy({ 'content-security-policy': ["default-src 'none'"] })).toEqual({
      'content-security-policy': ["default-src 'none'", CONTENT_SECURITY_POLICY],
    });
  });
});

describe('downloads', () => {
  it("lets only the app's own exports download; anything else is cancelled", () => {
    const { session, captured } = fakeSession();
    hardenSession(session);
    const download = (url: string) => {
      const event = { preventDefault: vi.fn() };
      captured.download!(event, { getURL: () => url });
      return event.preventDefault.mock.calls.length === 0;
    };
    expect(download('blob:app://quire/5b1f7c1e-2f7b-4d36-9a57-1d2b9b0e8c11')).toBe(true);
    for (const url of ['https://example.com/report.csv', 'blob:https://example.com/5b1f', 'blob:app://quire.evil/5b1f', 'data:text/csv,a,b', 'file:///etc/passwd']) {
      expect(download(url)).toBe(false);
    }
  });
});

describe('CSP', () => {
  it('is the strict policy with no remote origin', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    );
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:|ws:|\*|unsafe-eval/);
  });
});
