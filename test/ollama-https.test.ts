import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toErrorShape } from '../shared/errors';
import { streamChat } from '../electron/core/ollama/chat';
import { isRetryable } from '../electron/core/ollama/errors';
import { OllamaGateway } from '../electron/core/ollama/gateway';
import { QuireError } from '../shared/errors';
import { ollamaState } from '../electron/core/ollama/state';
import { ollamaNotRunning } from '../shared/ollama-state';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { createEngine } from '../electron/core/engine';
import { tempDbPath } from './support/notes';

/**
 * A team's shared Ollama behind an HTTPS proxy. The stand-in serves TLS with a self-signed
 * certificate for localhost and 127.0.0.1 (test/support/tls, valid until 2126; its key is a test
 * fixture and guards nothing).
 */
const TLS_DIR = path.join(import.meta.dirname, 'support/tls');
const CERT = path.join(TLS_DIR, 'localhost.crt');
const tls = { key: fs.readFileSync(path.join(TLS_DIR, 'localhost.key')), cert: fs.readFileSync(CERT) };

/** Quire's gateway in a Node of its own, started with `env` (NODE_EXTRA_CA_CERTS is read only at startup). */
function probe(url: string, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(TLS_DIR, 'gateway-probe.ts'), url], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      try {
        resolve(JSON.parse(out.trim()) as Record<string, unknown>);
      } catch {
        reject(new Error(`the probe printed ${JSON.stringify(out)}; stderr: ${err.slice(0, 500)}`));
      }
    });
  });
}

async function failure(run: () => Promise<unknown>): Promise<QuireError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof QuireError) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('Ollama over HTTPS', () => {
  let secure: Standin;
  let plain: Standin;
  beforeAll(async () => {
    secure = await startStandin({ tls });
    plain = await startStandin();
  });
  afterAll(async () => {
    await secure.close();
    await plain.close();
  });

  it('works end to end when this computer trusts the certificate (NODE_EXTRA_CA_CERTS)', async () => {
    expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const r = await probe(secure.url, { NODE_EXTRA_CA_CERTS: CERT });
    expect(r).toMatchObject({ version: '0.12.6', dimensions: 768, doneReason: expect.any(String) });
    // The reply streamed over TLS in pieces, not as one buffered body.
    expect(r.deltas).toBeGreaterThan(1);
    expect(secure.calls.count('/api/embed')).toBe(1);
    expect(secure.calls.count('/api/chat')).toBe(1);
  });

  it('says the certificate is not trusted, and how to trust it, instead of "start ollama serve"; never retried', async () => {
    const gateway = new OllamaGateway({ host: secure.url, backoffMs: 10 });
    const e = await failure(() => gateway.embed('embeddinggemma', ['x']));
    expect(e.code).toBe('OLLAMA_ERROR');
    expect(e.message).toContain(`The server at ${secure.url} presented a certificate this computer does not trust (self-signed certificate)`);
    expect(e.message).toContain('NODE_EXTRA_CA_CERTS');
    expect(e.message).not.toContain('ollama serve');
    expect(isRetryable(e)).toBe(false);
    // The handshake failed, so no request reached the server.
    expect(secure.calls.count('/api/embed')).toBe(1);
    // A streamed chat fails the same way, before any token, and is not tried again.
    const chat = await failure(async () => {
      for await (const _ of streamChat(gateway, 'llama3.2', [{ role: 'user', content: 'hi' }], { numCtx: 2048, temperature: 0, seed: 1, numPredict: 8 })) void _;
    });
    expect(chat.message).toContain('does not trust');
    expect(secure.calls.count('/api/chat')).toBe(1);
    // The same sentence crosses the process boundary (a spawned gateway without the CA).
    const r = await probe(secure.url, { NODE_EXTRA_CA_CERTS: '' });
    expect(r).toMatchObject({ code: 'OLLAMA_ERROR', message: expect.stringContaining('does not trust') });
  });

  it('says when the certificate is trusted but for another name (here ::1, which it does not list)', async () => {
    const v6 = await startStandin({ tls, host: '::1' });
    try {
      const r = await probe(v6.url, { NODE_EXTRA_CA_CERTS: CERT });
      expect(r).toEqual({
        code: 'OLLAMA_ERROR',
        message: expect.stringMatching(new RegExp(`^The server at ${v6.url.replace(/[[\]]/g, '\\$&')} presented a certificate for another name \\(.*::1.*\\)\\. Use the name the certificate is for in the Ollama host\\.$`)),
      });
      expect(v6.calls.count('/api/version')).toBe(0);
    } finally {
      await v6.close();
    }
  });

  it('says when the certificate is out of date (trusted, for this name, expired in 2021)', async () => {
    // expired.crt: the same key, valid 2020-01-01 to 2021-01-01 (made with `openssl ca -selfsign -startdate -enddate`).
    const EXPIRED = path.join(TLS_DIR, 'expired.crt');
    const old = await startStandin({ tls: { key: tls.key, cert: fs.readFileSync(EXPIRED) } });
    try {
      const r = await probe(old.url, { NODE_EXTRA_CA_CERTS: EXPIRED });
      expect(r).toEqual({ code: 'OLLAMA_ERROR', message: `The certificate of the server at ${old.url} is out of date: ask whoever runs it to renew it, or check this computer's date and time.` });
      expect(old.calls.count('/api/version')).toBe(0);
    } finally {
      await old.close();
    }
  });

  it('says when an https:// address reaches a server that speaks plain HTTP', async () => {
    const url = plain.url.replace('http://', 'https://');
    const e = await failure(() => new OllamaGateway({ host: url, backoffMs: 10 }).version());
    expect(toErrorShape(e)).toEqual({ code: 'OLLAMA_ERROR', message: `The server at ${url} does not answer HTTPS. If it serves plain HTTP, use http:// in the Ollama host.` });
  });

  it("status (the status bar's check and `quire status`) names the certificate, not \"start ollama serve\"", async () => {
    const state = await ollamaState(new OllamaGateway({ host: secure.url, backoffMs: 10 }));
    expect(state).toMatchObject({ connected: false, errorCode: 'OLLAMA_ERROR', error: expect.stringContaining('does not trust') });
    expect(ollamaNotRunning(state)).toBe(false);
    const db = tempDbPath('quire-https-status-');
    try {
      const out = await runCli(['status'], { OLLAMA_HOST: secure.url, QUIRE_DB: db.file });
      expect(out.code).toBe(0);
      const line = out.stdout.split('\n').find((l) => l.startsWith('Ollama:'));
      expect(line).toContain('presented a certificate this computer does not trust');
      expect(line).not.toContain('ollama serve');
      expect(line).not.toContain('not running');
    } finally {
      db.dispose();
    }
  });

  it("Settings' model list names the certificate too: its error keeps the gateway's code, not OLLAMA_UNREACHABLE", async () => {
    const db = tempDbPath('quire-https-models-');
    const engine = createEngine({ dbPath: db.file, env: { OLLAMA_HOST: secure.url } });
    try {
      const e = await engine.call('listModels', {}).then(
        () => null,
        (err: unknown) => toErrorShape(err),
      );
      // OLLAMA_UNREACHABLE is what the interface words as "Start it with `ollama serve`".
      expect(e).toEqual({ code: 'OLLAMA_ERROR', message: expect.stringContaining(`Could not list models at ${secure.url}: The server at ${secure.url} presented a certificate this computer does not trust`) });
    } finally {
      await engine.close();
      db.dispose();
    }
  });

  it('status still says "not running" when nothing answers at the address', async () => {
    const down = await startStandin();
    await down.stop();
    try {
      const state = await ollamaState(new OllamaGateway({ host: down.url, backoffMs: 10 }));
      expect(state).toMatchObject({ connected: false, errorCode: 'OLLAMA_UNREACHABLE' });
      expect(ollamaNotRunning(state)).toBe(true);
    } finally {
      await down.close();
    }
  });
});
