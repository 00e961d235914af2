/**
 * Why Electron's runtime could not be fetched, told in one sentence with the way to the desktop
 * window. The errors come from got (network, HTTP), sumchecker (checksums), the file system and
 * electron-fetch.ts; each is recognised by its code, name or class, never by a guess.
 */
import { UnsupportedPlatformError } from './electron-fetch';

export type FetchFailureKind = 'no-network' | 'refused' | 'checksum' | 'unsupported-platform' | 'no-space' | 'other';
export type FetchFailure = { kind: FetchFailureKind; detail: string };

const NETWORK_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'EPIPE', 'ECONNABORTED']);
const CHECKSUM_ERRORS = new Set(['ChecksumMismatchError', 'NoChecksumFoundError', 'ChecksumParseError']);

type ErrorLike = {
  name?: string;
  code?: string;
  message?: string;
  path?: string;
  cause?: unknown;
  options?: { url?: URL | string };
  response?: { statusCode?: number; statusMessage?: string; url?: string };
};

function hostOf(url: URL | string | undefined): string | null {
  if (url === undefined) return null;
  try {
    return new URL(String(url)).host;
  } catch {
    return null;
  }
}

export function classifyFetchFailure(error: unknown): FetchFailure {
  if (error instanceof UnsupportedPlatformError) return { kind: 'unsupported-platform', detail: error.message };
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ErrorLike;
  const host = hostOf(e.response?.url ?? e.options?.url);
  if (e.name === 'HTTPError' && typeof e.response?.statusCode === 'number') {
    const status = `HTTP ${e.response.statusCode}${e.response.statusMessage ? ` ${e.response.statusMessage}` : ''}`;
    return { kind: 'refused', detail: host ? `${host} answered ${status}` : `the server answered ${status}` };
  }
  const constructorName = (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? '';
  if (CHECKSUM_ERRORS.has(constructorName) || CHECKSUM_ERRORS.has(e.name ?? '')) {
    return { kind: 'checksum', detail: 'the download does not match the SHA-256 Electron published for it, so it was thrown away' };
  }
  if (e.code === 'ENOSPC') return { kind: 'no-space', detail: `no space left on the disk${e.path ? ` (writing ${e.path})` : ''}` };
  if (e.code !== undefined && NETWORK_CODES.has(e.code)) return { kind: 'no-network', detail: networkDetail(e.code, host) };
  if (e.cause !== undefined && e.cause !== error) {
    const inner = classifyFetchFailure(e.cause);
    if (inner.kind !== 'other') return inner;
  }
  return { kind: 'other', detail: (e.message ?? String(error)).split('\n')[0]! };
}

function networkDetail(code: string, host: string | null): string {
  const where = host ?? 'the download server';
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${where} did not resolve (DNS)`;
    case 'ECONNREFUSED':
      return `${where} refused the connection`;
    case 'ETIMEDOUT':
      return `the connection to ${where} timed out`;
    default:
      return `the connection to ${where} failed (${code})`;
  }
}

const KIND_WORDS: Record<FetchFailureKind, string> = {
  'no-network': 'no network',
  refused: 'refused by the server',
  checksum: 'checksum mismatch',
  'unsupported-platform': 'unsupported platform',
  'no-space': 'no space',
  other: 'unexpected error',
};

const WINDOW_HINT = 'for the desktop window, set ELECTRON_MIRROR to a mirror you can reach, or build the packaged app with `npm run dist`';

/** The one sentence `npm start` prints before it opens browser mode: why, then what would give the window. */
export function browserModeSentence(reason: string, hint?: string): string {
  return `Quire: ${reason}, so Quire opens in your browser instead (browser mode)${hint ? `; ${hint}` : ''}.`;
}

export function fetchFailureSentence(version: string, failure: FetchFailure): string {
  const hint =
    failure.kind === 'unsupported-platform'
      ? undefined
      : failure.kind === 'no-space'
        ? 'for the desktop window, free some space and run `npm start` again'
        : WINDOW_HINT;
  return browserModeSentence(`Electron ${version}'s runtime could not be downloaded (${KIND_WORDS[failure.kind]}: ${failure.detail})`, hint);
}
