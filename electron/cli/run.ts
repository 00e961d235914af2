import { parseArgs } from 'node:util';
import { QuireError, toErrorShape } from '../../shared/errors';
import { defaultDatabasePath } from '../core/engine';
import { createContext, type CliContext } from './context';
import { createOutput, type TextSink } from './output';
import { terminalSafe, terminalSafeJson } from './terminal-text';
import { COMMAND_NAMES, commandUsage, missingValue, OPTIONS, seeHelp, unusedOption, usage } from './usage';


/**
 * What a run of the CLI touches outside itself. The real process (main.ts) passes nothing and gets
 * process.stdout/stderr/env, with Ctrl-C (SIGINT) and SIGTERM cancelling the command; a caller
 * in-process (the tests) passes its own streams and environment, and its own `signal` to cancel,
 * in which case the process's signals are left alone.
 */
export interface CliIo {
  stdout?: TextSink;
  stderr?: TextSink;
  /** Where QUIRE_DB and OLLAMA_HOST are read. */
  env?: NodeJS.ProcessEnv;
  /** Cancels the command as Ctrl-C does; without it, SIGINT and SIGTERM do. */
  signal?: AbortSignal;
  /** The bundled parse worker beside the built `quire` (dist/cli/); from source the engine finds its own. */
  parseWorker?: URL;
  /** The clock that spaces progress lines when stderr is not a terminal (tests); performance.now otherwise. */
  now?: () => number;
  /** Where a yes or no is read (setup asks before a download): process.stdin unless given. Asked only when it is a terminal. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean | undefined };
  /** This computer's memory and free disk as setup sees them, in place of the measured ones (tests). */
  machine?: { memoryBytes?: number; freeDiskBytes?: number | null };
}

/** What a command keeps when it is cancelled, said as Ctrl-C is taken; the others keep nothing worth a word. */
const CANCEL_KEEPS: Partial<Record<string, string>> = {
  import: 'documents already written stay in the index',
  embed: 'documents already embedded keep their vectors',
  eval: 'configurations already finished are printed and kept',
  setup: 'a download stopped part way resumes when it is pulled again',
};

/** Errors in what was typed (a flag, a file, a --model of the wrong kind): exit 2, as a usage error. */
const USAGE_CODES: ReadonlySet<string> = new Set(['INVALID_ARGUMENT', 'INVALID_QUESTION_SET', 'WRONG_MODEL_KIND']);

/** Runs one CLI command and resolves to its exit code; it never exits the process itself. */
export async function main(argv: string[], io: CliIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: OPTIONS,
    });
  } catch (e) {
    // The mistake and where to read more: the whole usage printed under it pushed it off the screen.
    const typed = argv.find((a) => !a.startsWith('-'));
    // Node's own sentence for this one ends in advice about '--' with unbalanced quotes.
    const unknown = /^Unknown option '([^']+)'/.exec((e as Error).message)?.[1];
    const sentence = unknown ? `Unknown option ${unknown}.` : (missingValue((e as Error).message, typed) ?? (e as Error).message);
    stderr.write(`${terminalSafe(sentence)}\n${seeHelp(env, typed)}\n`);
    return 2;
  }
  const { values: v, positionals } = parsed;
  let [command, ...rest] = positionals;
  // "quire help" and "quire help ask" read as --help does.
  if (command === 'help') {
    v.help = true;
    [command, ...rest] = rest;
  }
  if (v.help || !command) {
    const text = (command !== undefined && commandUsage(command, env)) || usage(env);
    (v.help ? stdout : stderr).write(`${text}\n`);
    return v.help ? 0 : 2;
  }
  const out = createOutput(v.json, stdout, stderr, { now: io.now });
  // Flags given (parseArgs fills in only the booleans' defaults, which are false).
  const unused = unusedOption(command, Object.entries(v).filter(([, value]) => value !== undefined && value !== false).map(([name]) => name));
  if (unused) {
    const message = `--${unused} is not an option of ${command}. ${seeHelp(env, command)}`;
    if (v.json) stdout.write(`${terminalSafeJson({ error: { code: 'INVALID_ARGUMENT', message } })}\n`);
    else stderr.write(`Error (INVALID_ARGUMENT): ${terminalSafe(message)}\n`);
    return 2;
  }
  const controller = new AbortController();
  const onSignal = () => {
    out.note(`Cancelling…${CANCEL_KEEPS[command] ? ` (${CANCEL_KEEPS[command]})` : ''}`);
    controller.abort();
  };
  // Removed in the finally below, so many in-process runs leave no listeners behind.
  const stopListening = io.signal ? listenTo(io.signal, onSignal) : listenToProcess(onSignal);

  let ctx: CliContext | null = null;
  try {
    const needsArg = (name: string) => {
      if (rest.length === 0) throw new QuireError('INVALID_ARGUMENT', `"${command}" needs a ${name}. ${seeHelp(env, command)}`);
      return rest.join(' ');
    };
    // Each command's module is imported as it runs, so one command loads none of the others' code.
    // The damaged database cannot be opened: rebuild never opens it as an engine.
    if (command === 'rebuild') return await (await import('./commands/rebuild')).rebuildCommand({ dbPath: v.db ?? defaultDatabasePath(env), out, signal: controller.signal, env, parseWorker: io.parseWorker }, rest, { into: v.into });
    ctx = createContext({ db: v.db, force: v.force, ollamaHeaders: v['ollama-header'], parseWorker: io.parseWorker, machine: io.machine }, out, controller.signal, env);
    switch (command) {
      case 'import':
        return await (await import('./commands/import')).importCommand(ctx, needsArg('folder'), {
          model: v.model,
          noEmbed: v['no-embed'],
          chunker: v.chunker,
          maxFileMb: v['max-file-mb'],
          batch: v.batch,
        });
      case 'search':
        return await (await import('./commands/search')).searchCommand(ctx, needsArg('query'), { k: v.k, mode: v.mode, collections: v.collection });
      case 'ask':
        return await (await import('./commands/ask')).askCommand(ctx, needsArg('question'), { k: v.k, model: v.model, numCtx: v['num-ctx'], collections: v.collection, allFolders: v['all-folders'], conversation: v.conversation });
      case 'eval':
        return await (await import('./commands/eval')).evalCommand(ctx, rest.length > 0 ? rest.join(' ') : null, {
          docs: v.docs,
          chatModels: v['chat-models'],
          embedModels: v['embed-models'],
          chunkers: v.chunkers,
          k: v.k,
          modes: v.modes,
          fusion: v.fusion,
          repeat: v.repeat,
          out: v.out,
          rerun: v.rerun,
          freshIndex: v['fresh-index'],
        });
      case 'embed':
        return await (await import('./commands/embed')).embedCommand(ctx, { model: v.model, batch: v.batch });
      case 'status':
        return await (await import('./commands/status')).statusCommand(ctx);
      case 'setup':
        return await (await import('./commands/setup')).setupCommand(ctx, { yes: v.yes, check: v.check }, io.stdin ?? process.stdin);
      case 'doctor':
        return await (await import('./commands/doctor')).doctorCommand(ctx);
      case 'conversations':
        return await (await import('./commands/conversations')).conversationsCommand(ctx, rest.length > 0 ? rest.join(' ') : null);
      case 'forget':
        return await (await import('./commands/forget')).forgetCommand(ctx, needsArg('folder'));
      case 'settings':
        return await (await import('./commands/settings')).settingsCommand(ctx, rest);
      default:
        throw new QuireError('INVALID_ARGUMENT', `Unknown command "${command}". The commands are ${COMMAND_NAMES.join(', ')}. ${seeHelp(env)}`);
    }
  } catch (e) {
    const shape = toErrorShape(e);
    if (v.json) stdout.write(`${terminalSafeJson({ error: shape })}\n`);
    else out.note(`Error (${shape.code}): ${shape.message}`);
    return shape.code === 'CANCELLED' ? 130 : USAGE_CODES.has(shape.code) ? 2 : 1;
  } finally {
    stopListening();
    await ctx?.engine.close();
  }
}

function listenToProcess(onSignal: () => void): () => void {
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

function listenTo(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort();
    return () => {};
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

