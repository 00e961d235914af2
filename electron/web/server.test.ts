import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, type ApiEvent } from '../../shared/contract';
import { createEngine, openDatabase, type Db, type Engine } from '../core/engine';
import { createNodeTransport } from '../../test/support/node-transport';
import { CONTENT_SECURITY_POLICY, INTERNAL_ERROR_SENTENCE, startBrowserMode, type BrowserMode } from './server';

const SECRET = 'TOP-SECRET-sibling-folder-7f3a9c';
const INDEX = '<!doctype html><html><head><title>Quire test page</title></head><body><div id="root"></div></body></html>\n';
const APP_JS = 'console.log("quire test asset");\n';

let tmp: string;
let staticDir: string;
let notesDir: string;
let db: Db;
let engine: Engine;
let app: BrowserMode;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request exactly as written: http.request does not normalise the path the way clients do. */
function raw(options: { path: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: app.port, path: options.path, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const authed = () => ({ Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json', Origin: app.origin });

function call(method: string, input: unknown, headers: Record<string, string> = authed()): Promise<RawResponse & { json: { ok: boolean; value?: any; error?: { code: string; message: string } } }> {
  return raw({ path: `/api/${method}`, method: 'POST', headers, body: JSON.stringify(input) }).then((r) => ({ ...r, json: JSON.parse(r.body) }));
}

/** Opens the SSE stream and collects parsed events; resolves once the stream says it is connected. */
function openEvents(
  pathAndQuery: string,
  headers: Record<string, string> = {},
  port = app.port,
): Promise<{ events: ApiEvent[]; ids: number[]; comments: string[]; res: http.IncomingMessage; close(): void; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const events: ApiEvent[] = [];
    const ids: number[] = [];
    const comments: string[] = [];
    const req = http.get({ host: '127.0.0.1', port, path: pathAndQuery, agent: false, headers }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`events: HTTP ${res.statusCode}`));
        res.resume();
        return;
      }
      let buffer = '';
      let resolved = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of block.split('\n')) {
            if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)) as ApiEvent);
            else if (line.startsWith('id: ')) ids.push(Number(line.slice(4)));
            else if (line.startsWith(':')) comments.push(line);
          }
        }
        if (!resolved && comments.some((c) => c.startsWith(': connected'))) {
          resolved = true;
          resolve({ events, ids, comments, res, headers: res.headers, close: () => req.destroy() });
        }
      });
    });
    req.on('error', reject);
  });
}

async function until<T>(probe: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-web-'));
  const site = path.join(tmp, 'dist');
  staticDir = path.join(site, 'renderer');
  fs.mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-1234.js'), APP_JS);
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-1234.css'), 'body{color:#222}\n');
  fs.writeFileSync(path.join(staticDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
  fs.writeFileSync(path.join(staticDir, '.env'), `HIDDEN=${SECRET}\n`);
  // The sibling a naive startsWith(staticDir) check would let through.
  fs.mkdirSync(`${staticDir}-evil`);
  fs.writeFileSync(path.join(`${staticDir}-evil`, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(site, 'secret.txt'), SECRET);
  // Symlinks that point out of staticDir.
  fs.symlinkSync(path.join(`${staticDir}-evil`, 'secret.txt'), path.join(staticDir, 'leak.txt'));
  fs.symlinkSync(`${staticDir}-evil`, path.join(staticDir, 'linked'));

  notesDir = path.join(tmp, 'notes');
  fs.mkdirSync(notesDir);
  fs.writeFileSync(path.join(notesDir, 'kettles.md'), '# Kettles\n\nDescale the kettle monthly with citric acid.\n');
  fs.writeFileSync(path.join(notesDir, 'plants.md'), '# Plants\n\nWater the fern twice a week; it hates direct sun.\n');

  db = openDatabase(path.join(tmp, 'quire.db'));
  engine = createEngine({ dbPath: path.join(tmp, 'quire.db'), open: () => db, sampleNotesDir: notesDir, ollamaBackoffMs: 10 });
  app = await startBrowserMode({
    engine,
    staticDir,
    port: 0,
    pingMs: 100,
  });
  // Ollama is deliberately unreachable (discard port): everything here must work without it.
  const r = await call('setSettings', { ollamaHost: 'http://127.0.0.1:9' });
  expect(r.json).toMatchObject({ ok: true, value: { ollamaHost: 'http://127.0.0.1:9' } });
});

afterAll(async () => {
  await app?.close();
  await engine?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('startBrowserMode', () => {
  it('listens on 127.0.0.1 with a random token in the URL fragment', () => {
    expect(app.port).toBeGreaterThan(0);
    expect(app.origin).toBe(`http://127.0.0.1:${app.port}`);
    expect(app.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(app.url).toBe(`http://127.0.0.1:${app.port}/#token=${app.token}`);
  });

  it('gives each server its own token unless one is given', async () => {
    const other = await startBrowserMode({ engine, staticDir, token: 'a-given-token-of-some-length' });
    try {
      expect(other.token).toBe('a-given-token-of-some-length');
      expect(other.port).not.toBe(app.port);
    } finally {
      await other.close();
    }
  });
});

describe('API authentication', () => {
  it.each<[string, () => Record<string, string>]>([
    ['no Authorization header', () => ({})],
    ['an empty bearer', () => ({ Authorization: 'Bearer ' })],
    ['a wrong token', () => ({ Authorization: 'Bearer not-the-token' })],
    ['the token with a character dropped', () => ({ Authorization: `Bearer ${app.token.slice(0, -1)}` })],
    ['the token with a character added', () => ({ Authorization: `Bearer ${app.token}x` })],
    ['a Basic scheme carrying the token', () => ({ Authorization: `Basic ${Buffer.from(`quire:${app.token}`).toString('base64')}` })],
  ])('refuses %s with 401', async (_label, auth) => {
    const r = await call('status', {}, { 'Content-Type': 'application/json', Origin: app.origin, ...auth() });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ ok: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('refuses unknown paths under /api without the token with 401, not 404', async () => {
    const r = await call('noSuchMethod', {}, { 'Content-Type': 'application/json', Origin: app.origin });
    expect(r.status).toBe(401);
  });

  it('does not accept the token in the query string for method calls', async () => {
    const r = await raw({ path: `/api/status?token=${app.token}`, method: 'POST', headers: { 'Content-Type': 'application/json', Origin: app.origin }, body: '{}' });
    expect(r.status).toBe(401);
  });

  it('refuses the event stream without the right token', async () => {
    for (const p of ['/api/events', '/api/events?token=', '/api/events?token=wrong']) {
      const r = await raw({ path: p });
      expect(r.status, p).toBe(401);
      expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    }
  });
});

describe('API calls through the real dispatcher', () => {
  it('answers status with Ollama reported unreachable', async () => {
    const r = await call('status', {});
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json.ok).toBe(true);
    expect(r.json.value.ollama).toMatchObject({ host: 'http://127.0.0.1:9', connected: false });
    expect(r.json.value.documents.total).toBe(0);
  });

  it('answers library', async () => {
    const r = await call('library', {});
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, value: { collections: expect.any(Array), warnings: [] } });
  });

  it('treats an empty body as {}', async () => {
    const r = await raw({ path: '/api/getSettings', method: 'POST', headers: authed() });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { ollamaHost: 'http://127.0.0.1:9' } });
  });

  it('accepts application/json with a utf-8 charset', async () => {
    const r = await call('getSettings', {}, { ...authed(), 'Content-Type': 'application/json; charset=UTF-8' });
    expect(r.status).toBe(200);
  });

  it('returns the engine’s own refusals as ok:false with status 200', async () => {
    const r = await call('importFolder', { path: path.join(tmp, 'does-not-exist') });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: false, error: { code: 'NOT_A_FOLDER', message: expect.stringContaining('is not a folder') } });
  });

  it('refuses input that fails the schema with 400 INVALID_ARGUMENT', async () => {
    for (const [method, input] of [
      ['search', { query: '' }],
      ['search', { query: 'x', extra: true }],
      ['setSettings', { k: 'six' }],
      ['status', { unexpected: 1 }],
      ['importFolder', []],
    ] as const) {
      const r = await call(method, input);
      expect(r.status, `${method} ${JSON.stringify(input)}`).toBe(400);
      expect(r.json).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    }
  });

  it('refuses a body that is not JSON with 400 INVALID_ARGUMENT', async () => {
    const r = await raw({ path: '/api/status', method: 'POST', headers: authed(), body: '{"oops"' });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
  });

  it('answers an unknown method with 404 in the same shape', async () => {
    for (const name of ['noSuchMethod', 'constructor', '__proto__', 'toString', 'status/extra', '']) {
      const r = await call(name, {});
      expect(r.status, name).toBe(404);
      expect(JSON.parse(r.body), name).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
  });

  it('answers the wrong verb with 405', async () => {
    const r = await raw({ path: '/api/status', headers: { Authorization: `Bearer ${app.token}` } });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST');
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form encoding', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['a look-alike', 'application/jsonp'],
    ['a non-utf-8 charset', 'application/json; charset=latin1'],
    ['none', ''],
  ])('refuses %s with 415', async (_label, type) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${app.token}`, Origin: app.origin };
    if (type) headers['Content-Type'] = type;
    const r = await raw({ path: '/api/status', method: 'POST', headers, body: '{}' });
    expect(r.status).toBe(415);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const big = JSON.stringify({ query: 'x'.repeat(1024 * 1024 + 10) });
    const r = await raw({ path: '/api/search', method: 'POST', headers: authed(), body: big }).catch((e: Error) => ({ status: -1, headers: {}, body: e.message }));
    // The server may close the socket before the client finishes writing; either way no 200.
    if (r.status !== -1) {
      expect(r.status).toBe(413);
      expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'TOO_LARGE' } });
    }
    const after = await call('getSettings', {});
    expect(after.status).toBe(200);
  });
});

describe('Host and Origin checks', () => {
  it.each(['evil.example', 'evil.example:80', `attacker.test:PORT`, '127.0.0.1', 'localhost', `127.0.0.2:PORT`, `127.0.0.1:1`, `localhost.evil:PORT`])(
    'refuses Host %s with 403 (DNS rebinding), for API and static files alike',
    async (host) => {
      const h = host.replace('PORT', String(app.port));
      const api = await call('status', {}, { ...authed(), Host: h });
      expect(api.status).toBe(403);
      expect(api.json).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      const page = await raw({ path: '/', headers: { Host: h } });
      expect(page.status).toBe(403);
      expect(page.body).not.toContain('Quire test page');
    },
  );

  it('accepts localhost and [::1] as Host with a matching Origin', async () => {
    for (const host of [`localhost:${app.port}`, `LOCALHOST:${app.port}`, `[::1]:${app.port}`]) {
      const r = await call('getSettings', {}, { ...authed(), Host: host, Origin: `http://${host.toLowerCase()}` });
      expect(r.status, host).toBe(200);
    }
    const page = await raw({ path: '/', headers: { Host: `localhost:${app.port}` } });
    expect(page.status).toBe(200);
  });

  it.each([
    ['a foreign site', 'http://evil.example'],
    ['another port on loopback', 'http://127.0.0.1:1'],
    ['https instead of http', 'https://127.0.0.1:PORT'],
    ['the opaque null origin', 'null'],
    ['the other loopback name (Origin must match Host)', 'http://localhost:PORT'],
  ])('refuses POST from %s with 403', async (_label, origin) => {
    const r = await call('status', {}, { ...authed(), Origin: origin.replace('PORT', String(app.port)) });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('refuses a POST without Origin with 403', async () => {
    const { Origin: _omit, ...headers } = authed();
    const r = await call('status', {}, headers);
    expect(r.status).toBe(403);
  });

  it('refuses any GET carrying a foreign Origin, events and static files included', async () => {
    const ev = await raw({ path: `/api/events?token=${app.token}`, headers: { Origin: 'http://evil.example' } });
    expect(ev.status).toBe(403);
    const page = await raw({ path: '/assets/app-1234.js', headers: { Origin: 'http://evil.example' } });
    expect(page.status).toBe(403);
    expect(page.body).not.toContain('quire test asset');
  });

  it('refuses a CORS preflight', async () => {
    const r = await raw({ path: '/api/status', method: 'OPTIONS', headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(r.status).toBe(403);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('static files', () => {
  it('serves index.html for / with security headers', async () => {
    const r = await raw({ path: '/' });
    expect(r.status).toBe(200);
    expect(r.body).toBe(INDEX);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
  });

  it('uses the required Content-Security-Policy', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    );
  });

  it('puts the security headers on API answers and refusals too', async () => {
    for (const r of [await call('status', {}), await call('status', {}, { 'Content-Type': 'application/json', Origin: app.origin }), await raw({ path: '/nope.js' })]) {
      expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it.each([
    ['/assets/app-1234.js', 'text/javascript; charset=utf-8', APP_JS],
    ['/assets/app-1234.css', 'text/css; charset=utf-8', 'body{color:#222}\n'],
    ['/logo.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>\n'],
    ['/assets/app-1234.js?v=1', 'text/javascript; charset=utf-8', APP_JS],
    ['/assets/app%2D1234.js', 'text/javascript; charset=utf-8', APP_JS],
  ])('serves %s as %s', async (p, type, body) => {
    const r = await raw({ path: p });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(type);
    expect(r.body).toBe(body);
  });

  it('answers HEAD without a body', async () => {
    const r = await raw({ path: '/assets/app-1234.js', method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(APP_JS)));
    expect(r.body).toBe('');
  });

  it('falls back to index.html for app routes without an extension, 404 for missing files', async () => {
    const route = await raw({ path: '/library/some-collection' });
    expect(route.status).toBe(200);
    expect(route.body).toBe(INDEX);
    const missing = await raw({ path: '/assets/missing.js' });
    expect(missing.status).toBe(404);
    expect(missing.body).not.toContain('Quire test page');
  });

  it('never lists a directory', async () => {
    const r = await raw({ path: '/assets/' });
    expect(r.body).not.toContain('app-1234');
    const r2 = await raw({ path: '/assets' });
    expect(r2.body).not.toContain('app-1234');
  });

  it('refuses other verbs', async () => {
    const r = await raw({ path: '/index.html', method: 'PUT', headers: { Origin: app.origin }, body: 'x' });
    expect(r.status).toBe(405);
    expect(fs.readFileSync(path.join(staticDir, 'index.html'), 'utf8')).toBe(INDEX);
  });

  // The path rules themselves are tabled in electron/core/static/static-file-guard.test.ts; these
  // check that browser mode goes through that guard and maps its verdicts to statuses.
  const throughTheGuard: Array<[string, number]> = [
    ['/%2e%2e/renderer-evil/secret.txt', 400],
    ['/..%5crenderer-evil%5csecret.txt', 400],
    ['/secret.txt%00.html', 400],
    ['/index.html::$DATA', 400],
    ['/C%3A%5CWindows%5Cwin.ini', 400],
    ['/index%7f.html', 400],
    ['/.env', 400],
    ['/leak.txt', 404],
    ['/linked/secret.txt', 404],
    ['/%252e%252e/renderer-evil/secret.txt', 404],
    ['//etc/passwd', 200], // stays inside staticDir, so it is an app route → index.html
  ];

  it.each(throughTheGuard)('answers %s with %i and leaks nothing', async (p, status) => {
    const r = await raw({ path: p });
    expect(r.status).toBe(status);
    expect(r.body).not.toContain(SECRET);
    expect(r.body).not.toMatch(/root:.*:0:0:/);
    if (r.status === 200) expect(r.body).toBe(INDEX);
  });

  it('says the renderer is not built when staticDir has no index.html', async () => {
    const empty = path.join(tmp, 'empty-renderer');
    fs.mkdirSync(empty);
    const bare = await startBrowserMode({ engine, staticDir: empty });
    try {
      const r = await new Promise<RawResponse>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: bare.port, path: '/', agent: false }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          })
          .on('error', reject);
      });
      expect(r.status).toBe(503);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('not built');
      expect(r.body).toContain('npm run serve');
      expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    } finally {
      await bare.close();
    }
  });
});

describe('events', () => {
  it('streams an import\'s job.progress then its job.done to every connected client', async () => {
    const a = await openEvents(`/api/events?token=${encodeURIComponent(app.token)}`);
    const b = await openEvents(`/api/events?token=${encodeURIComponent(app.token)}`);
    try {
      expect(a.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(a.headers['cache-control']).toBe('no-store');
      const r = await call('importFolder', { path: notesDir });
      expect(r.status).toBe(200);
      const jobId = r.json.value.jobId as string;
      expect(jobId).toMatch(/\S/);
      for (const client of [a, b]) {
        const done = await until(() => client.events.find((e) => e.type === 'job.done' && e.kind === 'import' && e.jobId === jobId), 'the import’s job.done');
        const mine = client.events.filter((e) => 'jobId' in e && e.jobId === jobId);
        const firstProgress = mine.findIndex((e) => e.type === 'job.progress' && e.kind === 'import');
        expect(firstProgress).toBeGreaterThanOrEqual(0);
        expect(firstProgress).toBeLessThan(mine.indexOf(done));
        expect(done.type === 'job.done' && done.error).toBeNull();
        expect(done.type === 'job.done' && done.kind === 'import' && done.result?.documents.added).toBe(2);
      }
      const lib = await call('library', {});
      expect(lib.json.value.collections[0].documents).toHaveLength(2);
      const search = await call('search', { query: 'descale kettle', mode: 'lexical' });
      expect(search.json.ok).toBe(true);
      expect(search.json.value.results[0].path).toBe('kettles.md');
    } finally {
      a.close();
      b.close();
    }
  });

  it('numbers every event, and replays what a reconnecting client missed, once and in order', async () => {
    const url = `/api/events?token=${encodeURIComponent(app.token)}`;
    const watcher = await openEvents(url);
    const first = await openEvents(url);
    try {
      const r1 = await call('importFolder', { path: notesDir });
      await until(() => first.events.find((e) => e.type === 'job.done' && e.kind === 'import' && e.jobId === r1.json.value.jobId), 'the first import’s job.done');
      expect(first.ids.length).toBe(first.events.length);
      expect(first.ids).toEqual([...first.ids].sort((a, b) => a - b));
      const seen = first.ids.at(-1)!;
      first.close();

      const r2 = await call('importFolder', { path: notesDir });
      await until(() => watcher.events.find((e) => e.type === 'job.done' && e.kind === 'import' && e.jobId === r2.json.value.jobId), 'the second import’s job.done');
      const missed = watcher.events.filter((_e, i) => watcher.ids[i]! > seen);
      expect(missed.some((e) => e.type === 'job.done' && e.kind === 'import')).toBe(true);

      for (const again of [await openEvents(url, { 'Last-Event-ID': String(seen) }), await openEvents(`${url}&lastEventId=${seen}`)]) {
        try {
          await until(() => (again.events.length >= missed.length ? true : undefined), 'the replay');
          expect(again.events.slice(0, missed.length)).toEqual(missed);
          expect(again.ids[0]).toBe(seen + 1);
          expect(again.events.some((e) => e.type === 'events.gap')).toBe(false);
        } finally {
          again.close();
        }
      }
    } finally {
      watcher.close();
      first.close();
    }
  });

  it('sends the retry hint and keep-alive pings', async () => {
    const c = await openEvents(`/api/events?token=${encodeURIComponent(app.token)}`);
    try {
      await until(() => (c.comments.includes(': ping') ? true : undefined), 'a ping', 2000);
    } finally {
      c.close();
    }
  });

  it('keeps serving the others after a client disconnects', async () => {
    const gone = await openEvents(`/api/events?token=${encodeURIComponent(app.token)}`);
    const stays = await openEvents(`/api/events?token=${encodeURIComponent(app.token)}`);
    try {
      gone.close();
      await new Promise((r) => setTimeout(r, 50));
      const r = await call('importFolder', { path: notesDir });
      await until(() => stays.events.find((e) => e.type === 'job.done' && e.kind === 'import' && e.jobId === r.json.value.jobId), 'the import’s job.done after a disconnect');
      expect(gone.events.some((e) => 'jobId' in e && e.jobId === r.json.value.jobId)).toBe(false);
    } finally {
      stays.close();
    }
  });

  it('says when a reconnecting client missed more than is kept', async () => {
    const other = await startBrowserMode({ engine, staticDir, replayEvents: 2 });
    try {
      const url = `/api/events?token=${encodeURIComponent(other.token)}`;
      const watcher = await openEvents(url, {}, other.port);
      const res = await fetch(`${other.origin}/api/importFolder`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${other.token}`, 'Content-Type': 'application/json', Origin: other.origin },
        body: JSON.stringify({ path: notesDir }),
      });
      const { value } = (await res.json()) as { value: { jobId: string } };
      await until(() => watcher.events.find((e) => e.type === 'library.changed'), 'the import to end');
      watcher.close();
      expect(watcher.ids.length).toBeGreaterThan(3);
      const late = await openEvents(url, { 'Last-Event-ID': '1' }, other.port);
      try {
        await until(() => (late.events.length >= 3 ? true : undefined), 'the gap and the kept events');
        expect(late.events[0]).toEqual({ type: 'events.gap' });
        expect(late.ids).toEqual(watcher.ids.slice(-2));
        expect(late.events.some((e) => e.type === 'job.done' && e.kind === 'import' && e.jobId === value.jobId)).toBe(true);
      } finally {
        late.close();
      }
    } finally {
      await other.close();
    }
  });

  it('close() ends open event streams', async () => {
    const other = await startBrowserMode({ engine, staticDir });
    const ended = new Promise<void>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: other.port, path: `/api/events?token=${other.token}`, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve());
          res.on('close', () => resolve());
          setTimeout(() => void other.close(), 50);
        })
        .on('error', reject);
    });
    await ended;
    await other.close();
    await expect(fetch(`${other.origin}/`)).rejects.toThrow();
  });
});

describe('createClient over a Node transport', () => {
  it('round-trips calls, errors and events', async () => {
    const transport = createNodeTransport({ origin: app.origin, token: app.token });
    const client = createClient(transport);
    try {
      const settings = await client.getSettings({});
      expect(settings.ollamaHost).toBe('http://127.0.0.1:9');
      const updated = await client.setSettings({ k: 7 });
      expect(updated.k).toBe(7);
      const status = await client.status({});
      expect(status.ollama.connected).toBe(false);
      expect(status.documents.total).toBeGreaterThanOrEqual(2);

      await expect(client.importFolder({ path: path.join(tmp, 'nope') })).rejects.toMatchObject({ name: 'ApiError', code: 'NOT_A_FOLDER' });
      const bad = await client.search({ query: '' }).catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(ApiError);
      expect((bad as ApiError).code).toBe('INVALID_ARGUMENT');

      const events: ApiEvent[] = [];
      const off = client.onEvent((e) => events.push(e));
      await transport.ready();
      const { jobId } = await client.resync({ collectionId: (await client.library({})).collections[0]!.id });
      const done = await until(() => events.find((e) => e.type === 'job.done' && e.kind === 'import' && e.jobId === jobId), 'the import’s job.done via the client');
      expect(done.type === 'job.done' && done.kind === 'import' && done.result?.documents.unchanged).toBe(2);
      await until(() => events.find((e) => e.type === 'library.changed'), 'library.changed via the client');
      off();
    } finally {
      transport.close();
    }
  });

  it('a wrong token surfaces as ApiError UNAUTHORIZED', async () => {
    const client = createClient(createNodeTransport({ origin: app.origin, token: 'wrong-token-wrong-token' }));
    await expect(client.status({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('limits', () => {
  /** A server over a stand-in engine whose every call fails as the given error, or succeeds. */
  async function serverOver(dispatchResult: unknown, options: Partial<Parameters<typeof startBrowserMode>[0]> = {}) {
    const stub = { onEvent: () => () => {}, dispatch: async () => dispatchResult } as unknown as Engine;
    const lines: string[] = [];
    const server = await startBrowserMode({ engine: stub, staticDir, log: (l) => lines.push(l), ...options });
    const post = (method: string) =>
      fetch(`${server.origin}/api/${method}`, { method: 'POST', headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json', Origin: server.origin }, body: '{}' });
    return { server, lines, post };
  }

  it('a 500 carries the code and a generic sentence; the details go only to the log', async () => {
    const detail = 'SqliteError: no such table at /home/someone/.local/share/quire/quire.db';
    const { server, lines, post } = await serverOver({ ok: false, error: { code: 'INTERNAL', message: detail } });
    try {
      const res = await post('status');
      expect(res.status).toBe(500);
      const body = await res.text();
      expect(JSON.parse(body)).toEqual({ ok: false, error: { code: 'INTERNAL', message: INTERNAL_ERROR_SENTENCE } });
      expect(body).not.toContain('quire.db');
      expect(lines.join('\n')).toContain(detail);
    } finally {
      await server.close();
    }
  });

  it('a request that throws inside the server is answered the same way', async () => {
    const stub = { onEvent: () => () => {}, dispatch: async () => Promise.reject(new Error('boom at /secret/path')) } as unknown as Engine;
    const lines: string[] = [];
    const server = await startBrowserMode({ engine: stub, staticDir, log: (l) => lines.push(l) });
    try {
      const res = await fetch(`${server.origin}/api/status`, { method: 'POST', headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json', Origin: server.origin }, body: '{}' });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ ok: false, error: { code: 'INTERNAL', message: INTERNAL_ERROR_SENTENCE } });
      expect(lines.join('\n')).toContain('boom at /secret/path');
    } finally {
      await server.close();
    }
  });

  it('bounds the API request rate with 429 and Retry-After, and recovers', async () => {
    const { server, post } = await serverOver({ ok: true, value: {} }, { rateLimit: { perSecond: 20, burst: 5 } });
    try {
      const statuses = [];
      for (let i = 0; i < 8; i++) statuses.push((await post('library')).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.slice(5)).toEqual([429, 429, 429]);
      const refused = await post('library');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect((await refused.json()) as unknown).toMatchObject({ ok: false, error: { code: 'TOO_MANY_REQUESTS' } });
      await new Promise((r) => setTimeout(r, 120));
      expect((await post('library')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('keeps at most 8 event streams: a ninth closes the oldest', async () => {
    const other = await startBrowserMode({ engine, staticDir });
    const streams: Array<Awaited<ReturnType<typeof openEvents>>> = [];
    try {
      const url = `/api/events?token=${encodeURIComponent(other.token)}`;
      const ended: boolean[] = [];
      for (let i = 0; i < 9; i++) {
        const s = await openEvents(url, {}, other.port);
        const index = i;
        ended[index] = false;
        s.res.on('end', () => (ended[index] = true));
        s.res.on('close', () => (ended[index] = true));
        streams.push(s);
      }
      await until(() => (ended[0] ? true : undefined), 'the oldest stream to be closed');
      await new Promise((r) => setTimeout(r, 50));
      expect(ended).toEqual([true, false, false, false, false, false, false, false, false]);
      const r = await fetch(`${other.origin}/api/importFolder`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${other.token}`, 'Content-Type': 'application/json', Origin: other.origin },
        body: JSON.stringify({ path: notesDir }),
      });
      const { value } = (await r.json()) as { value: { jobId: string } };
      await until(() => streams[8]!.events.find((e) => e.type === 'job.done' && e.jobId === value.jobId), 'the newest stream to get events');
      expect(streams[0]!.events.some((e) => 'jobId' in e && e.jobId === value.jobId)).toBe(false);
    } finally {
      for (const s of streams) s.close();
      await other.close();
    }
  });
});
