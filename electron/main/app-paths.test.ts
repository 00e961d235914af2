import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPaths } from './app-paths';
import { describeStartupError } from './startup-error';
import { NativeLoadError } from './native';
import { QuireError } from '../../shared/errors';

describe('appPaths', () => {
  it('puts the renderer under the app path, the preload next to main and quire.db in userData', () => {
    const p = appPaths({ appPath: '/repo', userData: '/home/me/.config/Quire', mainDir: '/repo/dist/electron', isPackaged: false });
    expect(p).toEqual({
      rendererDir: path.join('/repo', 'dist', 'renderer'),
      preload: path.join('/repo', 'dist', 'electron', 'preload.cjs'),
      databaseFile: path.join('/home/me/.config/Quire', 'quire.db'),
      sampleNotesDir: path.join('/repo', 'resources', 'sample-notes'),
      evalDir: path.join('/home/me/.config/Quire', 'eval-indexes'),
    });
  });

  it('prefers unpacked sample notes when packaged and present', () => {
    const appPath = '/opt/Quire/resources/app.asar';
    const present = new Set(['/opt/Quire/resources/app.asar.unpacked/resources/sample-notes']);
    const p = appPaths({ appPath, userData: '/u', mainDir: `${appPath}/dist/electron`, isPackaged: true, exists: (x) => present.has(x) });
    expect(p.sampleNotesDir).toBe('/opt/Quire/resources/app.asar.unpacked/resources/sample-notes');
    expect(p.evalDir).toBe(path.join('/u', 'eval-indexes'));
    expect(p.rendererDir).toBe('/opt/Quire/resources/app.asar/dist/renderer');
  });
});

describe('describeStartupError', () => {
  it('names the native module, its file and the ABI', () => {
    const e = new NativeLoadError('better-sqlite3', '/opt/native/better_sqlite3.node', { modules: '140', electron: '39.8.10', node: '22.20.0', platform: 'linux', arch: 'x64' }, 'NODE_MODULE_VERSION 115');
    const t = describeStartupError(e, '/u/quire.db');
    expect(t.title).toContain('better-sqlite3');
    expect(t.content).toContain('/opt/native/better_sqlite3.node');
    expect(t.content).toContain('ABI 140');
    expect(t.content).toContain('39.8.10');
    expect(t.content).toContain('QUIRE_BETTER_SQLITE3_BINDING');
  });

  it('names the code and the database for other failures', () => {
    const t = describeStartupError(new QuireError('DB_NEWER_THAN_APP', 'Made by a newer Quire.'), '/u/quire.db');
    expect(t.title).toContain('DB_NEWER_THAN_APP');
    expect(t.content).toContain('/u/quire.db');
    expect(t.content).toContain('Made by a newer Quire.');
  });
});
