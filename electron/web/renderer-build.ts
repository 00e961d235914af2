import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Whether the built renderer is that of today's sources, so browser mode and `npm start` skip a
 * build that would make the same bundle (measured: 5.6 s to start with the build, 1.7 s without).
 * The fingerprint is of the sources' bytes, not their times: a checkout that touches every file
 * without changing one still counts as unchanged, and an edit that keeps the time still counts.
 */

/** What the bundle is made from: the renderer, the shared contract it imports, the build's config and the locked dependency versions. */
const INPUTS = ['renderer', 'shared', 'vite.config.ts', 'package-lock.json'];

/** Tests are not in the bundle: changing one does not call for a build. */
const NOT_AN_INPUT = /\.test\.tsx?$|(^|\/)node_modules(\/|$)/;

function filesUnder(abs: string, rel: string, out: string[]): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    return; // an input that does not exist (no lockfile) fingerprints as absent
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) filesUnder(path.join(abs, name), `${rel}/${name}`, out);
  } else if (stat.isFile() && !NOT_AN_INPUT.test(rel)) {
    out.push(rel);
  }
}

export function rendererFingerprint(repoRoot: string): string {
  const files: string[] = [];
  for (const input of INPUTS) filesUnder(path.join(repoRoot, input), input, files);
  const hash = createHash('sha256');
  for (const rel of files) {
    hash.update(`${rel}\0`);
    hash.update(fs.readFileSync(path.join(repoRoot, rel)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Beside the output folder, not in it: the build empties that folder, and it is served. */
function stampFile(outDir: string): string {
  return path.join(path.dirname(outDir), `${path.basename(outDir)}.build-stamp`);
}

/** True when `outDir` holds a build of exactly these sources. */
export function rendererBuildIsCurrent(repoRoot: string, outDir: string, fingerprint = rendererFingerprint(repoRoot)): boolean {
  try {
    return fs.existsSync(path.join(outDir, 'index.html')) && fs.readFileSync(stampFile(outDir), 'utf8').trim() === fingerprint;
  } catch {
    return false;
  }
}

/** Records that `outDir` was built from the sources as they were when the build began. */
export function recordRendererBuild(outDir: string, fingerprint: string): void {
  fs.writeFileSync(stampFile(outDir), `${fingerprint}\n`);
}

/**
 * Builds the renderer with Vite unless the last build is of today's sources; `force` builds anyway.
 * Returns whether it built. The fingerprint is taken before building, so an edit made during the
 * build is not taken for built.
 */
export async function buildRendererIfChanged(opts: { repoRoot: string; viteConfig: string; outDir: string; force?: boolean; note?: (line: string) => void }): Promise<boolean> {
  const fingerprint = rendererFingerprint(opts.repoRoot);
  if (!opts.force && rendererBuildIsCurrent(opts.repoRoot, opts.outDir, fingerprint)) {
    opts.note?.('Quire: the renderer is unchanged since its last build; not building it again (--build forces a build).');
    return false;
  }
  opts.note?.('Quire: building the renderer (vite build)…');
  const cwd = process.cwd();
  try {
    process.chdir(opts.repoRoot);
    const { build } = await import('vite');
    await build({ configFile: opts.viteConfig, mode: 'production', logLevel: 'warn' });
  } finally {
    process.chdir(cwd);
  }
  recordRendererBuild(opts.outDir, fingerprint);
  return true;
}
