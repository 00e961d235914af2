import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QuireError } from '../../shared/errors';
import type { Db, OpenOptions } from '../core/db/open';
import { asarUnpackedPath, betterSqliteBinding, classifyOpenError, DEVELOPMENT_ONLY_ENV, dropDevelopmentSwitches, NativeLoadError, openDatabaseForElectron, sqliteVecPathFor, type RuntimeVersions } from './native';

const RUNTIME: RuntimeVersions = { modules: '140', electron: '39.8.10', node: '22.20.0', platform: 'linux', arch: 'x64' };

describe('sqliteVecPathFor', () => {
  it.each([
    ['/opt/Quire/resources/app.asar/node_modules/sqlite-vec-linux-x64/vec0.so', '/opt/Quire/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so'],
    [
      '/Applications/Quire.app/Contents/Resources/app.asar/node_modules/sqlite-vec-darwin-arm64/vec0.dylib',
      '/Applications/Quire.app/Contents/Resources/app.asar.unpacked/node_modules/sqlite-vec-darwin-arm64/vec0.dylib',
    ],
    [
      'C:\\Program Files\\Quire\\resources\\app.asar\\node_modules\\sqlite-vec-windows-x64\\vec0.dll',
      'C:\\Program Files\\Quire\\resources\\app.asar.unpacked\\node_modules\\sqlite-vec-windows-x64\\vec0.dll',
    ],
    ['C:/Quire/resources/app.asar/node_modules/x/vec0.dll', 'C:/Quire/resources/app.asar.unpacked/node_modules/x/vec0.dll'],
    // Already unpacked: unchanged (idempotent).
    ['/opt/Quire/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so', '/opt/Quire/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so'],
    // Not a whole segment: unchanged.
    ['/home/me/myapp.asar/vec0.so', '/home/me/myapp.asar/vec0.so'],
    ['/home/me/app.asarx/vec0.so', '/home/me/app.asarx/vec0.so'],
    ['/home/me/app.asar.bak/vec0.so', '/home/me/app.asar.bak/vec0.so'],
    // Development: no asar at all.
    ['/work/main/node_modules/sqlite-vec-linux-x64/vec0.so', '/work/main/node_modules/sqlite-vec-linux-x64/vec0.so'],
  ])('%s → %s', (input, expected) => {
    expect(sqliteVecPathFor(input)).toBe(expected);
    expect(sqliteVecPathFor(sqliteVecPathFor(input))).toBe(expected);
  });

  it('rewrites only the first app.asar segment', () => {
    expect(asarUnpackedPath('/r/app.asar/sub/app.asar/x')).toBe('/r/app.asar.unpacked/sub/app.asar/x');
  });
});

describe('betterSqliteBinding', () => {
  it('reads QUIRE_BETTER_SQLITE3_BINDING as an absolute path in development', () => {
    expect(betterSqliteBinding({ QUIRE_BETTER_SQLITE3_BINDING: '/opt/native/better_sqlite3.node' }, false)).toBe('/opt/native/better_sqlite3.node');
    expect(betterSqliteBinding({ QUIRE_BETTER_SQLITE3_BINDING: 'native/b.node' }, false)).toBe(path.resolve('native/b.node'));
  });
  it('is undefined when unset or blank', () => {
    expect(betterSqliteBinding({}, false)).toBeUndefined();
    expect(betterSqliteBinding({ QUIRE_BETTER_SQLITE3_BINDING: '  ' }, false)).toBeUndefined();
  });
  it('is never read by a packaged app', () => {
    expect(betterSqliteBinding({ QUIRE_BETTER_SQLITE3_BINDING: '/tmp/evil.node' }, true)).toBeUndefined();
  });
});

describe('dropDevelopmentSwitches', () => {
  it('clears every switch that loads code in a packaged app, and nothing else', () => {
    const env: Record<string, string | undefined> = { QUIRE_BETTER_SQLITE3_BINDING: '/tmp/evil.node', NODE_BINDINGS_COMPILED_DIR: '../../x', OLLAMA_HOST: 'h', HOME: '/home/me' };
    expect(dropDevelopmentSwitches(env, true).sort()).toEqual([...DEVELOPMENT_ONLY_ENV].sort());
    expect(env).toEqual({ OLLAMA_HOST: 'h', HOME: '/home/me' });
  });
  it('leaves development alone', () => {
    const env = { QUIRE_BETTER_SQLITE3_BINDING: '/dev/build.node' };
    expect(dropDevelopmentSwitches(env, false)).toEqual([]);
    expect(env).toEqual({ QUIRE_BETTER_SQLITE3_BINDING: '/dev/build.node' });
  });
});

describe('classifyOpenError', () => {
  const files = { binding: '/opt/native/better_sqlite3.node', sqliteVec: '/opt/app.asar.unpacked/vec0.so' };

  it('names better-sqlite3, its file and the ABI for an ABI mismatch', () => {
    const e = new Error(
      "The module '/opt/native/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 140.",
    );
    const got = classifyOpenError(e, files, RUNTIME);
    expect(got).toBeInstanceOf(NativeLoadError);
    expect(got).toMatchObject({ module: 'better-sqlite3', file: files.binding });
    expect(got!.message).toContain('ABI 140');
    expect(got!.message).toContain('Electron 39.8.10');
  });

  it('finds the addon file in the message when no binding was given', () => {
    const e = Object.assign(new Error('/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node: invalid ELF header'), { code: 'ERR_DLOPEN_FAILED' });
    expect(classifyOpenError(e, { sqliteVec: files.sqliteVec }, RUNTIME)).toMatchObject({
      module: 'better-sqlite3',
      file: '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    });
  });

  it('names sqlite-vec for the core’s extension failure', () => {
    const e = new QuireError('INTERNAL', `Could not load the sqlite-vec extension from ${files.sqliteVec} (linux-x64): cannot open shared object file`);
    expect(classifyOpenError(e, files, RUNTIME)).toMatchObject({ module: 'sqlite-vec', file: files.sqliteVec });
  });

  it('leaves database errors alone', () => {
    expect(classifyOpenError(new QuireError('DB_NEWER_THAN_APP', 'newer'), files, RUNTIME)).toBeNull();
    expect(classifyOpenError(Object.assign(new Error('unable to open database file'), { name: 'SqliteError', code: 'SQLITE_CANTOPEN' }), files, RUNTIME)).toBeNull();
    expect(classifyOpenError(Object.assign(new Error('EACCES: permission denied, mkdir'), { code: 'EACCES' }), files, RUNTIME)).toBeNull();
    expect(classifyOpenError('a string', files, RUNTIME)).toBeNull();
  });
});

describe('openDatabaseForElectron', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-native-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('passes the rewritten sqlite-vec path when packaged, and never the binding switch', () => {
    const open = vi.fn((_file: string, _options: OpenOptions) => ({}) as Db);
    openDatabaseForElectron('/data/quire.db', {
      isPackaged: true,
      sqliteVecLoadablePath: () => '/opt/Quire/resources/app.asar/node_modules/sqlite-vec-linux-x64/vec0.so',
      env: { QUIRE_BETTER_SQLITE3_BINDING: '/tmp/evil/better_sqlite3.node' },
      open,
      runtime: RUNTIME,
    });
    expect(open).toHaveBeenCalledExactlyOnceWith('/data/quire.db', {
      sqliteVecPath: '/opt/Quire/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so',
    });
  });

  it('passes the binding switch in development', () => {
    const open = vi.fn((_file: string, _options: OpenOptions) => ({}) as Db);
    openDatabaseForElectron('/data/quire.db', { isPackaged: false, sqliteVecLoadablePath: () => '/v.so', env: { QUIRE_BETTER_SQLITE3_BINDING: '/opt/native/better_sqlite3.node' }, open });
    expect(open).toHaveBeenCalledExactlyOnceWith('/data/quire.db', { sqliteVecPath: '/v.so', nativeBinding: '/opt/native/better_sqlite3.node' });
  });

  it('leaves the path alone in development and omits an absent binding', () => {
    const open = vi.fn((_file: string, _options: OpenOptions) => ({}) as Db);
    openDatabaseForElectron('/data/quire.db', { isPackaged: false, sqliteVecLoadablePath: () => '/repo/node_modules/x/vec0.so', open });
    expect(open.mock.calls[0]![1]).toStrictEqual({ sqliteVecPath: '/repo/node_modules/x/vec0.so' });
  });

  it('opens a real database with the Node build (the test runtime)', () => {
    const db = openDatabaseForElectron(path.join(tmp, 'ok.db'), { isPackaged: false, sqliteVecLoadablePath: () => sqliteVec.getLoadablePath() });
    expect(db.prepare('select vec_version() as v').get()).toHaveProperty('v');
    db.close();
  });

  it('a missing Electron-ABI binding becomes a NativeLoadError naming it', () => {
    const binding = path.join(tmp, 'missing', 'better_sqlite3.node');
    expect(() =>
      openDatabaseForElectron(path.join(tmp, 'a.db'), { isPackaged: false, sqliteVecLoadablePath: () => sqliteVec.getLoadablePath(), env: { QUIRE_BETTER_SQLITE3_BINDING: binding }, runtime: RUNTIME }),
    ).toThrow(expect.objectContaining({ name: 'NativeLoadError', module: 'better-sqlite3', file: binding }));
  });

  it('a binding that is not a loadable addon becomes a NativeLoadError', () => {
    const binding = path.join(tmp, 'garbage.node');
    fs.writeFileSync(binding, 'not an ELF file');
    expect(() =>
      openDatabaseForElectron(path.join(tmp, 'b.db'), { isPackaged: false, sqliteVecLoadablePath: () => sqliteVec.getLoadablePath(), env: { QUIRE_BETTER_SQLITE3_BINDING: binding }, runtime: RUNTIME }),
    ).toThrow(expect.objectContaining({ module: 'better-sqlite3', file: binding }));
  });

  it('an unloadable sqlite-vec becomes a NativeLoadError naming the library', () => {
    const vec = path.join(tmp, 'app.asar', 'vec0.so');
    expect(() => openDatabaseForElectron(path.join(tmp, 'c.db'), { isPackaged: true, sqliteVecLoadablePath: () => vec, runtime: RUNTIME })).toThrow(
      expect.objectContaining({ module: 'sqlite-vec', file: path.join(tmp, 'app.asar.unpacked', 'vec0.so') }),
    );
  });

  it('sqlite-vec’s package missing for the platform becomes a NativeLoadError', () => {
    const err = (() => {
      try {
        openDatabaseForElectron(path.join(tmp, 'd.db'), {
          isPackaged: true,
          sqliteVecLoadablePath: () => {
            throw new Error('Unsupported platform for sqlite-vec');
          },
          runtime: RUNTIME,
        });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(NativeLoadError);
    expect(err).toMatchObject({ module: 'sqlite-vec', detail: 'Unsupported platform for sqlite-vec' });
  });

  it('other failures pass through unchanged', () => {
    const boom = new QuireError('DB_CORRUPT', 'corrupt');
    expect(() =>
      openDatabaseForElectron('/x.db', {
        isPackaged: false,
        sqliteVecLoadablePath: () => '/v.so',
        open: () => {
          throw boom;
        },
      }),
    ).toThrow(boom);
  });
});
