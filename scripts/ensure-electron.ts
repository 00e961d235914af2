/**
 * `npm start`'s first step: Electron's runtime if it is here, else fetched now (electron-fetch.ts),
 * else the one sentence saying why not, after which start.ts opens browser mode.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { progressReporter } from './download-progress';
import { fetchElectronRuntime, useProxyFromEnvironment } from './electron-fetch';
import { electronBinary } from './electron-runtime';
import { browserModeSentence, classifyFetchFailure, fetchFailureSentence } from './electron-fetch-failure';

const require = createRequire(import.meta.url);

export type StartRuntime = { path: string; version: string } | { path: null; sentence: string };

type Out = { write(text: string): unknown; isTTY?: boolean };

export async function ensureElectronRuntime(env: NodeJS.ProcessEnv = process.env, out: Out = process.stderr): Promise<StartRuntime> {
  const here = electronBinary();
  if (here.path !== null) return here;
  let version: string;
  try {
    version = (require('electron/package.json') as { version: string }).version;
  } catch {
    return { path: null, sentence: browserModeSentence(here.reason) };
  }
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    return { path: null, sentence: browserModeSentence(`Electron ${version}'s runtime is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD says not to download it`) };
  }

  const electronDir = path.dirname(require.resolve('electron/package.json'));
  const label = `Quire: downloading Electron ${version}'s runtime for ${process.platform}-${process.arch}`;
  out.write(`${label} (first start only; kept in Electron's download cache)\n`);
  const progress = progressReporter(label, out);
  try {
    useProxyFromEnvironment(env);
    const binary = await fetchElectronRuntime({
      version,
      platform: process.platform,
      arch: process.arch,
      distDir: env.ELECTRON_OVERRIDE_DIST_PATH || path.join(electronDir, 'dist'),
      pathTxt: path.join(electronDir, 'path.txt'),
      cacheRoot: env.electron_config_cache || undefined,
      // As the electron package's installer: the sums it ships (npm checked them with the package), or
      // the mirror's own SHASUMS256.txt when asked, for a mirror serving builds of its own.
      checksums: env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums ? undefined : (require('electron/checksums.json') as Record<string, string>),
      onProgress: (p) => progress.update(p),
    });
    progress.end();
    out.write(`Quire: Electron ${version}'s runtime is in place (${binary}).\n`);
    return { path: binary, version };
  } catch (error) {
    progress.end();
    return { path: null, sentence: fetchFailureSentence(version, classifyFetchFailure(error)) };
  }
}
