/**
 * Fetches Electron's runtime the way the electron package's own postinstall would, but at
 * `npm start` instead of at install time. package.json's allowScripts denies that postinstall, so
 * `npm install` never depends on reaching Electron's releases (nor runs a script that downloads a
 * binary); the first `npm start` fetches it, and a failure there only means browser mode.
 *
 * @electron/get does the download: mirror variables, proxy, its shared download cache, and the
 * SHA-256 check against the release's SHASUMS256.txt (or the same sums the electron package ships
 * in checksums.json) before anything reaches the cache. The zip is then unpacked beside its final
 * folder and renamed into place, so a failure leaves no half-unpacked runtime behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { downloadArtifact, initializeProxy } from '@electron/get';
import extract from 'extract-zip';

/** Where Electron publishes a runtime (Node's platform and arch names). */
const RELEASED: Record<string, readonly string[]> = {
  darwin: ['x64', 'arm64'],
  linux: ['x64', 'arm64', 'arm'],
  win32: ['x64', 'arm64', 'ia32'],
};

/** The executable inside the release zip, as the electron package's install.js names it in path.txt. */
const EXECUTABLE: Record<string, string> = {
  darwin: 'Electron.app/Contents/MacOS/Electron',
  linux: 'electron',
  win32: 'electron.exe',
};

export class UnsupportedPlatformError extends Error {
  constructor(
    readonly platform: string,
    readonly arch: string,
  ) {
    super(`Electron publishes no runtime for ${platform}-${arch}`);
    this.name = 'UnsupportedPlatformError';
  }
}

export type DownloadProgress = { percent: number; transferred: number; total?: number };

export type FetchRequest = {
  version: string;
  platform: string;
  arch: string;
  /** The folder the runtime is unpacked to: the electron package's dist/, or ELECTRON_OVERRIDE_DIST_PATH. */
  distDir: string;
  /** The electron package's path.txt (the executable's path inside dist/), written last. */
  pathTxt: string;
  /** @electron/get's download cache; undefined is its default, shared with Electron's installer. */
  cacheRoot?: string;
  /** Pinned sums (file name to SHA-256); undefined checks against the mirror's SHASUMS256.txt. */
  checksums?: Record<string, string>;
  /** Where the download lands before it is checked; undefined is the system's temp folder. */
  tempDirectory?: string;
  onProgress?: (progress: DownloadProgress) => void;
  /** Extra options for the downloader (got): tests turn retries off. */
  downloadOptions?: Record<string, unknown>;
};

/** A lost connection is retried by got; one that hangs gives up instead of waiting forever. */
const TIMEOUTS = { lookup: 15_000, connect: 20_000, secureConnect: 20_000, socket: 60_000, response: 60_000 };

export function executableFor(platform: string, arch: string): string {
  const executable = EXECUTABLE[platform];
  if (executable === undefined || !RELEASED[platform]?.includes(arch)) throw new UnsupportedPlatformError(platform, arch);
  return executable;
}

/** Proxy variables (HTTPS_PROXY and friends, or global-agent's GLOBAL_AGENT_*) route the download through a proxy. */
export function useProxyFromEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
  const names = Object.keys(env).map((k) => k.toUpperCase());
  const wanted = names.some((n) => /^(?:GLOBAL_AGENT_)?HTTPS?_PROXY$/.test(n) || n === 'ELECTRON_GET_USE_PROXY');
  if (wanted) initializeProxy();
  return wanted;
}

/** Downloads, checks and unpacks the runtime; returns the executable's path, or throws (see electron-fetch-failure.ts). */
export async function fetchElectronRuntime(req: FetchRequest): Promise<string> {
  const executable = executableFor(req.platform, req.arch);
  // @electron/get would draw its own bar after 30 s; start.ts shows progress from the first byte instead.
  process.env.ELECTRON_GET_NO_PROGRESS = '1';
  let finished = false;
  const zip = await downloadArtifact({
    version: req.version,
    artifactName: 'electron',
    platform: req.platform,
    arch: req.arch,
    cacheRoot: req.cacheRoot,
    checksums: req.checksums,
    tempDirectory: req.tempDirectory,
    downloadOptions: {
      quiet: true,
      timeout: TIMEOUTS,
      ...req.downloadOptions,
      // The same options fetch SHASUMS256.txt after the zip; its progress is not the runtime's.
      getProgressCallback: async (p: DownloadProgress) => {
        if (finished) return;
        req.onProgress?.(p);
        if (p.percent >= 1) finished = true;
      },
    },
  });
  await unpackInPlace(zip, req.distDir, executable);
  writeAtomically(req.pathTxt, executable);
  return path.join(req.distDir, executable);
}

/** Unpacks into a sibling folder, then renames it over distDir: distDir is either whole or untouched. */
async function unpackInPlace(zip: string, distDir: string, executable: string): Promise<void> {
  fs.mkdirSync(path.dirname(distDir), { recursive: true });
  const staging = fs.mkdtempSync(`${distDir}.partial-`);
  const previous = `${staging}.previous`;
  try {
    await extract(zip, { dir: staging });
    if (!fs.existsSync(path.join(staging, executable))) throw new Error(`the release zip holds no ${executable}`);
    fs.chmodSync(staging, 0o755); // mkdtemp's folder is private; the runtime's is not.
    // What was there holds no runtime (else nothing would be fetched), but it goes back if the swap fails.
    if (fs.existsSync(distDir)) fs.renameSync(distDir, previous);
    try {
      fs.renameSync(staging, distDir);
    } catch (err) {
      if (fs.existsSync(previous)) fs.renameSync(previous, distDir);
      throw err;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(previous, { recursive: true, force: true });
  }
}

function writeAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}
