import dns from 'node:dns';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../electron/core/engine';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { NotesFolder, tempDbPath } from './support/notes';

/**
 * Offline proof: while Quire imports a folder, searches and answers, every socket it opens and
 * every name it looks up is recorded, and anything but a loopback address fails loudly. Only the
 * configured Ollama host may appear.
 */
interface Contact {
  kind: 'connect' | 'lookup';
  to: string;
}
const contacts: Contact[] = [];
const isLoopback = (host: string) => host === '127.0.0.1' || host === '::1' || host === 'localhost' || host.startsWith('127.');

const originalConnect = net.Socket.prototype.connect;
const originalLookup = dns.lookup;
const originalPromisesLookup = dns.promises.lookup;

function guard(): void {
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    // net.connect() hands the socket its arguments already normalised, as [options, callback].
    const raw = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    const first = raw as { host?: string; port?: number; path?: string } | number | string;
    const opts = typeof first === 'object' && first !== null ? first : { port: Number(first), host: typeof args[1] === 'string' ? args[1] : 'localhost' };
    const to = opts.path ?? `${opts.host ?? 'localhost'}:${opts.port}`;
    contacts.push({ kind: 'connect', to });
    if (!opts.path && !isLoopback(opts.host ?? 'localhost')) throw new Error(`offline test: Quire tried to connect to ${to}`);
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
  (dns as { lookup: unknown }).lookup = (host: string, ...rest: unknown[]) => {
    contacts.push({ kind: 'lookup', to: host });
    if (!isLoopback(host)) throw new Error(`offline test: Quire tried to look up ${host}`);
    return (originalLookup as (...a: unknown[]) => unknown)(host, ...rest);
  };
  (dns.promises as { lookup: unknown }).lookup = async (host: string, ...rest: unknown[]) => {
    contacts.push({ kind: 'lookup', to: host });
    if (!isLoopback(host)) throw new Error(`offline test: Quire tried to look up ${host}`);
    return (originalPromisesLookup as (...a: unknown[]) => unknown)(host, ...rest);
  };
}

function unguard(): void {
  net.Socket.prototype.connect = originalConnect;
  (dns as { lookup: unknown }).lookup = originalLookup;
  (dns.promises as { lookup: unknown }).lookup = originalPromisesLookup;
}

let ollama: Standin;
let notes: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;
let engine: Engine;

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-offline-');
  notes.write('ops/keys.md', '# Keys\n\nWe rotate the deploy keys every 90 days. See https://example.com/keys for the policy.\n');
  notes.write('food/bread.md', '# Bread\n\nBake the loaf at 250 degrees for twenty minutes.\n');
  dbFile = tempDbPath('quire-offline-db-');
  engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url } });
});
afterAll(async () => {
  unguard();
  await engine?.close();
  await ollama?.close();
  notes?.dispose();
  dbFile?.dispose();
});

describe('offline: Quire contacts nothing but the configured Ollama host', () => {
  it('the guard records and refuses a connection anywhere else (so the check below can fail)', async () => {
    guard();
    try {
      await expect(fetch('http://192.0.2.1:80/')).rejects.toThrow();
      expect(contacts.some((c) => c.to === '192.0.2.1:80')).toBe(true);
    } finally {
      unguard();
      contacts.length = 0;
    }
  });

  it('import, search, answer and the model list touch only the Ollama host', async () => {
    guard();
    try {
      const report = await engine.importFolder({ path: notes.root });
      expect(report.embedding.status).toBe('ok');
      expect((await engine.search({ query: 'deploy key rotation', mode: 'hybrid' })).mode).toBe('hybrid');
      let status = '';
      for await (const e of engine.ask({ question: 'How often are the deploy keys rotated?' })) if (e.type === 'done' || e.type === 'error') status = e.result.status;
      expect(status).toBe('answered');
      await engine.call('listModels', {});
    } finally {
      unguard();
    }
    const ollamaHost = new URL(ollama.url).host;
    expect(contacts.length).toBeGreaterThan(0);
    expect([...new Set(contacts.filter((c) => c.kind === 'connect').map((c) => c.to))]).toEqual([ollamaHost]);
    expect(contacts.filter((c) => c.kind === 'lookup' && !isLoopback(c.to))).toEqual([]);
  });
});
