import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../scripts/build-cli';
import { NotesFolder, tempDbPath } from './support/notes';

/**
 * The `quire` command as `npm link` installs it: package.json's bin, built by `npm install`/`npm ci`
 * (the prepare script) into plain JavaScript, run by node with no TypeScript loader.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
let cli: string;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

beforeAll(async () => {
  cli = (await buildCli()).cli;
  notes = new NotesFolder('quire-bin-');
  notes.write('keys.md', '# Keys\n\nThe deploy keys are rotated every 90 days.\n');
  db = tempDbPath('quire-bin-db-');
}, 60_000);
afterAll(() => {
  notes?.dispose();
  db?.dispose();
});

describe('the quire command', () => {
  it('is the bin package.json declares, built by the prepare script that npm install and npm ci run', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
    expect(path.resolve(ROOT, pkg.bin.quire!)).toBe(cli);
    expect(pkg.scripts.prepare).toBe('tsx scripts/build-cli.ts');
    expect(fs.readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(fs.statSync(cli).mode & 0o111).not.toBe(0);
  });

  it('answers --help on stdout, naming itself as typed', async () => {
    const { stdout } = await run(process.execPath, [cli, '--help'], { timeout: 20_000, env: { ...process.env, npm_lifecycle_event: '' } });
    expect(stdout).toContain('Usage: quire <command> [options]');
    expect(stdout).toContain('import <folder>');
  });

  it('imports and searches with no TypeScript loader, parsing in its own bundled worker', async () => {
    const env = { ...process.env, QUIRE_DB: db.file, OLLAMA_HOST: 'http://127.0.0.1:9', npm_lifecycle_event: '' };
    const imported = await run(process.execPath, [cli, 'import', notes.root, '--no-embed', '--json'], { timeout: 30_000, env });
    expect(JSON.parse(imported.stdout).documents.added).toBe(1);
    const found = await run(process.execPath, [cli, 'search', 'deploy keys', '--json'], { timeout: 30_000, env });
    expect((JSON.parse(found.stdout) as { results: Array<{ path: string }> }).results.map((r) => r.path)).toEqual(['keys.md']);
    // The worker the engine was handed is the bundled one beside the command.
    expect(fs.readdirSync(path.dirname(cli))).toContain('parse-worker.mjs');
  });

  // The built command handed its bundled parse worker to every engine but rebuild's, which looked
  // for the source tree's worker beside the bundle: every file failed "Cannot find module".
  it('rebuild, too, parses in the bundled worker', async () => {
    const env = { ...process.env, QUIRE_DB: db.file, OLLAMA_HOST: 'http://127.0.0.1:9', npm_lifecycle_event: '' };
    await run(process.execPath, [cli, 'import', notes.root, '--no-embed', '--json'], { timeout: 30_000, env });
    const into = path.join(path.dirname(db.file), 'rebuilt.db');
    const rebuilt = await run(process.execPath, [cli, 'rebuild', '--into', into, '--json'], { timeout: 30_000, env });
    const outcome = JSON.parse(rebuilt.stdout) as { folders: Array<{ root: string; report: { documents: { added: number; failed: number }; errors: unknown[] } }> };
    expect(outcome.folders.map((f) => [f.root, f.report.documents.added, f.report.documents.failed, f.report.errors])).toEqual([[notes.root, 1, 0, []]]);
  });

  it('a missing argument points at help as the person typed the command', async () => {
    const err = await run(process.execPath, [cli, 'search'], { timeout: 20_000, env: { ...process.env, QUIRE_DB: db.file, npm_lifecycle_event: '' } }).catch((e: { stdout: string; stderr: string; code: number }) => e);
    expect('code' in err && err.code).toBe(2);
    expect((err as { stderr: string }).stderr).toContain('See: quire search --help');
  });
});
