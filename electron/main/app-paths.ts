/**
 * Where the Electron shell finds things. The renderer is <app path>/dist/renderer (inside app.asar
 * when packaged; Electron's fs reads it there). The sample notes are handed to the importer and
 * may be opened by the OS, so a copy in app.asar.unpacked is preferred when one exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { evalIndexDir } from '../core/engine';
import { asarUnpackedPath } from './native';

export const DATABASE_FILE_NAME = 'quire.db';
export const PRELOAD_FILE_NAME = 'preload.cjs';

export interface AppPathInputs {
  /** app.getAppPath() */
  appPath: string;
  /** app.getPath('userData') */
  userData: string;
  /** The directory of the main bundle (bundleDir()). */
  mainDir: string;
  isPackaged: boolean;
  exists?: (p: string) => boolean;
}

export interface AppPaths {
  rendererDir: string;
  preload: string;
  databaseFile: string;
  sampleNotesDir: string;
  /** The evaluation indexes (one database per embedding model × chunker); rebuilt when missing. */
  evalDir: string;
}

export function appPaths({ appPath, userData, mainDir, isPackaged, exists = fs.existsSync }: AppPathInputs): AppPaths {
  const unpackedIfPresent = (p: string) => {
    if (!isPackaged) return p;
    const unpacked = asarUnpackedPath(p);
    return unpacked !== p && exists(unpacked) ? unpacked : p;
  };
  return {
    rendererDir: path.join(appPath, 'dist', 'renderer'),
    preload: path.join(mainDir, PRELOAD_FILE_NAME),
    databaseFile: path.join(userData, DATABASE_FILE_NAME),
    sampleNotesDir: unpackedIfPresent(path.join(appPath, 'resources', 'sample-notes')),
    evalDir: evalIndexDir(path.join(userData, DATABASE_FILE_NAME)),
  };
}
