import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronBinary } from '../scripts/electron-runtime';
import { tempDbPath } from './support/notes';

const ROOT = path.resolve(__dirname, '..');

describe('electron-builder.yml', () => {
  const yml = fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8');
  const has = (re: RegExp) => expect(yml).toMatch(re);

  it('names the app and its targets', () => {
    has(/^appId: \S+/m);
    has(/^productName: Quire$/m);
    has(/^linux:\n\s+target:\n\s+- AppImage\n\s+- deb$/m);
    has(/^mac:\n\s+target:\n\s+- dmg$/m);
    has(/^win:\n\s+target:\n\s+- nsis$/m);
  });

  it('unpacks every native piece from the asar and rebuilds for Electron', () => {
    for (const glob of ['**/node_modules/better-sqlite3/**', '**/node_modules/bindings/**', '**/node_modules/file-uri-to-path/**', '**/node_modules/sqlite-vec-*/**']) {
      expect(yml).toContain(`  - "${glob}"`);
    }
    has(/^npmRebuild: true$/m);
  });

  it('sets the fuses: no run-as-node, no NODE_OPTIONS, no inspector; asar only, with integrity', () => {
    has(/^electronFuses:\n(?:\s{2}.+\n)+/m);
    for (const line of ['runAsNode: false', 'enableNodeOptionsEnvironmentVariable: false', 'enableNodeCliInspectArguments: false', 'onlyLoadAppFromAsar: true', 'enableEmbeddedAsarIntegrityValidation: true']) {
      expect(yml).toContain(`  ${line}`);
    }
  });

  it('keeps sources out of the package and points main at the bundle', () => {
    has(/"!\{electron,renderer,shared,scripts,test,bench-results,test-results\}\/\*\*"/);
    has(/main: dist\/electron\/main\.cjs/);
    // pdfjs-dist's optional native canvas stays out: text extraction does not need it.
    has(/"!\*\*\/node_modules\/@napi-rs\/\*\*"/);
  });
});

describe('the Electron bundles', () => {
  it('build: main keeps node_modules external, the sandboxed preload requires only electron', async () => {
    const { buildElectron } = await import('../scripts/build-electron');
    const out = await buildElectron();
    const preload = fs.readFileSync(out.preload, 'utf8');
    expect([...new Set(preload.match(/require\("[^"]+"\)/g))]).toEqual(['require("electron")']);
    expect(preload).toContain('exposeInMainWorld');
    // The method names are in, as a literal from the contract; zod and the schemas are not.
    const { METHOD_NAMES } = await import('../shared/contract');
    const literal = /METHOD_NAMES = (\[[^\]]*\]);/.exec(preload)?.[1];
    expect(JSON.parse(literal ?? 'null')).toEqual(METHOD_NAMES);
    expect(preload).not.toMatch(/zod|ZodError/);
    expect(Buffer.byteLength(preload)).toBeLessThan(20_000);
    const main = fs.readFileSync(out.main, 'utf8');
    for (const external of ['better-sqlite3', 'sqlite-vec', 'electron']) expect(main).toContain(`require("${external}")`);
  }, 60_000);

  it('the bundled parse worker reads and chunks a note in plain Node (CommonJS interop of its packages included)', async () => {
    const { buildElectron } = await import('../scripts/build-electron');
    const { ParsePool } = await import('../electron/core/ingest/parse/parse-pool');
    const pool = new ParsePool({ script: (await buildElectron()).parseWorker });
    try {
      const parsed = await pool.parse({ relPath: 'notes/keys.md', bytes: new TextEncoder().encode('Keys\n====\n\nWe rotate the <b>deploy</b> keys every 90 days.\n'), chunker: { kind: 'heading', maxTokens: 256 } });
      expect(parsed.title).toBe('Keys');
      expect(parsed.chunks).toHaveLength(1);
      expect(parsed.chunks[0]!.text).toMatch(/^# Keys\n+We rotate the deploy keys every 90 days\.$/);
      expect(parsed.chunks[0]!.tokenCount).toBeGreaterThan(5);
      // pdfjs-dist and mammoth, required from CommonJS as the app's worker requires them.
      const { makePdf } = await import('./support/pdf');
      const { docx } = await import('./support/docx');
      const pdf = await pool.parse({ relPath: 'guide.pdf', bytes: makePdf({ pages: [['The lighthouse keeper.'], ['The fog horn sounds at dusk.']] }), chunker: { kind: 'heading', maxTokens: 256 } });
      expect(pdf.chunks.map((c) => c.pages)).toEqual([[1, 2]]);
      expect(pdf.chunks.some((c) => c.text.includes('fog horn'))).toBe(true);
      const word = await pool.parse({ relPath: 'plan.docx', bytes: docx([{ heading: 1, text: 'Plan' }, { text: 'Plant the tulips in October.' }]), chunker: { kind: 'heading', maxTokens: 256 } });
      expect(word.title).toBe('Plan');
      expect(word.chunks.some((c) => c.text.includes('tulips in October'))).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

// What this machine has: the tests below that need the runtime skip without it, and those about a
// missing runtime stage that themselves, so every test means the same on any machine.
const runtimeHere = electronBinary();
const NO_RUNTIME = runtimeHere.path === null ? ` (skipped: ${runtimeHere.reason})` : '';
const electronVersion = (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;

describe('finding the Electron runtime', () => {
  it.skipIf(runtimeHere.path === null)(`finds this machine's runtime binary and its version${NO_RUNTIME}`, () => {
    expect(runtimeHere.path).not.toBeNull();
    expect(fs.statSync(runtimeHere.path!).isFile()).toBe(true);
    expect(runtimeHere).toMatchObject({ version: electronVersion });
  });

  it('accepts a binary that exists', () => {
    expect(electronBinary(() => process.execPath)).toEqual({ path: process.execPath, version: electronVersion });
  });

  it('says the binary is missing when the package points at nothing', () => {
    const runtime = electronBinary(() => path.join(ROOT, 'no-such-electron-dist', 'electron'));
    expect(runtime.path).toBeNull();
    expect('reason' in runtime && runtime.reason).toBe(`Electron ${electronVersion}'s runtime binary is missing`);
  });

  it('says the binary was never downloaded when the package cannot tell where it is', () => {
    const runtime = electronBinary(() => {
      throw new Error('Electron failed to install correctly');
    });
    expect(runtime.path).toBeNull();
    expect('reason' in runtime && runtime.reason).toMatch(/^Electron \S+'s runtime binary was never downloaded/);
  });
});

describe('npm start without the Electron runtime', () => {
  it('tries to fetch it, says in one sentence why it could not, and starts browser mode, printing the URL', async () => {
    const db = tempDbPath('quire-start-');
    // A loopback port with nobody listening: the mirror the fetch is sent to, so it fails at once, offline.
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/electron_(?:mirror|custom|nightly)|proxy/i.test(k)));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/start.ts'), '--no-build', '--port', '0'], {
      cwd: ROOT,
      env: {
        ...env,
        QUIRE_DB: db.file,
        // Electron's own override sends the lookup (and the unpacking) to an empty place: no runtime, whatever this machine has.
        ELECTRON_OVERRIDE_DIST_PATH: path.join(db.file, '..', 'no-electron-here'),
        ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
        electron_config_cache: path.join(db.file, '..', 'electron-cache'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    try {
      const deadline = Date.now() + 30_000;
      while (!/Quire is running at/.test(stdout) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      expect(stdout).toMatch(/^Quire is running at http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/m);
      const [first, second] = stderr.split('\n');
      expect(first).toMatch(/^Quire: downloading Electron \S+'s runtime for \S+ \(first start only; kept in Electron's download cache\)$/);
      expect(second).toBe(
        `Quire: Electron ${electronVersion}'s runtime could not be downloaded (no network: 127.0.0.1:${port} refused the connection), so Quire opens in your browser instead (browser mode); ` +
          'for the desktop window, set ELECTRON_MIRROR to a mirror you can reach, or build the packaged app with `npm run dist`.',
      );
      expect(fs.existsSync(path.join(db.file, '..', 'no-electron-here'))).toBe(false);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
      db.dispose();
    }
  }, 40_000);
});
