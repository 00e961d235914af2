import { getSetting, setSetting } from '../core/db/settings';
import { openDatabase, type Db } from '../core/db/open';
import { DEFAULT_EMBED_MODEL } from '../core/ollama/embedder';
import { OllamaGateway } from '../core/ollama/gateway';
import { defaultDatabasePath } from '../core/paths';
import type { Output } from './output';

export interface CliContext {
  dbPath: string;
  db: Db;
  gateway: OllamaGateway;
  out: Output;
  signal: AbortSignal;
}

export function createContext(opts: { db?: string | undefined }, out: Output, signal: AbortSignal): CliContext {
  const dbPath = opts.db ?? defaultDatabasePath();
  const db = openDatabase(dbPath);
  return { dbPath, db, gateway: new OllamaGateway(), out, signal };
}

const MODEL_KEY = 'embed_model';

/** The embedding model: --model if given (and remembered), else the last one chosen, else the default. */
export function embedModel(ctx: CliContext, flag: string | undefined): string {
  if (flag && flag.trim() !== '') {
    setSetting(ctx.db, MODEL_KEY, flag.trim());
    return flag.trim();
  }
  return getSetting(ctx.db, MODEL_KEY) ?? DEFAULT_EMBED_MODEL;
}
