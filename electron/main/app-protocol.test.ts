import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  registerAppProtocol,
  registerSchemesAsPrivileged,
  resolveAppRequest,
  serveAppRequest,
} from './app-protocol';
import { CONTENT_SECURITY_POLICY } from '../core/static/renderer-serving';

let tmp: string;
let root: string;
const INDEX = '<!doctype html><title>Quire</title><div id="root"></div>\n';
const APP_JS = 'console.log("quire");\n';
const SECRET = 'TOP-SECRET-outside-the-renderer';

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-app-protocol-')));
  root = path.join(tmp, 'dist', 'renderer');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), INDEX);
  fs.writeFileSync(path.join(root, 'assets', 'app.js'), APP_JS);
  fs.writeFileSync(path.join(root, 'assets', 'style.css'), 'body{}\n');
  fs.writeFileSync(path.join(root, '.env'), SECRET);
  // A sibling whose name starts with the renderer's: a naive prefix check would let it through.
  fs.mkdirSync(path.join(tmp, 'dist', 'renderer-evil'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'dist', 'renderer-evil', 'secret.js'), SECRET);
  fs.mkdirSync(path.join(tmp, 'outside'));
  fs.writeFileSync(path.join(tmp, 'outside', 'secret.js'), SECRET);
  fs.writeFileSync(path.join(tmp, 'dist', 'secret.txt'), SECRET);
  // Symlinks: one file and one directory pointing out, one dangling, one pointing inside.
  fs.symlinkSync(path.join(tmp, 'outside', 'secret.js'), path.join(root, 'assets', 'escape.js'));
  fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'linked'));
  fs.symlinkSync(path.join(tmp, 'nowhere.js'), path.join(root, 'assets', 'dangling.js'));
  fs.symlinkSync(path.join(root, 'assets', 'app.js'), path.join(root, 'assets', 'alias.js'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('resolveAppRequest', () => {
  const index = () => path.join(root, 'index.html');
  const asset = () => path.join(root, 'assets', 'app.js');

  // Path rules live in electron/core/static/static-file-guard.test.ts; these are the URL's own.
  const good: Array<[string, () => string]> = [
    ['app://quire', index],
    ['app://quire/', index],
    ['app://quire/index.html', index],
    ['app://quire/assets/app.js', asset],
    ['app://quire/assets/app.js?v=3#x', asset],
    ['app://quire/assets/app.js#../../secret.txt', asset],
    ['app://quire/library', index],
    ['app://quire/library/notes?tab=2', index],
    ['app://quire/assets', index],
    // Served through the guard: a symlink inside the root opens its real file.
    ['app://quire/assets/alias.js', asset],
    // Missing files resolve inside the root; the handler answers 404.
    ['app://quire/assets/missing.js', () => path.join(root, 'assets', 'missing.js')],
  ];

  it.each(good)('%s is served from inside the renderer', (url, expected) => {
    expect(resolveAppRequest(root, url)).toBe(expected());
  });

  const refused: string[] = [
    'app://evil/index.html',
    'app://quire.evil/index.html',
    'app://quirex/index.html',
    'app://QUIRE/index.html',
    'app://quire:8080/index.html',
    'app://user@quire/index.html',
    'app://quire@evil/index.html',
    'app:quire/index.html',
    'app:/quire/index.html',
    'file:///etc/passwd',
    'https://quire/index.html',
    'http://quire/index.html',
    '',
    'not a url',
  ];

  it.each(refused)('refuses %j', (url) => {
    expect(resolveAppRequest(root, url)).toBeNull();
  });

  it('refuses what the shared static-file guard refuses, including paths without an extension', () => {
    for (const url of [
      'app://quire/%2e%2e/secret.txt',
      'app://quire/..%2frenderer-evil%2fsecret.js',
      'app://quire/C:/Windows/win.ini',
      'app://quire/index.html%00.js',
      'app://quire/.env',
      'app://quire/assets/escape.js',
      'app://quire/assets/dangling.js',
      'app://quire/linked',
    ]) {
      expect(resolveAppRequest(root, url), url).toBeNull();
    }
  });

  it('exports the app origin', () => {
    expect(APP_ORIGIN).toBe('app://quire');
  });
});

describe('serveAppRequest', () => {
  const get = (url: string, method = 'GET') => serveAppRequest(root, new Request(url, { method }));

  it('serves index.html with its content type, the CSP and nosniff', async () => {
    const res = await get('app://quire/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(INDEX);
  });

  it('serves scripts and styles with their content types', async () => {
    const js = await get('app://quire/assets/app.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe(APP_JS);
    const css = await get('app://quire/assets/style.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404 (with the CSP) for refused and missing paths, never leaking the secret', async () => {
    for (const url of ['app://quire/assets/missing.js', 'app://quire/assets/escape.js', 'app://quire/linked/secret.js', 'app://quire/.env', 'app://evil/index.html']) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(await res.text()).not.toContain(SECRET);
    }
  });

  it('answers 404 for a directory that resolves to no file', async () => {
    fs.mkdirSync(path.join(root, 'dir.js'), { recursive: true });
    const res = await get('app://quire/dir.js');
    expect(res.status).toBe(404);
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('app://quire/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await get('app://quire/index.html', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('registration', () => {
  it('registerAppProtocol handles the app scheme with the renderer directory', async () => {
    const handled: Array<[string, (r: Request) => Response | Promise<Response>]> = [];
    registerAppProtocol({ handle: (scheme, handler) => void handled.push([scheme, handler]) }, root);
    expect(handled.map(([s]) => s)).toEqual(['app']);
    const res = await handled[0]![1](new Request('app://quire/assets/app.js'));
    expect(await res.text()).toBe(APP_JS);
  });

  it('registerSchemesAsPrivileged registers app as standard, secure, fetch-capable — nothing more', () => {
    const calls: unknown[] = [];
    registerSchemesAsPrivileged({ registerSchemesAsPrivileged: (schemes) => void calls.push(schemes) });
    expect(calls).toEqual([[{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]]);
    expect(APP_SCHEME_PRIVILEGES[0].privileges).not.toHaveProperty('bypassCSP');
  });
});
