import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, defaultDatabasePath, type Engine } from '../core/engine';
import { QuireError } from '../../shared/errors';
import { parseHeaderLine } from '../../shared/settings';
import type { Output } from './output';
import { programName } from './usage';

export interface CliContext {
  dbPath: string;
  /** The core's front door: the same engine the app runs, with the settings the app saved. */
  engine: Engine;
  out: Output;
  signal: AbortSignal;
  /** --force: remember a model Ollama does not list (yet), as "Save anyway" in Settings does. */
  force: boolean;
  /** How this run was started (`quire`, `npm run quire --`), for the commands a message suggests. */
  program: string;
}

export interface ContextOptions {
  db?: string | undefined;
  force?: boolean | undefined;
  /** --ollama-header "Name: value", repeatable: for this run only, over the saved and QUIRE_OLLAMA_HEADERS ones. */
  ollamaHeaders?: readonly string[] | undefined;
  /** The bundled parse worker beside the built `quire`; from source the engine finds its own. */
  parseWorker?: URL | undefined;
  /** This computer's memory and free disk as setup sees them (tests). */
  machine?: { memoryBytes?: number; freeDiskBytes?: number | null } | undefined;
}

/** `env` is where QUIRE_DB (the database when --db is not given), OLLAMA_HOST and QUIRE_OLLAMA_HEADERS are read: process.env for the real CLI. */
export function createContext(opts: ContextOptions, out: Output, signal: AbortSignal, env: NodeJS.ProcessEnv = process.env): CliContext {
  const dbPath = opts.db ?? defaultDatabasePath(env);
  const ollamaHeaders = headerFlags(opts.ollamaHeaders ?? []);
  const engine = createEngine({
    dbPath,
    env,
    backgroundUpkeep: false,
    sampleNotesDir: sampleNotesFolder() ?? '',
    ...(ollamaHeaders ? { ollamaHeaders } : {}),
    ...(opts.parseWorker ? { parseWorker: opts.parseWorker } : {}),
    ...(opts.machine ? { machine: opts.machine } : {}),
  });
  noteUnsentHeaders(engine, out);
  return {
    dbPath,
    engine,
    out,
    signal,
    force: opts.force === true,
    program: programName(env),
  };
}

/**
 * Saved headers whose values the CLI cannot open (sealed by the desktop app's keychain, which only
 * the app can use; or damaged) and that no --ollama-header or QUIRE_OLLAMA_HEADERS replaces: each
 * said once on stderr, by name. The run goes on and its requests go without them rather than
 * refusing: most commands (status, doctor, keyword search, an import without vectors) need no
 * header at all, a request without it sends less rather than more, and a proxy that wants it
 * answers 401, which is reported pointing at the headers.
 */
function noteUnsentHeaders(engine: Engine, out: Output): void {
  let sent: Set<string>;
  const unreadable = engine.settings.unreadableHeaders();
  if (unreadable.length === 0) return;
  try {
    sent = new Set(engine.gateway().headerNames.map((n) => n.toLowerCase()));
  } catch {
    sent = new Set(); // a bad OLLAMA_HOST or QUIRE_OLLAMA_HEADERS: the command that needs Ollama says so
  }
  for (const h of unreadable) if (!sent.has(h.name.toLowerCase())) out.note(h.message);
}

/** The flags as a header map; a malformed one is refused without repeating it (it may hold a token). */
function headerFlags(lines: readonly string[]): Record<string, string> | null {
  if (lines.length === 0) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const pair = parseHeaderLine(line);
    if (!pair) throw new QuireError('INVALID_ARGUMENT', '--ollama-header takes "Name: value", e.g. --ollama-header "Authorization: Bearer …".');
    headers[pair[0]] = pair[1];
  }
  return headers;
}

/**
 * A model named by a flag is remembered as the app's setting, as choosing it in Settings would:
 * only once Ollama lists it (a mistyped name fails here, naming the installed ones), or with --force.
 */
export async function rememberModel(ctx: CliContext, key: 'chatModel' | 'embedModel', flag: string | undefined): Promise<void> {
  if (flag !== undefined && flag.trim() !== '') await ctx.engine.saveSettings({ [key]: flag.trim(), ...(ctx.force ? { force: true } : {}) }, ctx.signal);
}

/**
 * After an import or embedding run: builds or refreshes the bits for two-stage vector search. The
 * CLI's engine leaves this to the command (backgroundUpkeep: false), which waits for it, since its
 * process is about to end, and shows its progress.
 */
export async function settleVectorSearch(ctx: CliContext): Promise<void> {
  await ctx.engine.maintainVectors({
    signal: ctx.signal,
    onProgress: (p) => ctx.out.progress(p.total > 0 ? p.done / p.total : 0, `vector search: ${p.phase === 'calibrating' ? 'calibrating' : p.phase === 'mean' ? 'measuring' : 'building bits'} ${p.done}/${p.total}`),
  });
}

/**
 * When a search found nothing: if nothing is imported at all, says so on stderr with what to do,
 * rather than leaving "No passages found" or "Not in the documents." to suggest the notes lack it.
 */
export function noteEmptyIndex(ctx: CliContext): void {
  if (ctx.engine.indexStatus().collections.length === 0) ctx.out.note(`Note: nothing is imported in ${ctx.dbPath} yet. Try: ${ctx.program} import ~/notes`);
}

/**
 * The sample notes shipped with Quire (resources/sample-notes), found from this file: three folders
 * up from source (electron/cli/), two from the built `quire` (dist/cli/); null when not shipped.
 */
export function sampleNotesFolder(): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = path.dirname(dir)) {
    const folder = path.join(dir, 'resources', 'sample-notes');
    if (fs.existsSync(folder)) return folder;
  }
  return null;
}
