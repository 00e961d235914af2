/**
 * What the user sees when Quire cannot start: a native error box (dialog.showErrorBox) with a
 * named title and the facts needed to fix it. A native box needs no renderer, no app:// route and
 * no CSP exception (a data: page would be blocked by the CSP), and works even when the failure is
 * in the very code that would serve a page.
 */
import { toErrorShape } from '../../shared/errors';
import { NativeLoadError } from './native';

export interface StartupErrorText {
  title: string;
  content: string;
}

export function describeStartupError(e: unknown, databaseFile: string): StartupErrorText {
  if (e instanceof NativeLoadError) {
    const rt = e.runtime;
    return {
      title: `Quire cannot start: ${e.module} failed to load`,
      content: [
        `The native library ${e.module} could not be loaded.`,
        '',
        `File: ${e.file}`,
        `Electron: ${rt.electron ?? 'unknown'} (Node ${rt.node}, ABI ${rt.modules}), ${rt.platform}-${rt.arch}`,
        '',
        e.module === 'better-sqlite3'
          ? `It must be built for Electron's ABI ${rt.modules}. In development, point QUIRE_BETTER_SQLITE3_BINDING at such a build (a packaged app ignores it); otherwise reinstall Quire.`
          : "sqlite-vec's library for this platform must be installed and, in a packaged app, unpacked from app.asar.",
        '',
        `Details: ${e.detail}`,
      ].join('\n'),
    };
  }
  const shape = toErrorShape(e);
  return {
    title: `Quire cannot open its database (${shape.code})`,
    content: [`Database: ${databaseFile}`, '', shape.message].join('\n'),
  };
}
