/**
 * The renderer's locks: web preferences for the one window, what its webContents may do
 * (navigate only within app://quire, never open windows or attach webviews), and what its session
 * allows (no permissions, no network: requests other than app:// and DevTools' own are cancelled;
 * Ollama is reached only from main, through the core, with Node's own HTTP client).
 */
import type { Session, WebContents, WebPreferences } from 'electron';
import { isAppUrl } from './app-origin';
import { CONTENT_SECURITY_POLICY } from '../core/static';

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
    preload: preloadPath,
  };
}

type HardenableContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

const hardened = new WeakSet<object>();

/** Addresses a link in an answer or a passage may open in the system browser: web and mail only. */
export function isExternalLink(rawUrl: string): boolean {
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(rawUrl).protocol);
  } catch {
    return false;
  }
}

/**
 * Navigation (top frame, subframes, redirects) only within the app origin; every window.open and
 * target=_blank denied (a web or mail link is handed to `openExternal`, the system browser, instead
 * of a window of ours); <webview> never attached. Idempotent per webContents.
 */
export function hardenContents(contents: HardenableContents, openExternal?: (url: string) => void): void {
  if (hardened.has(contents)) return;
  hardened.add(contents);
  const onlyApp = (event: { url: string; preventDefault(): void }) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  };
  contents.on('will-navigate', onlyApp);
  contents.on('will-frame-navigate', onlyApp);
  contents.on('will-redirect', onlyApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (openExternal && isExternalLink(url)) openExternal(url);
    return { action: 'deny' };
  });
}

/**
 * Schemes a request may use. app: is the renderer; devtools: and chrome-extension: are DevTools'
 * own pages (dev builds only have a DevTools menu item). data: and blob: are in-memory and never
 * reach a network; the CSP already limits where they may be used.
 */
export const ALLOWED_REQUEST_PROTOCOLS: ReadonlySet<string> = new Set(['app:', 'devtools:', 'chrome-extension:', 'data:', 'blob:']);

export function isAllowedRequest(rawUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  if (url.protocol === 'app:') return isAppUrl(rawUrl);
  return ALLOWED_REQUEST_PROTOCOLS.has(url.protocol);
}

const DEVTOOLS_PROTOCOLS = new Set(['devtools:', 'chrome-extension:']);

/** The response headers with the app's CSP added (a page's own CSP, if any, still applies too). */
export function withContentSecurityPolicy(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = { ...(headers ?? {}) };
  const existing = Object.keys(out).find((k) => k.toLowerCase() === 'content-security-policy');
  if (existing) out[existing] = [...(out[existing] ?? []), CONTENT_SECURITY_POLICY];
  else out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return out;
}

type HardenableSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'> & {
  webRequest: Pick<Session['webRequest'], 'onBeforeRequest' | 'onHeadersReceived'>;
  on(event: 'will-download', listener: (event: { preventDefault(): void }, item: { getURL(): string }) => void): unknown;
};

/**
 * The only downloads are the app's own exports (an evaluation report as JSON or CSV), made in the
 * page as blob: URLs of the app origin; Electron then asks where to save them.
 */
export function isAppExport(rawUrl: string): boolean {
  return rawUrl.startsWith('blob:') && isAppUrl(rawUrl.slice('blob:'.length));
}

/**
 * No permission is ever granted; no request leaves except to app:// and DevTools; CSP on
 * responses; nothing is downloaded but the app's own exports.
 */
export function hardenSession(session: HardenableSession): void {
  session.on('will-download', (event, item) => {
    if (!isAppExport(item.getURL())) event.preventDefault();
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onBeforeRequest((details, callback) => {
    callback(isAllowedRequest(details.url) ? { cancel: false } : { cancel: true });
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    let protocol = '';
    try {
      protocol = new URL(details.url).protocol;
    } catch {
      // An unparsable URL gets the CSP like anything else.
    }
    if (DEVTOOLS_PROTOCOLS.has(protocol)) {
      callback({ cancel: false });
      return;
    }
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
}
