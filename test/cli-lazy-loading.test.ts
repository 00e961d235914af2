import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../scripts/build-cli';
import { tempDbPath } from './support/notes';

/**
 * Issue 35: `quire search` and `quire status` must start fast, so the built command must not load
 * what they never use: the readers' parsers and the token counter's ranks are loaded by the first
 * file read or token counted. Timings are the bench's (test/bench/perf-cli.ts); this checks what
 * is loaded, recorded by a module hook in the real process.
 */
const run = promisify(execFile);
const REGISTER = path.join(import.meta.dirname, 'support/module-log/register.mjs');
/** Packages a search or status never needs, each a megabyte or more of script to parse on start. */
const PARSERS = ['mammoth', 'jszip', 'pdfjs-dist', 'micromark', 'micromark-extension-mdxjs', 'markdown-it', 'htmlparser2', 'chardet', 'entities'];
const RANKS = /gpt-tokenizer\/(esm|cjs)\/bpeRanks\//;
let cli: string;
let db: ReturnType<typeof tempDbPath>;

beforeAll(async () => {
  cli = (await buildCli()).cli;
  db = tempDbPath('quire-lazy-');
}, 60_000);
afterAll(() => db?.dispose());

/** Every module file the command loaded, as a path under node_modules or in dist/cli. */
async function loadedBy(args: string[]): Promise<string[]> {
  const log = path.join(path.dirname(db.file), `modules-${args[0]}.log`);
  fs.rmSync(log, { force: true });
  const env = { ...process.env, QUIRE_MODULE_LOG: log, OLLAMA_HOST: 'http://127.0.0.1:9', npm_lifecycle_event: '' };
  await run(process.execPath, ['--import', REGISTER, cli, ...args, '--db', db.file], { env, timeout: 30_000 });
  return [...new Set(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((u) => (u.startsWith('file:') ? new URL(u).pathname : u)))];
}

const packageOf = (p: string) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p)?.[1] ?? null;

describe('the built quire command loads no parser to search or show status', () => {
  it.each([[['search', '--mode', 'lexical', 'deploy keys']], [['status']]])('%j', async (args) => {
    const loaded = await loadedBy(args);
    const packages = new Set(loaded.map(packageOf));
    expect(PARSERS.filter((p) => packages.has(p))).toEqual([]);
    expect(loaded.filter((p) => RANKS.test(p))).toEqual([]);
    // The log sees both kinds of module: the driver's (required, CommonJS) and the command's own chunk (imported).
    expect(loaded.some((p) => p.includes('/better-sqlite3/lib/database.js'))).toBe(true);
    expect(loaded.some((p) => p.startsWith(`${path.dirname(cli)}/chunks/${args[0]}-`))).toBe(true);
  }, 60_000);
});
