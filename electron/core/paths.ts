import os from 'node:os';
import path from 'node:path';

/**
 * Where Quire keeps its database when not told otherwise: the platform's per-user data folder
 * (~/.local/share/quire on Linux, honouring XDG_DATA_HOME). QUIRE_DB overrides it.
 */
export function defaultDatabasePath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.QUIRE_DB && env.QUIRE_DB.trim() !== '') return path.resolve(env.QUIRE_DB);
  const home = os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Quire', 'quire.db');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Quire', 'quire.db');
  const dataHome = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  return path.join(dataHome, 'quire', 'quire.db');
}

/** The evaluation indexes live next to the database they belong with (the desktop app's too). */
export function evalIndexDir(databaseFile: string): string {
  return path.join(path.dirname(databaseFile), 'eval-indexes');
}

/** Each chat and embedding model's vocabulary, fetched from Ollama once per model version (core/tokens). */
export function vocabularyDir(databaseFile: string): string {
  return path.join(path.dirname(path.resolve(databaseFile)), 'vocabularies');
}
