/**
 * The renderer's one origin. The scheme is registered as standard and secure, so Chromium treats
 * app://quire like an https origin ('self' in the CSP, fetch, relative URLs).
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'quire';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * Parses a URL and says whether it is on the app origin: scheme app, host quire, no port and no
 * credentials. Compares parsed parts, never string prefixes (app://quire.evil would pass those).
 * Node gives non-special schemes an opaque origin ("null"), so `url.origin` is not used.
 */
export function isAppUrl(raw: string): boolean {
  return parseAppUrl(raw) !== null;
}

export function parseAppUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST) return null;
  if (url.port !== '' || url.username !== '' || url.password !== '') return null;
  return url;
}
