import { QuireError } from '../../../shared/errors';
import { DEFAULT_OLLAMA_HOST } from '../../../shared/settings';
/**
 * Where Ollama lives, read the way Ollama itself reads OLLAMA_HOST: a bare host, host:port,
 * :port, or a full URL; scheme defaults to http and port to 11434. 0.0.0.0 is a listen
 * address, not somewhere to connect, so it means this machine.
 *
 * Whatever the source (the environment, Settings, a flag), only an http:// or https:// address
 * without credentials, query or fragment is taken: `file:///etc/passwd` once became
 * `file://127.0.0.1:80/etc/passwd`, and a password in the URL would be shown wherever the host is.
 */

export { DEFAULT_OLLAMA_HOST };

/** A scheme written out (`file:`, `javascript:`), told apart from `host:port`. */
const SCHEME = /^([a-z][a-z0-9+.-]*):(?!\d+(?:\/|$))/i;

/** The canonical address, or INVALID_ARGUMENT with a sentence that never repeats a password. */
export function resolveOllamaHost(value: string | undefined = process.env.OLLAMA_HOST): string {
  const raw = (value ?? '').trim();
  if (raw === '') return DEFAULT_OLLAMA_HOST;
  const scheme = SCHEME.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    throw new QuireError('INVALID_ARGUMENT', `Ollama's address must start with http:// or https://, not ${scheme}:.`);
  }
  const explicitScheme = scheme !== undefined;
  let url: URL;
  try {
    url = new URL(explicitScheme ? raw : `http://${raw.startsWith(':') ? `127.0.0.1${raw}` : raw}`);
  } catch {
    throw new QuireError('INVALID_ARGUMENT', `"${raw.slice(0, 200)}" is not a valid address for Ollama.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new QuireError('INVALID_ARGUMENT', "Ollama's address may not hold a user name or password.");
  }
  if (url.search !== '' || url.hash !== '') {
    throw new QuireError('INVALID_ARGUMENT', "Ollama's address may not carry a query (?…) or a fragment (#…).");
  }
  if (url.hostname === '0.0.0.0' || url.hostname === '') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  const port = url.port !== '' ? url.port : explicitScheme ? (url.protocol === 'https:' ? '443' : '80') : '11434';
  return `${url.protocol}//${url.hostname}:${port}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * This machine's own address (127.0.0.0/8, ::1, localhost): what is sent there stays here. Any
 * other host receives the questions and the passages sent with them, which the status says.
 */
export function isLoopbackHost(host: string): boolean {
  let name: string;
  try {
    name = new URL(host).hostname.toLowerCase();
  } catch {
    return false;
  }
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(name);
}
