import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { progressReporter } from '../scripts/download-progress';
import { executableFor, fetchElectronRuntime, type FetchRequest, UnsupportedPlatformError } from '../scripts/electron-fetch';
import { classifyFetchFailure, fetchFailureSentence } from '../scripts/electron-fetch-failure';

/**
 * The runtime fetch of `npm start` (scripts/electron-fetch.ts) against a mirror on loopback that
 * serves a stand-in release: a small zip holding a fake `electron` executable, and its
 * SHASUMS256.txt. Nothing here may leave the machine: every socket opened is checked.
 */
const VERSION = '39.8.10';
const ZIP_NAME = `electron-v${VERSION}-linux-x64.zip`;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function releaseZip(files: Record<string, string>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text, { unixPermissions: name === 'electron' ? 0o755 : 0o644 });
  return zip.generateAsync({ type: 'nodebuffer', platform: 'UNIX' });
}

/** What the mirror serves, per test: the zip, and the sums it claims (or an HTTP status instead). */
const mirror: { zip: Buffer; sums: string; zipStatus: number; zipRequests: number } = { zip: Buffer.alloc(0), sums: '', zipStatus: 200, zipRequests: 0 };
let server: http.Server;
let mirrorUrl: string;
let work: string;
const connections: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === `/v${VERSION}/${ZIP_NAME}`) {
      mirror.zipRequests++;
      if (mirror.zipStatus !== 200) return void res.writeHead(mirror.zipStatus).end('no');
      return void res.writeHead(200, { 'content-length': mirror.zip.length }).end(mirror.zip);
    }
    if (req.url === `/v${VERSION}/SHASUMS256.txt`) return void res.writeHead(200).end(mirror.sums);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  mirrorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // Every socket the fetch opens is recorded (the spy passes each call through).
  const connect = net.Socket.prototype.connect;
  vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string; port?: number; path?: string };
    connections.push(first.path ?? `${first.host ?? 'localhost'}:${first.port}`);
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise((r) => server.close(r));
  expect(connections.length).toBeGreaterThan(0);
  for (const to of connections) expect(to).toMatch(/^127\.0\.0\.1:\d+$/);
});

beforeEach(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-electron-fetch-'));
  for (const dir of ['cache', 'tmp', 'electron']) fs.mkdirSync(path.join(work, dir));
  mirror.zip = await releaseZip({ electron: '#!/bin/sh\necho stand-in\n', version: VERSION, 'resources/default_app.asar': 'x' });
  mirror.sums = `${sha256(mirror.zip)} *${ZIP_NAME}\n`;
  mirror.zipStatus = 200;
  mirror.zipRequests = 0;
  // Only the mirror named here: a developer's own mirror variables must not send the test elsewhere.
  for (const key of Object.keys(process.env)) if (/electron_(?:mirror|custom|nightly)/i.test(key)) vi.stubEnv(key, '');
  vi.stubEnv('ELECTRON_MIRROR', mirrorUrl);
});
afterEach(() => {
  vi.unstubAllEnvs();
  fs.rmSync(work, { recursive: true, force: true });
});

function request(extra: Partial<FetchRequest> = {}): FetchRequest {
  return {
    version: VERSION,
    platform: 'linux',
    arch: 'x64',
    distDir: path.join(work, 'electron', 'dist'),
    pathTxt: path.join(work, 'electron', 'path.txt'),
    cacheRoot: path.join(work, 'cache'),
    tempDirectory: path.join(work, 'tmp'),
    downloadOptions: { retry: { limit: 0 } },
    ...extra,
  };
}

/** Every file under dir, relative to it. */
const filesIn = (dir: string) => (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();

function expectNothingLeftBehind(): void {
  expect(fs.readdirSync(path.join(work, 'electron'))).toEqual([]);
  expect(filesIn(path.join(work, 'cache'))).toEqual([]);
  expect(filesIn(path.join(work, 'tmp'))).toEqual([]);
}

describe('fetching the runtime from a mirror', () => {
  it('downloads, checks against SHASUMS256.txt, unpacks, and the runtime is where path.txt says', async () => {
    const seen: number[] = [];
    const binary = await fetchElectronRuntime(request({ onProgress: (p) => seen.push(p.percent) }));

    expect(binary).toBe(path.join(work, 'electron', 'dist', 'electron'));
    expect(fs.readFileSync(binary, 'utf8')).toBe('#!/bin/sh\necho stand-in\n');
    if (process.platform !== 'win32') {
      expect(fs.statSync(binary).mode & 0o111).not.toBe(0);
      expect(fs.statSync(path.dirname(binary)).mode & 0o777).toBe(0o755);
    }
    expect(fs.readFileSync(path.join(work, 'electron', 'path.txt'), 'utf8')).toBe('electron');
    expect(path.join(work, 'electron', 'dist', fs.readFileSync(path.join(work, 'electron', 'path.txt'), 'utf8'))).toBe(binary);
    expect(fs.readdirSync(path.join(work, 'electron')).sort()).toEqual(['dist', 'path.txt']);
    expect(seen.at(-1)).toBe(1);
    // Kept in the cache, checked, under its own name.
    const cached = filesIn(path.join(work, 'cache'));
    expect(cached.map((f) => path.basename(f))).toEqual([ZIP_NAME]);
    expect(sha256(fs.readFileSync(path.join(work, 'cache', cached[0]!)))).toBe(sha256(mirror.zip));
  });

  it('reuses the cache: a second fetch with pinned sums asks the mirror for nothing', async () => {
    await fetchElectronRuntime(request());
    expect(mirror.zipRequests).toBe(1);
    fs.rmSync(path.join(work, 'electron'), { recursive: true });
    const again = await fetchElectronRuntime(request({ checksums: { [ZIP_NAME]: sha256(mirror.zip) } }));
    expect(fs.existsSync(again)).toBe(true);
    expect(mirror.zipRequests).toBe(1);
  });

  it('replaces a runtime folder left without its executable, whole', async () => {
    fs.mkdirSync(path.join(work, 'electron', 'dist', 'locales'), { recursive: true });
    fs.writeFileSync(path.join(work, 'electron', 'dist', 'locales', 'stale.pak'), 'old');
    await fetchElectronRuntime(request());
    expect(filesIn(path.join(work, 'electron', 'dist'))).toEqual(['electron', path.join('resources', 'default_app.asar'), 'version']);
  });
});

describe('a download that cannot be trusted or had leaves nothing behind', () => {
  it('refuses a zip whose SHA-256 is not the one SHASUMS256.txt gives: no dist, no path.txt, nothing in the cache', async () => {
    mirror.sums = `${'0'.repeat(64)} *${ZIP_NAME}\n`;
    const error = await fetchElectronRuntime(request()).catch((e: unknown) => e);
    expect(classifyFetchFailure(error).kind).toBe('checksum');
    expectNothingLeftBehind();
  });

  it('refuses a zip the mirror vouches for when the pinned sums (electron/checksums.json) say otherwise', async () => {
    const pinned = { [ZIP_NAME]: sha256(mirror.zip) };
    mirror.zip = await releaseZip({ electron: '#!/bin/sh\necho something else\n' });
    mirror.sums = `${sha256(mirror.zip)} *${ZIP_NAME}\n`;
    const error = await fetchElectronRuntime(request({ checksums: pinned })).catch((e: unknown) => e);
    expect(classifyFetchFailure(error).kind).toBe('checksum');
    expectNothingLeftBehind();
  });

  it('leaves a zip without the executable unpacked nowhere, and the old folder as it was', async () => {
    mirror.zip = await releaseZip({ version: VERSION });
    mirror.sums = `${sha256(mirror.zip)} *${ZIP_NAME}\n`;
    fs.mkdirSync(path.join(work, 'electron', 'dist'));
    fs.writeFileSync(path.join(work, 'electron', 'dist', 'kept'), 'as it was');
    await expect(fetchElectronRuntime(request())).rejects.toThrow(/holds no electron/);
    expect(fs.readdirSync(path.join(work, 'electron'))).toEqual(['dist']);
    expect(filesIn(path.join(work, 'electron', 'dist'))).toEqual(['kept']);
  });

  it('an unreachable mirror (a closed port) is "no network", in one sentence', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    vi.stubEnv('ELECTRON_MIRROR', `http://127.0.0.1:${port}/`);
    const failure = classifyFetchFailure(await fetchElectronRuntime(request()).catch((e: unknown) => e));
    expect(failure).toEqual({ kind: 'no-network', detail: `127.0.0.1:${port} refused the connection` });
    expect(fetchFailureSentence(VERSION, failure)).toBe(
      `Quire: Electron ${VERSION}'s runtime could not be downloaded (no network: 127.0.0.1:${port} refused the connection), so Quire opens in your browser instead (browser mode); ` +
        'for the desktop window, set ELECTRON_MIRROR to a mirror you can reach, or build the packaged app with `npm run dist`.',
    );
    expectNothingLeftBehind();
  });

  it.each([404, 403, 503])('an HTTP %i is "refused by the server", with the status', async (status) => {
    mirror.zipStatus = status;
    const failure = classifyFetchFailure(await fetchElectronRuntime(request()).catch((e: unknown) => e));
    expect(failure.kind).toBe('refused');
    expect(failure.detail).toMatch(new RegExp(`^127\\.0\\.0\\.1:\\d+ answered HTTP ${status}\\b`));
    expect(fetchFailureSentence(VERSION, failure)).toContain(`(refused by the server: 127.0.0.1:`);
    expectNothingLeftBehind();
  });

  it('an unsupported platform is said before anything is asked of the mirror', async () => {
    const error = await fetchElectronRuntime(request({ platform: 'freebsd' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedPlatformError);
    expect(classifyFetchFailure(error)).toEqual({ kind: 'unsupported-platform', detail: 'Electron publishes no runtime for freebsd-x64' });
    expect(mirror.zipRequests).toBe(0);
    expect(fetchFailureSentence(VERSION, classifyFetchFailure(error))).toBe(
      `Quire: Electron ${VERSION}'s runtime could not be downloaded (unsupported platform: Electron publishes no runtime for freebsd-x64), so Quire opens in your browser instead (browser mode).`,
    );
  });
});

describe('classifying a failure from errors shaped like the real ones', () => {
  const gotError = (name: string, code: string, message: string, url = 'https://github.com/electron/electron/releases/download/v39.8.10/x.zip') =>
    Object.assign(new Error(message), { name, code, options: { url: new URL(url) } });

  it.each([
    [gotError('RequestError', 'ENOTFOUND', 'getaddrinfo ENOTFOUND github.com'), 'no-network', 'github.com did not resolve (DNS)'],
    [gotError('RequestError', 'EAI_AGAIN', 'getaddrinfo EAI_AGAIN github.com'), 'no-network', 'github.com did not resolve (DNS)'],
    [gotError('TimeoutError', 'ETIMEDOUT', "Timeout awaiting 'connect' for 20000ms"), 'no-network', 'the connection to github.com timed out'],
    [gotError('RequestError', 'ECONNRESET', 'socket hang up'), 'no-network', 'the connection to github.com failed (ECONNRESET)'],
    [Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write', path: '/home/u/.cache/electron/x.zip' }), 'no-space', 'no space left on the disk (writing /home/u/.cache/electron/x.zip)'],
    [new Error('ENOSPC: no space left on device', { cause: Object.assign(new Error('write'), { code: 'ENOSPC' }) }), 'no-space', 'no space left on the disk'],
    [new UnsupportedPlatformError('linux', 'ia32'), 'unsupported-platform', 'Electron publishes no runtime for linux-ia32'],
    [new Error('something odd\nat line two'), 'other', 'something odd'],
  ])('%s', (error, kind, detail) => {
    expect(classifyFetchFailure(error)).toEqual({ kind, detail });
  });

  it("sumchecker's own errors are checksum mismatches", async () => {
    const sumchecker = (await import('sumchecker')).default as unknown as Record<string, new (...a: string[]) => Error>;
    for (const name of ['ChecksumMismatchError', 'NoChecksumFoundError']) expect(classifyFetchFailure(new sumchecker[name]!('x.zip')).kind).toBe('checksum');
  });

  it('an HTTP error names the status and the host that answered', () => {
    const error = Object.assign(new Error('Response code 403 (Forbidden)'), { name: 'HTTPError', code: 'ERR_NON_2XX_3XX_RESPONSE', response: { statusCode: 403, statusMessage: 'Forbidden', url: 'https://objects.githubusercontent.com/x' } });
    expect(classifyFetchFailure(error)).toEqual({ kind: 'refused', detail: 'objects.githubusercontent.com answered HTTP 403 Forbidden' });
  });

  it('no space has its own way to the window', () => {
    expect(fetchFailureSentence(VERSION, { kind: 'no-space', detail: 'no space left on the disk' })).toMatch(/\(no space: no space left on the disk\), so Quire opens in your browser instead \(browser mode\); for the desktop window, free some space and run `npm start` again\.$/);
  });

  it('knows the executable of each released platform, and refuses the rest', () => {
    expect(executableFor('linux', 'arm64')).toBe('electron');
    expect(executableFor('win32', 'ia32')).toBe('electron.exe');
    expect(executableFor('darwin', 'arm64')).toBe('Electron.app/Contents/MacOS/Electron');
    expect(() => executableFor('linux', 'ia32')).toThrow(UnsupportedPlatformError);
    expect(() => executableFor('aix', 'ppc64')).toThrow('Electron publishes no runtime for aix-ppc64');
  });
});

describe('download progress', () => {
  const sink = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, out: { isTTY, write: (t: string) => written.push(t) } };
  };
  const MB = 1024 * 1024;
  const steps = [0, 0.1, 0.26, 0.5, 0.51, 0.8, 1].map((percent) => ({ percent, transferred: percent * 100 * MB, total: 100 * MB }));

  it('on a terminal, redraws one line with the percentage, then ends it', () => {
    const { written, out } = sink(true);
    const bar = progressReporter('Electron', out);
    for (const s of steps) bar.update(s);
    bar.end();
    expect(written).toEqual(['\rElectron: 0% (0 of 100 MB)', '\rElectron: 10% (10 of 100 MB)', '\rElectron: 26% (26 of 100 MB)', '\rElectron: 50% (50 of 100 MB)', '\rElectron: 51% (51 of 100 MB)', '\rElectron: 80% (80 of 100 MB)', '\rElectron: 100% (100 of 100 MB)', '\n']);
  });

  it('in a log, writes a plain line at each quarter only', () => {
    const { written, out } = sink(false);
    const bar = progressReporter('Electron', out);
    for (const s of steps) bar.update(s);
    bar.end();
    expect(written).toEqual(['Electron: 0% (0 of 100 MB)\n', 'Electron: 25% (26 of 100 MB)\n', 'Electron: 50% (50 of 100 MB)\n', 'Electron: 75% (80 of 100 MB)\n', 'Electron: 100% (100 of 100 MB)\n']);
  });
});
