import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordRendererBuild, rendererBuildIsCurrent, rendererFingerprint } from './renderer-build';

describe('the renderer is rebuilt only when its sources changed', () => {
  let repo: string;
  let out: string;
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  };

  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-renderer-build-'));
    out = path.join(repo, 'dist', 'renderer');
    write('renderer/src/App.tsx', 'export const App = 1;\n');
    write('shared/contract.ts', 'export const API = {};\n');
    write('vite.config.ts', 'export default {};\n');
    write('package-lock.json', '{}\n');
    write('dist/renderer/index.html', '<!doctype html>\n');
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  it('is current after a recorded build, until a source, the shared contract, the config or the lockfile changes', () => {
    expect(rendererBuildIsCurrent(repo, out)).toBe(false); // never built
    recordRendererBuild(out, rendererFingerprint(repo));
    expect(rendererBuildIsCurrent(repo, out)).toBe(true);
    for (const rel of ['renderer/src/App.tsx', 'shared/contract.ts', 'vite.config.ts', 'package-lock.json']) {
      const before = fs.readFileSync(path.join(repo, rel), 'utf8');
      write(rel, `${before}// edited\n`);
      expect(rendererBuildIsCurrent(repo, out), rel).toBe(false);
      write(rel, before);
      expect(rendererBuildIsCurrent(repo, out), rel).toBe(true);
    }
    write('renderer/src/New.tsx', 'export {};\n');
    expect(rendererBuildIsCurrent(repo, out)).toBe(false);
  });

  it('ignores times and tests, and wants the built page to exist', () => {
    recordRendererBuild(out, rendererFingerprint(repo));
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(path.join(repo, 'renderer/src/App.tsx'), future, future);
    write('renderer/src/App.test.tsx', 'it("x", () => {});\n');
    expect(rendererBuildIsCurrent(repo, out)).toBe(true);
    fs.rmSync(path.join(out, 'index.html'));
    expect(rendererBuildIsCurrent(repo, out)).toBe(false);
  });
});
