/**
 * The app:// scheme: the only place the renderer's files come from. `app://quire/<path>` maps to a
 * file inside the built renderer directory, with the same care as browser mode's static server:
 * decoded once; NUL, control characters, backslash, colon, dot-segments and hidden files refused;
 * the resolved path confined to the directory and, when the file exists, its real path (symlinks
 * followed) confined as well.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Protocol } from 'electron';
import { APP_ORIGIN, APP_SCHEME, parseAppUrl } from './app-origin';
import { CONTENT_SECURITY_POLICY, contentTypeFor } from '../../shared/renderer-serving';

export { APP_HOST, APP_INDEX_URL, APP_ORIGIN, APP_SCHEME } from './app-origin';

const INDEX_FILE = 'index.html';

/** True when `full` is `root` itself or lies inside it (never a sibling such as `root-evil`). */
export function isInside(root: string, full: string): boolean {
  return full === root || full.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * The absolute file for an app:// request, or null when it must be refused. Pure apart from the
 * realpath check, which runs only when the file exists (a missing file resolves to its path and
 * the handler answers 404).
 */
export function resolveAppRequest(rendererDir: string, requestUrl: string): string | null {
  // Chromium hands the handler canonical URLs, so the literal prefix is required: no port, no
  // credentials, no upper case, no look-alike host. The raw path is checked, not the parser's
  // (WHATWG parsing would silently turn %2e%2e into a dot-segment and drop it).
  if (requestUrl !== APP_ORIGIN && !requestUrl.startsWith(`${APP_ORIGIN}/`)) return null;
  if (!parseAppUrl(requestUrl)) return null;
  const rawPath = requestUrl.slice(APP_ORIGIN.length).split(/[?#]/, 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  // NUL and other control characters, Windows separators, drive letters and NTFS streams (`:`).
  if (/[\u0000-\u001f\u007f\\:]/.test(decoded)) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  // `.`/`..` (also arriving as %2e or inside one %2f-joined segment) and hidden files are refused.
  if (segments.some((s) => s.startsWith('.'))) return null;
  let rel = path.posix.normalize(segments.join('/'));
  if (rel === '.' || rel === '' || path.posix.extname(rel) === '') rel = INDEX_FILE;

  const root = path.resolve(rendererDir);
  const full = resolveInside(root, rel);
  if (!full) return null;
  return realPathStaysInside(root, full) ? full : null;
}

/** root joined with a /-separated relative path, or null when the result would leave root. */
export function resolveInside(rendererDir: string, rel: string): string | null {
  const root = path.resolve(rendererDir);
  const full = path.resolve(root, `.${path.sep}${rel.split('/').join(path.sep)}`);
  return isInside(root, full) ? full : null;
}

/** A file that exists must, after following symlinks, still lie inside the real root. */
function realPathStaysInside(root: string, full: string): boolean {
  let realFile: string;
  try {
    realFile = fs.realpathSync(full);
  } catch {
    return !fs.existsSync(full) && !isDanglingLink(full);
  }
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return false;
  }
  return isInside(realRoot, realFile);
}

function isDanglingLink(full: string): boolean {
  try {
    return fs.lstatSync(full).isSymbolicLink();
  } catch {
    return false;
  }
}

function baseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}

function textResponse(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...baseHeaders('text/plain; charset=utf-8'), ...extra } });
}

/** Answers one app:// request: the file's bytes with its content type and the CSP, else 404. */
export async function serveAppRequest(rendererDir: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return textResponse(405, 'Method not allowed.\n', { Allow: 'GET, HEAD' });
  const file = resolveAppRequest(rendererDir, request.url);
  if (!file) return textResponse(404, 'Not found.\n');
  let bytes: Uint8Array;
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) return textResponse(404, 'Not found.\n');
    bytes = new Uint8Array(await fs.promises.readFile(file));
  } catch {
    return textResponse(404, 'Not found.\n');
  }
  return new Response(request.method === 'HEAD' ? null : bytes, { status: 200, headers: baseHeaders(contentTypeFor(file)) });
}

/** Serves the renderer on app:// in the default session. Call after app ready. */
export function registerAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  const root = path.resolve(rendererDir);
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(root, request));
}

/** The privileged-scheme registration; Electron requires it before the app's ready event. */
export const APP_SCHEME_PRIVILEGES = [{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }] as const;

export function registerSchemesAsPrivileged(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged(APP_SCHEME_PRIVILEGES.map((s) => ({ scheme: s.scheme, privileges: { ...s.privileges } })));
}
