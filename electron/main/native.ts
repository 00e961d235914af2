/**
 * The two native pieces the database needs, made to work inside Electron: better-sqlite3's addon
 * built for Electron's ABI (kept outside node_modules, whose build stays Node's for the tests) and
 * sqlite-vec's loadable library, which the OS cannot load from inside app.asar. A failure to load
 * either becomes a NativeLoadError naming the file and the ABI, for the startup error window.
 */
import path from 'node:path';
import { isQuireError } from '../../shared/errors';
import { openDatabase, type Db, type OpenOptions } from '../core/engine';

export const BETTER_SQLITE3_BINDING_ENV = 'QUIRE_BETTER_SQLITE3_BINDING';

/**
 * The same path with its `app.asar` segment replaced by `app.asar.unpacked`, where electron-builder
 * puts files listed in asarUnpack. Only a whole path segment is rewritten (not `myapp.asar`, not an
 * already unpacked path), with either separator.
 */
export function asarUnpackedPath(p: string): string {
  return p.replace(/(^|[\\/])app\.asar(?=[\\/]|$)/, '$1app.asar.unpacked');
}

/** sqlite-vec's loadable library path, moved out of app.asar. */
export function sqliteVecPathFor(loadablePath: string): string {
  return asarUnpackedPath(loadablePath);
}

type Env = NodeJS.ProcessEnv | Record<string, string | undefined>;

/**
 * Environment switches that load code or move where it is loaded from: ours (the development
 * build of better-sqlite3 that `npm start` points at) and the `bindings` package's compiled-addon
 * folder, which better-sqlite3 reads from process.env itself. Anyone who can set a variable for
 * the app could make it load their library, so a packaged app honours none of them.
 */
export const DEVELOPMENT_ONLY_ENV = [BETTER_SQLITE3_BINDING_ENV, 'NODE_BINDINGS_COMPILED_DIR'] as const;

/** In a packaged app, removes the development-only switches from `env` (process.env); returns those it removed. */
export function dropDevelopmentSwitches(env: Env, isPackaged: boolean): string[] {
  if (!isPackaged) return [];
  const dropped = DEVELOPMENT_ONLY_ENV.filter((name) => env[name] !== undefined);
  for (const name of dropped) delete env[name];
  return dropped;
}

/** The Electron-ABI better-sqlite3 addon named by QUIRE_BETTER_SQLITE3_BINDING, absolute; never in a packaged app. */
export function betterSqliteBinding(env: Env, isPackaged: boolean): string | undefined {
  if (isPackaged) return undefined;
  const value = env[BETTER_SQLITE3_BINDING_ENV]?.trim();
  return value ? path.resolve(value) : undefined;
}

export type NativeModule = 'better-sqlite3' | 'sqlite-vec';

export interface RuntimeVersions {
  /** process.versions.modules: the ABI native addons must be built for. */
  modules: string;
  electron: string | null;
  node: string;
  platform: string;
  arch: string;
}

export function runtimeVersions(): RuntimeVersions {
  const v = process.versions as NodeJS.ProcessVersions & { electron?: string };
  return { modules: v.modules, electron: v.electron ?? null, node: v.node, platform: process.platform, arch: process.arch };
}

/** A native library that could not be loaded: which one, from which file, under which ABI. */
export class NativeLoadError extends Error {
  override readonly name = 'NativeLoadError';
  constructor(
    readonly module: NativeModule,
    readonly file: string,
    readonly runtime: RuntimeVersions,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Could not load ${module} from ${file} (Electron ${runtime.electron ?? 'unknown'}, ABI ${runtime.modules}, ` +
        `${runtime.platform}-${runtime.arch}): ${detail}`,
      options,
    );
  }
}

const BINDING_FAILURE = /NODE_MODULE_VERSION|Could not locate the bindings file|compiled against a different Node\.js version|invalid ELF header|wrong ELF class|not a valid Win32 application|mach-o|dlopen|cannot open shared object|\.node\b/i;
const BINDING_CODES = new Set(['ERR_DLOPEN_FAILED', 'MODULE_NOT_FOUND']);

/** The addon file a better-sqlite3 load error talks about, when it names one. */
function addonFileIn(message: string): string | null {
  const match = /([^\s'"`]+\.node)\b/.exec(message);
  return match?.[1] ?? null;
}

/**
 * Whether an error thrown while opening the database is a native load failure, and of what.
 * sqlite-vec's failure is the core's QuireError naming the library path; better-sqlite3's is a
 * plain Error from dlopen/require (SqliteError and other QuireErrors are not native failures).
 */
export function classifyOpenError(e: unknown, files: { binding?: string | undefined; sqliteVec: string }, runtime: RuntimeVersions = runtimeVersions()): NativeLoadError | null {
  if (e instanceof NativeLoadError) return e;
  if (!(e instanceof Error)) return null;
  if (isQuireError(e)) {
    return e.message.includes(files.sqliteVec) ? new NativeLoadError('sqlite-vec', files.sqliteVec, runtime, e.message, { cause: e }) : null;
  }
  if (e.name === 'SqliteError') return null;
  const code = (e as NodeJS.ErrnoException).code;
  if ((code && BINDING_CODES.has(code)) || BINDING_FAILURE.test(e.message)) {
    const file = files.binding ?? addonFileIn(e.message) ?? "better-sqlite3's build in node_modules";
    return new NativeLoadError('better-sqlite3', file, runtime, e.message, { cause: e });
  }
  return null;
}

export interface ElectronOpenOptions {
  /** app.isPackaged: sqlite-vec is then loaded from app.asar.unpacked. */
  isPackaged: boolean;
  /** sqlite-vec's loadable path as its package reports it (getLoadablePath); throwing means not installed. */
  sqliteVecLoadablePath: () => string;
  /** Where QUIRE_BETTER_SQLITE3_BINDING is read (development only); without it, the package's own build. */
  env?: Env;
  /** The opener, for tests; the core's openDatabase otherwise. */
  open?: (file: string, options: OpenOptions) => Db;
  runtime?: RuntimeVersions;
}

/** openDatabase with Electron's native paths; native load failures become NativeLoadError. */
export function openDatabaseForElectron(file: string, options: ElectronOpenOptions): Db {
  const runtime = options.runtime ?? runtimeVersions();
  let sqliteVecPath: string;
  try {
    const loadable = options.sqliteVecLoadablePath();
    sqliteVecPath = options.isPackaged ? sqliteVecPathFor(loadable) : loadable;
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw new NativeLoadError('sqlite-vec', `sqlite-vec's ${runtime.platform}-${runtime.arch} package`, runtime, detail, { cause: e });
  }
  const open = options.open ?? openDatabase;
  const nativeBinding = betterSqliteBinding(options.env ?? {}, options.isPackaged);
  try {
    return open(file, { sqliteVecPath, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch (e) {
    throw classifyOpenError(e, { binding: nativeBinding, sqliteVec: sqliteVecPath }, runtime) ?? e;
  }
}
