/**
 * The CLI's usage text and its flags, kept apart from the commands so that `quire --help` answers
 * without loading the engine, the database driver or any reader (main.ts imports the rest only to
 * run one).
 */
import type { ParseArgsConfig } from 'node:util';
import { DOCUMENT_EXTENSIONS, DOCUMENT_TYPES } from '../../shared/document-types';
import { EMBED_BATCH } from '../../shared/embed-batch';

/** How this run was started, so that every command we print works as typed. */
export function programName(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_lifecycle_event === 'quire' ? 'npm run quire --' : 'quire';
}

/** One command's block of the usage: its first line, then its options (indented under it). */
interface CommandHelp {
  command: string;
  lines: string[];
  /** The flags it reads, besides those every command takes. */
  options?: readonly string[];
}

const BATCH_LINE = `    --batch N         texts per embedding request (${EMBED_BATCH.min}-${EMBED_BATCH.max}; default ${EMBED_BATCH.fallback}); smaller for a slow or busy Ollama`;

const COMMANDS: CommandHelp[] = [
  {
    command: 'setup',
    options: ['yes', 'check'],
    lines: [
      'setup             first run: checks Ollama and the two models Quire needs, and says what to do; pulls',
      '                  what is missing once you say yes (sizes shown; Ctrl-C cancels), then tries both models',
      '    --yes             pull the missing models without asking (for scripts)',
      '    --check           only say where things stand: exit 0 when ready, 1 if not (nothing pulled or tried)',
    ],
  },
  {
    command: 'import',
    options: ['model', 'no-embed', 'chunker', 'max-file-mb', 'batch'],
    lines: [
      `import <folder>   index a folder of notes: ${DOCUMENT_TYPES.map((t) => DOCUMENT_EXTENSIONS[t].join('/')).join(', ')} (again: only changes are read)`,
      '    --model NAME      embedding model in Ollama (default embeddinggemma; remembered once Ollama lists it)',
      '    --no-embed        index text only (keyword search); "quire embed" adds vectors later',
      "    --chunker SPEC    heading:N (default: the app's chunk size, 256), recursive:1000/100, fixed:128/25",
      '    --max-file-mb N   skip files larger than N MB (default 20)',
      BATCH_LINE,
    ],
  },
  {
    command: 'search',
    options: ['k', 'mode', 'collection'],
    lines: [
      'search <query>    ranked passages with file, heading path and line range',
      '    --k N             how many passages (default 8, at most 100)',
      "    --mode M          lexical | dense | hybrid (default: the app's search mode setting, hybrid unless changed;",
      '                      keyword search when vectors cannot be used, saying why)',
      '    --collection NAME only this folder: its name or path, or a folder inside it (notes/work, ~/notes/work);',
      '                      repeatable; default: every folder',
    ],
  },
  {
    command: 'ask',
    options: ['model', 'k', 'num-ctx', 'collection', 'conversation', 'all-folders'],
    lines: [
      'ask <question>    an answer from your documents, streamed, with checked citations',
      '    --model NAME      chat model in Ollama (default llama3.2; remembered once Ollama lists it)',
      "    --k N             the most passages to send (1-20; default: the app's setting, 6; fewer past 1,600 source tokens or num_ctx)",
      "    --num-ctx N       context window to ask Ollama for (512 or more; default: the model's, up to the app's cap, 8192)",
      '    --collection NAME only this folder: its name or path, or a folder inside it (notes/work, ~/notes/work);',
      '                      repeatable; default: every folder (with --conversation: its last question\'s folders)',
      '    --conversation ID continue a stored conversation (its earlier answers are the history; asked of',
      "                      its last question's folders unless --collection or --all-folders says otherwise)",
      '    --all-folders     ask of every folder, whatever folders the conversation was asked of',
    ],
  },
  { command: 'conversations', lines: ['conversations [text]  stored conversations, newest first (titles containing text)'] },
  {
    command: 'eval',
    options: ['docs', 'chat-models', 'embed-models', 'chunkers', 'k', 'modes', 'fusion', 'repeat', 'out', 'rerun', 'fresh-index'],
    lines: [
      'eval <questions.json> --docs DIR   score configurations on your own question set',
      '    --chat-models a,b --embed-models x,y --chunkers heading:256,fixed:128/25',
      '    --k 3,5 --modes lexical,hybrid --fusion rrf:60,weighted:0.3 --repeat N --out report.json',
      '    (no --chat-models: retrieval metrics only; exit 1 when nothing was measured, or when',
      '    Ollama went away or stopped answering and the run stopped: what was measured is kept)',
      '    --fresh-index     build the indexes anew rather than reuse those an earlier run built',
      'eval --rerun report.json   repeat a saved run and show what changed (exit 3 if anything did)',
    ],
  },
  {
    command: 'embed',
    options: ['model', 'batch'],
    lines: [
      'embed             add vectors for documents that lack them (no file is re-read)',
      '    --model NAME      embedding model in Ollama (default: the saved one; remembered once Ollama lists it)',
      BATCH_LINE,
    ],
  },
  {
    command: 'settings',
    lines: [
      "settings [set <key> <value>…]  every setting with its value (and default where it differs), or change some (the app's Settings)",
      '    set <key> <value> checked as Settings checks it, e.g. settings set searchMode lexical; several pairs are',
      '                      saved together; a changed model only once Ollama lists it (--force: one to pull later)',
    ],
  },
  { command: 'status', lines: ['status            what is indexed, the models, and whether Ollama is reachable'] },
  { command: 'doctor', lines: ['doctor            check the index is whole; exits 1 if not'] },
  { command: 'forget', lines: ['forget <folder>   remove a folder (its path, or its name as status lists it) and everything derived from it from the index'] },
  {
    command: 'rebuild',
    options: ['into'],
    lines: [
      'rebuild [folder…] a new index from your folders when the database (--db) is damaged; it is left as it was',
      '    --into PATH       the new database file (default: quire-rebuilt-<date>.db beside the damaged one)',
    ],
  },
];

/** The commands this CLI runs, for "Unknown command" and per-command help. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.command);

const block = (c: CommandHelp) => c.lines.map((l) => `  ${l}`).join('\n');

const common = `Every command: --db PATH (or QUIRE_DB; default ~/.local/share/quire/quire.db), --json.
  --force                   remember a --model Ollama does not list yet (one you will pull)
  --ollama-header "N: V"    send this header to Ollama, this run only (repeatable)
Ollama: OLLAMA_HOST (default http://127.0.0.1:11434; https:// for a shared server),
  QUIRE_OLLAMA_HEADERS='{"Authorization": "Bearer …"}' (headers for every request; or in Settings).`;

export function usage(env: NodeJS.ProcessEnv = process.env): string {
  const program = programName(env);
  return `quire — answers from your own notes, offline

Usage: ${program} <command> [options]   (${program} <command> --help: that command alone)

Commands:
${COMMANDS.map(block).join('\n')}

${common}`;
}

/** `quire <command> --help`: that command's block and the options every command takes; null for an unknown command. */
export function commandUsage(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const help = COMMANDS.find((c) => c.command === command);
  if (!help) return null;
  return `Usage: ${programName(env)} ${help.lines[0]!.split(/ {2,}/)[0]}${help.lines.length > 1 ? ' [options]' : ''}

${block(help)}

${common}`;
}

/** Every flag the CLI parses: run.ts hands this table to parseArgs. */
export const OPTIONS = {
  db: { type: 'string' },
  json: { type: 'boolean', default: false },
  model: { type: 'string' },
  'no-embed': { type: 'boolean', default: false },
  chunker: { type: 'string' },
  'max-file-mb': { type: 'string' },
  batch: { type: 'string' },
  k: { type: 'string' },
  mode: { type: 'string' },
  'num-ctx': { type: 'string' },
  docs: { type: 'string' },
  'chat-models': { type: 'string' },
  'embed-models': { type: 'string' },
  chunkers: { type: 'string' },
  modes: { type: 'string' },
  fusion: { type: 'string' },
  repeat: { type: 'string' },
  out: { type: 'string' },
  rerun: { type: 'string' },
  'fresh-index': { type: 'boolean', default: false },
  yes: { type: 'boolean', default: false },
  check: { type: 'boolean', default: false },
  into: { type: 'string' },
  collection: { type: 'string', multiple: true },
  conversation: { type: 'string' },
  'all-folders': { type: 'boolean', default: false },
  force: { type: 'boolean', default: false },
  'ollama-header': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

type ValueFlag = { [K in keyof typeof OPTIONS]: (typeof OPTIONS)[K]['type'] extends 'string' ? K : never }[keyof typeof OPTIONS];

/**
 * What each flag that takes a value wants, with an example (the compiler holds every such flag to
 * having one): a flag typed without its value is told "--k needs a number, e.g. --k 6" rather
 * than Node's own "Option '--k <value>' argument missing".
 */
export const FLAG_VALUES: Readonly<Record<ValueFlag, { wants: string; example: string }>> = {
  db: { wants: 'a database file', example: '~/quire.db' },
  model: { wants: 'a model name', example: 'llama3.2' },
  chunker: { wants: 'a chunker', example: 'heading:256' },
  'max-file-mb': { wants: 'a number', example: '20' },
  batch: { wants: 'a number', example: String(EMBED_BATCH.fallback) },
  k: { wants: 'a number', example: '6' },
  mode: { wants: 'a search mode', example: 'hybrid' },
  'num-ctx': { wants: 'a number', example: '8192' },
  docs: { wants: 'a folder', example: '~/notes' },
  'chat-models': { wants: 'model names', example: 'llama3.2,qwen2.5:0.5b' },
  'embed-models': { wants: 'model names', example: 'embeddinggemma' },
  chunkers: { wants: 'chunkers', example: 'heading:256,fixed:128/25' },
  modes: { wants: 'search modes', example: 'lexical,hybrid' },
  fusion: { wants: 'fusion specs', example: 'rrf:60' },
  repeat: { wants: 'a number', example: '3' },
  out: { wants: 'a file', example: 'report.json' },
  rerun: { wants: 'a report file', example: 'report.json' },
  into: { wants: 'a database file', example: 'quire-rebuilt.db' },
  collection: { wants: 'a folder', example: 'notes/work' },
  conversation: { wants: 'a conversation id', example: '1' },
  'ollama-header': { wants: 'a header', example: '"Authorization: Bearer …"' },
};

/**
 * Node's parseArgs refusal of a flag given without its value ("argument missing", or "ambiguous"
 * when the next word is another flag) as our sentence; null for any other refusal.
 */
export function missingValue(message: string, command: string | undefined): string | null {
  const name = /^Option '(?:-\w, )?--([\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(message)?.[1];
  const value = name !== undefined && Object.hasOwn(FLAG_VALUES, name) ? FLAG_VALUES[name as ValueFlag] : undefined;
  if (!value) return null;
  // `embed --k`: that it takes no --k at all is the mistake to name, not the value missing.
  if (command !== undefined && unusedOption(command, [name!]) !== null) return `--${name} is not an option of ${command}.`;
  return `--${name} needs ${value.wants}, e.g. --${name} ${value.example}.`;
}

/** Flags every command takes. */
const COMMON_OPTIONS = ['db', 'json', 'force', 'ollama-header', 'help'];

/**
 * The first flag given that this command does not read, or null. Without this check `ask --mode
 * lexical` or `search --model x` ran as if the flag were not there.
 */
export function unusedOption(command: string, given: readonly string[]): string | null {
  const help = COMMANDS.find((c) => c.command === command);
  if (!help) return null;
  return given.find((o) => !COMMON_OPTIONS.includes(o) && !(help.options ?? []).includes(o)) ?? null;
}

/** The line that ends a usage error: where to read more, as the person typed the command. */
export function seeHelp(env: NodeJS.ProcessEnv, command?: string): string {
  const program = programName(env);
  return command && COMMAND_NAMES.includes(command) ? `See: ${program} ${command} --help` : `See: ${program} --help`;
}
