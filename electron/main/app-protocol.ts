/**
 * The app:// scheme: the only place the renderer's files come from. `app://quire/<path>` maps to a
 * file inside the built renderer directory through the same guard as browser mode's static server
 * (electron/core/static/static-file-guard.ts), so the two refuse exactly the same paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Protocol } from 'electron';
import { APP_ORIGIN, APP_SCHEME, parseAppUrl } from './app-origin';
import { CONTENT_SECURITY_POLICY, contentTypeFor, guardStaticPath } from '../core/static';

export { APP_HOST, APP_INDEX_URL, APP_ORIGIN, APP_SCHEME } from './app-origin';

const INDEX_FILE = 'index.html';

/**
 * The absolute file for an app:// request, or null when it must be refused. A missing file
 * resolves to its confined path and the handler answers 404; paths without an extension are the
 * renderer's own routes and get index.html.
 */
export function resolveAppRequest(rendererDir: string, requestUrl: string): string | null {
  // Chromium hands the handler canonical URLs, so the literal prefix is required: no port, no
  // credentials, no upper case, no look-alike host. The raw path is checked, not the parser's
  // (WHATWG parsing would silently turn %2e%2e into a dot-segment and drop it).
  if (requestUrl !== APP_ORIGIN && !requestUrl.startsWith(`${APP_ORIGIN}/`)) return null;
  if (!parseAppUrl(requestUrl)) return null;
  const rawPath = requestUrl.slice(APP_ORIGIN.length).split(/[?#]/, 1)[0] ?? '';
  const guarded = guardStaticPath(rendererDir, rawPath);
  if (!guarded.ok) return null;
  if (path.posix.extname(guarded.rel) !== '') return guarded.file;
  const index = guardStaticPath(rendererDir, `/${INDEX_FILE}`);
  return index.ok ? index.file : null;
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
