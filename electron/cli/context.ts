import { createEngine, defaultDatabasePath, type Engine } from '../core/engine';
import type { Output } from './output';

export interface CliContext {
  dbPath: string;
  /** The core's front door: the same engine the app runs, with the settings the app saved. */
  engine: Engine;
  out: Output;
  signal: AbortSignal;
}

/** `env` is where QUIRE_DB (the database when --db is not given) and OLLAMA_HOST are read: process.env for the real CLI. */
export function createContext(opts: { db?: string | undefined; parseWorker?: URL | undefined }, out: Output, signal: AbortSignal, env: NodeJS.ProcessEnv = process.env): CliContext {
  const dbPath = opts.db ?? defaultDatabasePath(env);
  return { dbPath, engine: createEngine({ dbPath, env, ...(opts.parseWorker ? { parseWorker: opts.parseWorker } : {}) }), out, signal };
}

/** A model named by a flag is remembered as the app's setting, as choosing it in Settings would. */
export function rememberModel(ctx: CliContext, key: 'chatModel' | 'embedModel', flag: string | undefined): void {
  if (flag !== undefined && flag.trim() !== '') ctx.engine.settings.set({ [key]: flag.trim() });
}
