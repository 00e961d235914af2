import { DEFAULT_OLLAMA_HOST } from '../../../shared/settings';
/**
 * Where Ollama lives, read the way Ollama itself reads OLLAMA_HOST: a bare host, host:port,
 * :port, or a full URL; scheme defaults to http and port to 11434. 0.0.0.0 is a listen
 * address, not somewhere to connect, so it means this machine.
 */

export { DEFAULT_OLLAMA_HOST };

export function resolveOllamaHost(value: string | undefined = process.env.OLLAMA_HOST): string {
  const raw = (value ?? '').trim();
  if (raw === '') return DEFAULT_OLLAMA_HOST;
  let withScheme = raw.includes('://') ? raw : `http://${raw.startsWith(':') ? `127.0.0.1${raw}` : raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new Error(`OLLAMA_HOST is not a valid address: "${raw}".`);
  }
  if (url.hostname === '0.0.0.0' || url.hostname === '') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  const explicitScheme = raw.includes('://');
  const port = url.port !== '' ? url.port : explicitScheme ? (url.protocol === 'https:' ? '443' : '80') : '11434';
  withScheme = `${url.protocol}//${url.hostname}:${port}${url.pathname.replace(/\/+$/, '')}`;
  return withScheme;
}
