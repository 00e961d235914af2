import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../electron/core/db/open';
import { importFolder } from '../electron/core/ingest/pipeline';
import { search } from '../electron/core/retrieve/search';
import { NotesFolder, tempDbPath } from './support/notes';
import { versionedNote } from './support/versioned-notes';

/**
 * Readers never see half a document: while another thread replaces every document again and
 * again, each read on this thread sees, for every document, chunks of one version only and as many
 * as the document row says.
 */
const NOTES = 12;
let notes: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;
let db: Db;

beforeEach(async () => {
  notes = new NotesFolder('quire-consistent-');
  for (let i = 0; i < NOTES; i++) notes.write(`n${i}.md`, versionedNote(i, 1));
  dbFile = tempDbPath('quire-consistent-db-');
  db = openDatabase(dbFile.file);
  await importFolder(db, notes.root, { embedding: null, chunker: { kind: 'heading', maxTokens: 48 } });
});
afterEach(() => {
  db.close();
  notes.dispose();
  dbFile.dispose();
});

/** Problems in one snapshot: documents whose chunks mix versions or disagree with their row. */
function tornDocuments(): string[] {
  const problems: string[] = [];
  const read = db.transaction(() => {
    const docs = db.prepare('SELECT id, rel_path, chunk_count FROM documents').all() as Array<{ id: string; rel_path: string; chunk_count: number }>;
    for (const d of docs) {
      const texts = db.prepare('SELECT text FROM chunks WHERE document_id = ?').pluck().all(d.id) as string[];
      const versions = new Set(texts.flatMap((t) => [...t.matchAll(/revision(\d+)/g)].map((m) => m[1])));
      if (versions.size > 1) problems.push(`${d.rel_path}: versions ${[...versions].join(', ')} at once`);
      if (texts.length !== d.chunk_count) problems.push(`${d.rel_path}: ${texts.length} chunks, row says ${d.chunk_count}`);
    }
  });
  read(); // one read transaction: one snapshot
  return problems;
}

describe('readers during writes', () => {
  it('never see a document half replaced, in the tables or in search results', async () => {
    expect(tornDocuments()).toEqual([]);
    // The check itself: a document with chunks of two versions is caught.
    db.prepare("UPDATE chunks SET text = 'revision99 ' || text WHERE rowid = (SELECT min(rowid) FROM chunks)").run();
    expect(tornDocuments().length).toBeGreaterThan(0);
    await importFolder(db, notes.root, { embedding: null, chunker: { kind: 'heading', maxTokens: 48 } });
    fs.appendFileSync(notes.path('n0.md'), '\n'); // re-read n0 so its tampered chunk is replaced
    await importFolder(db, notes.root, { embedding: null, chunker: { kind: 'heading', maxTokens: 48 } });
    expect(tornDocuments()).toEqual([]);

    const worker = new Worker(path.join(import.meta.dirname, 'support/rewrite-worker.mjs'), {
      workerData: { dbFile: dbFile.file, root: notes.root, notes: NOTES, rounds: 15 },
    });
    const finished = new Promise<void>((resolve, reject) => {
      worker.on('message', () => resolve());
      worker.on('error', reject);
      worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
    });
    let done = false;
    void finished.finally(() => (done = true));
    const problems: string[] = [];
    let reads = 0;
    const seenVersions = new Set<string>();
    while (!done) {
      problems.push(...tornDocuments());
      // Search results are passages of one document: the same holds for them.
      const res = await search(db, 'revision note part', { gateway: null, mode: 'lexical', k: 20 });
      for (const r of res.results) {
        const versions = new Set([...r.text.matchAll(/revision(\d+)/g)].map((m) => m[1]!));
        for (const v of versions) seenVersions.add(v);
        if (versions.size > 1) problems.push(`search passage ${r.chunkId}: versions ${[...versions].join(', ')}`);
      }
      reads++;
      await new Promise((r) => setImmediate(r));
    }
    await finished;
    expect(problems).toEqual([]);
    // The reads really overlapped the writes: they saw several versions come and go.
    expect(reads).toBeGreaterThan(5);
    expect(seenVersions.size).toBeGreaterThan(2);
    expect(tornDocuments()).toEqual([]);
  }, 60_000);
});
