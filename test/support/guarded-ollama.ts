import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startAuthProxy, type AuthProxy } from './auth-proxy';
import { startStandin, type Standin } from './ollama-standin/server';

/**
 * A team's shared Ollama for a test file: the stand-in behind a proxy that wants
 * `Authorization: <secret>`, started once for the file, its passed/refused logs emptied before each
 * test. The proxy's fields are read through the returned object, which works from the first test on.
 */
export function useGuardedOllama(secret: string): Pick<AuthProxy, 'url' | 'passed' | 'refused'> {
  let ollama: Standin | undefined;
  let proxy: AuthProxy | undefined;
  beforeAll(async () => {
    ollama = await startStandin();
    proxy = await startAuthProxy({ target: ollama.url, header: 'Authorization', value: secret });
  });
  afterAll(async () => {
    await proxy?.close();
    await ollama?.close();
  });
  beforeEach(() => {
    proxy!.passed.length = 0;
    proxy!.refused.length = 0;
  });
  return {
    get url() {
      return proxy!.url;
    },
    get passed() {
      return proxy!.passed;
    },
    get refused() {
      return proxy!.refused;
    },
  };
}
