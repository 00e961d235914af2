import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../electron/core/db/health';
import { openDatabase } from '../electron/core/db/open';
import { importFolder } from '../electron/core/ingest/pipeline';
import { OllamaGateway } from '../electron/core/ollama/gateway';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { NotesFolder, tempDbPath } from './support/notes';

/**
 * A real crash: a child process importing a large folder is SIGKILLed mid-way. Afterwards the
 * database opens, doctor passes, and every document is either complete (all its chunks, FTS rows
 * and vectors) or absent.
 */
const ROOT = path.resolve(__dirname, '..');
const FILES = 240;

let ollama: Standin;
let notes: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;

beforeAll(async () => {
  ollama = await startStandin({ latencyMs: 15 });
  notes = new NotesFolder('quire-kill-');
  for (let i = 0; i < FILES; i++) {
    const sections = Array.from({ length: 12 }, (_, s) => `## Section ${s}\n\nNote ${i} section ${s}: ${'lorem ipsum dolor sit amet '.repeat(12 + (i % 5))}marker-${i}-${s}.\n`);
    notes.write(`batch-${Math.floor(i / 40)}/note-${String(i).padStart(3, '0')}.md`, `# Note ${i}\n\n${sections.join('\n')}`);
  }
  dbFile = tempDbPath('quire-kill-db-');
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  dbFile?.dispose();
});

function documentsCommitted(file: string): number {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
    } finally {
      db.close();
    }
  } catch {
    return 0; // not created yet, or mid-migration
  }
}

describe('crash safety', () => {
  it('survives SIGKILL mid-import: doctor passes, each document complete or absent', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), 'import', notes.root, '--db', dbFile.file, '--json'], {
      cwd: ROOT,
      env: { ...process.env, OLLAMA_HOST: ollama.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));

    const deadline = Date.now() + 60_000;
    while (documentsCommitted(dbFile.file) < 20) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`import never got going: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const db = openDatabase(dbFile.file);
    try {
      const present = db.prepare('SELECT id, rel_path, chunk_count FROM documents').all() as Array<{ id: string; rel_path: string; chunk_count: number }>;
      expect(present.length).toBeGreaterThanOrEqual(20);
      expect(present.length).toBeLessThan(FILES); // really killed mid-way
      expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
      // Complete means: the last section's marker made it in, and every chunk is in the FTS index.
      for (const doc of present) {
        const i = Number(/note-(\d+)/.exec(doc.rel_path)![1]);
        const text = (db.prepare('SELECT group_concat(text, char(10)) FROM chunks WHERE document_id = ? ORDER BY ordinal').pluck().get(doc.id) as string) ?? '';
        expect(text).toContain(`marker-${i}-11`);
        expect(db.prepare('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?').pluck().get(`"marker-${i}-11"`)).toBeGreaterThanOrEqual(1);
      }

      // And the next run finishes the job from where the crash left it.
      const gateway = new OllamaGateway({ host: ollama.url, retries: 1, backoffMs: 5 });
      const r = await importFolder(db, notes.root, { embedding: { gateway, model: 'embeddinggemma' } });
      expect(r.documents.added + r.documents.unchanged).toBe(FILES);
      expect(r.documents.unchanged).toBe(present.length);
      expect(r.errors).toEqual([]);
      expect(db.prepare('SELECT count(*) FROM documents').pluck().get()).toBe(FILES);
      expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
    } finally {
      db.close();
    }
  }, 120_000);
});
