import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../electron/core/db/health';
import { refreshKeywordStatistics } from '../../electron/core/db/keyword-statistics';
import { openDatabase } from '../../electron/core/db/open';
import { importFolder } from '../../electron/core/ingest/pipeline';
import { startStandin, type Standin } from '../support/ollama-standin/server';
import { NotesFolder, tempDbPath } from '../support/notes';
import { scores } from '../support/keyword-scores';

/**
 * The fault suite, crashes: `quire import` and `quire embed` SIGKILLed at random moments, round
 * after round on one database. After every kill the database opens, doctor passes (every document
 * has all its chunks, full-text rows and, once embedded, all its vectors) and each document's last
 * section is there — complete or absent, never half. The next round carries on from there.
 *
 * QUIRE_KILL_ROUNDS sets the rounds of each (default 4 in npm test; the closing notes use 20).
 * The kill times come from a seeded generator (QUIRE_KILL_SEED), so a failure can be replayed.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const ROUNDS = Number(process.env.QUIRE_KILL_ROUNDS ?? 4);
const SEED = Number(process.env.QUIRE_KILL_SEED ?? 20261201);
const FILES = 160;

let ollama: Standin;
let notes: NotesFolder;

function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** Note i at revision r: ten sections, the last one's marker proving the whole note is there. */
function writeNote(i: number, r: number): void {
  const sections = Array.from({ length: 10 }, (_, s) => `## Section ${s}\n\nNote ${i} revision ${r} section ${s}: ${'lorem ipsum dolor sit amet '.repeat(10 + ((i + r) % 5))}marker-${i}-${s}.\n`);
  notes.write(`batch-${i % 4}/note-${String(i).padStart(3, '0')}.md`, `# Note ${i}\n\n${sections.join('\n')}`);
}

/** Gives the next round work: a random half of the notes get a new revision (replaced on import). */
function revise(round: number, next: () => number): void {
  for (let i = 0; i < FILES; i++) if (next() < 0.5) writeNote(i, round);
}

beforeAll(async () => {
  ollama = await startStandin({ latencyMs: 10 });
  notes = new NotesFolder('quire-sigkill-');
  for (let i = 0; i < FILES; i++) writeNote(i, 0);
});
afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
});

/** Starts the real CLI, kills it after `ms`; resolves with how it ended. */
function runAndKill(args: string[], dbFile: string, ms: number): Promise<NodeJS.Signals | number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), ...args, '--db', dbFile, '--json'], {
    cwd: ROOT,
    env: { ...process.env, OLLAMA_HOST: ollama.url },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(signal ?? code);
    }),
  );
}

/** Doctor passes and every present document holds its last section. */
function checkWhole(dbFile: string): { documents: number; embedded: number; rebuilding: string | null } {
  const db = openDatabase(dbFile);
  try {
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
    const docs = db.prepare("SELECT id, rel_path FROM documents WHERE status = 'ready'").all() as Array<{ id: string; rel_path: string }>;
    for (const d of docs) {
      const i = Number(/note-(\d+)/.exec(d.rel_path)![1]);
      const text = db.prepare('SELECT group_concat(text, char(10)) FROM chunks WHERE document_id = ?').pluck().get(d.id) as string;
      expect(text, d.rel_path).toContain(`marker-${i}-9`);
      // One revision only: the old version or the new one, never chunks of both.
      expect(new Set([...text.matchAll(/revision (\d+)/g)].map((m) => m[1])).size, d.rel_path).toBe(1);
    }
    return {
      documents: docs.length,
      embedded: db.prepare('SELECT count(DISTINCT document_id) FROM document_embeddings').pluck().get() as number,
      rebuilding: db.prepare('SELECT group_concat(fts) FROM keyword_index_builds').pluck().get() as string | null,
    };
  } finally {
    db.close();
  }
}

describe('fault suite: SIGKILL', () => {
  it(`import killed at random moments, ${ROUNDS} rounds: every document complete or absent`, async () => {
    const dbFile = tempDbPath('quire-sigkill-import-');
    const next = random(SEED);
    const log: string[] = [];
    try {
      // How long a whole import takes on this machine (startup included; shared machines vary by
      // seconds), so that kills land from before the first write to its very end: the documents'
      // transactions, the deletions, the keyword statistics' rebuild batches after them.
      const started = Date.now();
      expect(await runAndKill(['import', notes.root], dbFile.file, 120_000)).toBe(0);
      const whole = Date.now() - started;
      for (let round = 0; round < ROUNDS; round++) {
        revise(round + 1, next);
        const ms = Math.floor(whole * (0.4 + 0.8 * next()));
        const ended = await runAndKill(['import', notes.root], dbFile.file, ms);
        const { documents, embedded, rebuilding } = checkWhole(dbFile.file);
        log.push(`round ${round + 1}: killed at ${ms} ms (${String(ended)}), ${documents} documents, ${embedded} embedded${rebuilding ? `, rebuilding ${rebuilding}` : ''}`);
      }
      console.error(`sigkill import (seed ${SEED}):\n  ${log.join('\n  ')}`);
      // The next import finishes the job.
      const db = openDatabase(dbFile.file);
      const r = await importFolder(db, notes.root, { embedding: null });
      expect(r.errors).toEqual([]);
      expect(db.prepare('SELECT count(*) FROM documents').pluck().get()).toBe(FILES);
      // A statistics rebuild killed between its batches is carried on, and none is left half done:
      // the keyword indexes then score as a fresh import's (db/keyword-index-build.ts).
      await refreshKeywordStatistics(db, 0);
      expect(db.prepare('SELECT count(*) FROM keyword_index_builds').pluck().get()).toBe(0);
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE name LIKE '%\\_next%' ESCAPE '\\'").pluck().all()).toEqual([]);
      const fresh = openDatabase(':memory:');
      await importFolder(fresh, notes.root, { embedding: null });
      for (const table of ['chunks_fts', 'sections_fts'] as const) {
        const matching = scores(fresh, table, 'revision OR lorem OR marker');
        expect(matching.length).toBeGreaterThan(0);
        expect(scores(db, table, 'revision OR lorem OR marker')).toEqual(matching);
      }
      fresh.close();
      db.close();
    } finally {
      dbFile.dispose();
    }
  }, 30_000 + ROUNDS * 10_000);

  it(`embed killed at random moments, ${ROUNDS} rounds: every document's vectors complete or absent`, async () => {
    const dbFile = tempDbPath('quire-sigkill-embed-');
    const next = random(SEED + 1);
    const log: string[] = [];
    try {
      const db = openDatabase(dbFile.file);
      await importFolder(db, notes.root, { embedding: null });
      db.close();
      for (let round = 0; round < ROUNDS; round++) {
        if (round > 0) {
          // Revised notes are replaced without vectors: the next embed has work again.
          revise(ROUNDS + round, next);
          const text = openDatabase(dbFile.file);
          await importFolder(text, notes.root, { embedding: null });
          text.close();
        }
        const ms = 700 + Math.floor(next() * 2000);
        const ended = await runAndKill(['embed'], dbFile.file, ms);
        const { embedded } = checkWhole(dbFile.file);
        log.push(`round ${round + 1}: killed at ${ms} ms (${String(ended)}), ${embedded} of ${FILES} documents embedded`);
      }
      console.error(`sigkill embed (seed ${SEED + 1}):\n  ${log.join('\n  ')}`);
    } finally {
      dbFile.dispose();
    }
  }, 30_000 + ROUNDS * 10_000);
});
