import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Dependency hygiene: the lockfile is the only source of versions, install scripts run only where
 * something must build, and the renderer's bundle neither evaluates strings as code nor names a
 * remote address (the CSP would block both; this catches them before a user's console does).
 */
const ROOT = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, { version?: string; resolved?: string; integrity?: string; link?: boolean; hasInstallScript?: boolean; dev?: boolean }>;
};

describe('versions come from the lockfile', () => {
  it('every direct dependency is pinned exactly, to the version the lockfile holds', () => {
    for (const [name, spec] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
      expect(spec, name).toMatch(/^\d+\.\d+\.\d+(?:-[\w.]+)?$/);
      expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(spec);
    }
  });

  it('every locked package comes from the npm registry with a sha512 integrity, none linked or from git or a file', () => {
    expect(lock.lockfileVersion).toBeGreaterThanOrEqual(3);
    const entries = Object.entries(lock.packages).filter(([key]) => key !== '');
    expect(entries.length).toBeGreaterThan(100);
    for (const [key, entry] of entries) {
      expect(entry.link, key).toBeUndefined();
      // An absent `resolved` is the default registry; anything else must be it too.
      if (entry.resolved !== undefined) expect(entry.resolved, key).toMatch(/^https:\/\/registry\.npmjs\.org\//);
      expect(entry.integrity, key).toMatch(/^sha512-/);
      expect(entry.version, key).toMatch(/^\d+\.\d+\.\d+/);
    }
  });
});

describe('install scripts', () => {
  // better-sqlite3 is a native addon with no prebuilt binary for every platform; esbuild's script
  // checks (and, without its optional platform package, fetches) its binary, used by the Electron build.
  const MUST_BUILD = ['better-sqlite3', 'esbuild'];

  it('allowScripts names every package with an install script, and allows only those that must build', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, e]) => e.hasInstallScript)
      .map(([key]) => key.replace(/^.*node_modules\//, ''));
    expect(Object.keys(pkg.allowScripts).sort()).toEqual([...new Set(withScripts)].sort());
    expect(Object.entries(pkg.allowScripts).filter(([, allowed]) => allowed).map(([name]) => name).sort()).toEqual(MUST_BUILD);
  });
});

describe('the renderer bundle', () => {
  /** Every module the production build puts in a chunk, with its code as bundled, plus the other files. */
  let built: Promise<{ modules: Array<{ id: string; code: string }>; files: Array<{ name: string; text: string }> }> | undefined;
  /** Built once for the tests that read it. */
  const buildRenderer = () => (built ??= buildOnce());
  async function buildOnce(): Promise<{ modules: Array<{ id: string; code: string }>; files: Array<{ name: string; text: string }> }> {
    const { build } = await import('vite');
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bundle-'));
    // The shipped build: vitest's NODE_ENV=test would make Vite bundle React's development build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const result = await build({ configFile: path.join(ROOT, 'vite.config.ts'), mode: 'production', logLevel: 'silent', build: { outDir, emptyOutDir: true, write: false } });
      const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
      const modules: Array<{ id: string; code: string }> = [];
      const files: Array<{ name: string; text: string }> = [];
      for (const o of outputs) {
        if (o.type === 'chunk') {
          files.push({ name: o.fileName, text: o.code });
          for (const [id, m] of Object.entries(o.modules)) modules.push({ id, code: m.code ?? '' });
        } else {
          files.push({ name: o.fileName, text: typeof o.source === 'string' ? o.source : Buffer.from(o.source).toString('utf8') });
        }
      }
      return { modules, files };
    } finally {
      process.env.NODE_ENV = nodeEnv;
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  }

  // eval(...), the Function constructor called or newed, or taken into an alias (`let e = Function; new e(...)`).
  const EVALUATES = /(?<![\w$.])(?:eval|Function)\s*\(|\bnew\s+Function\b|[=:,(]\s*Function\s*[;,)}]/;
  // zod's JIT: a probe (skipped under jitless) and the compiler it guards. renderer/src/zod-jitless.ts
  // turns it off, so neither runs; the CSP (no 'unsafe-eval') would refuse them anyway.
  const ZOD_JIT = ['zod/v4/core/util.js', 'zod/v4/core/doc.js'];
  // Addresses that are names, never fetched: XML namespaces, JSON Schema ids written by zod's
  // toJSONSchema, React's error-decoder link in its messages, zod's IPv6 check, and Ollama's
  // loopback default shown as a hint in Settings.
  const NAMES_NOT_FETCHED = [
    /^http:\/\/www\.w3\.org\/(?:1999\/xhtml|1999\/xlink|2000\/svg|1998\/Math\/MathML|XML\/1998\/namespace)$/,
    /^https?:\/\/json-schema\.org\/draft(?:-0[47]|\/2020-12)\/schema#?$/,
    /^https:\/\/react\.dev\/errors\/$/,
    /^http:\/\/\[\$\{\w+\}\]$/,
    /^http:\/\/127\.0\.0\.1:11434$/,
    // hast-util-to-jsx-runtime (under react-markdown) names its docs in the `url` of its error
    // messages; nothing fetches it.
    /^https:\/\/github\.com\/syntax-tree\/hast-util-to-jsx-runtime$/,
    // First run's install steps (shared/setup-sentences.ts): a command for the person to copy and
    // Ollama's download page, opened only by the person, in their own browser, never by the app.
    /^https:\/\/ollama\.com\/(?:install\.sh|download);?$/,
    // The bare scheme remark-gfm's autolink literal puts before `www.example.com` to make it a link
    // address. A link in an answer is only ever opened by a person, outside the app (Markdown.tsx).
    /^http:\/\/$/,
  ];

  it('evaluates no strings as code and names no remote address', async () => {
    const { modules, files } = await buildRenderer();
    expect(modules.length).toBeGreaterThan(50);
    const evaluating = modules.filter((m) => EVALUATES.test(m.code)).map((m) => m.id);
    expect(evaluating.map((id) => ZOD_JIT.find((z) => id.endsWith(z)) ?? id).sort()).toEqual([...ZOD_JIT].sort());

    const urls = files.flatMap((f) => [...f.text.matchAll(/\bhttps?:\/\/[^\s"'`)<>\\]*/g)].map((m) => `${f.name}: ${m[0]}`));
    const remote = urls.filter((u) => !NAMES_NOT_FETCHED.some((re) => re.test(u.slice(u.indexOf(': ') + 2))));
    expect(remote).toEqual([]);
    // Nothing loaded from elsewhere by the page itself: no protocol-relative src/href, no @import url(http...).
    for (const f of files) expect(f.text, f.name).not.toMatch(/(?:src|href)\s*=\s*["']?\/\/|url\(\s*["']?(?:https?:)?\/\//i);
  }, 60_000);

  // Vite warns past 500 kB a chunk; `npm start` builds the renderer in front of a person, who should
  // not be shown a bundler's advice.
  it('splits the bundle so no chunk passes the 500 kB Vite warns about', async () => {
    const { files } = await buildRenderer();
    const chunks = files.filter((f) => f.name.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(1);
    const large = chunks.filter((f) => Buffer.byteLength(f.text) > 500 * 1000).map((f) => `${f.name}: ${Buffer.byteLength(f.text)} bytes`);
    expect(large).toEqual([]);
  }, 60_000);

  it('the renderer turns zod\'s JIT off first, before anything parses (renderer/src/zod-jitless.test.tsx checks it does)', () => {
    const main = fs.readFileSync(path.join(ROOT, 'renderer/src/main.tsx'), 'utf8');
    expect(main.split('\n')[0]).toBe("import './zod-jitless';");
  });
});
