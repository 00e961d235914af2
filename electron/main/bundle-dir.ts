/**
 * The directory of the running main bundle (dist/electron/), where preload.cjs sits next to
 * main.cjs. Main is bundled by esbuild to CommonJS, whose module wrapper provides __dirname; this
 * module-local declaration keeps the type honest (it is absent under ESM, e.g. in vitest).
 */
declare const __dirname: string | undefined;

export function bundleDir(): string {
  if (typeof __dirname !== 'string') {
    throw new Error('Quire’s Electron main must run as the CommonJS bundle (dist/electron/main.cjs), where __dirname exists.');
  }
  return __dirname;
}
