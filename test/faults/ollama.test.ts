import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../electron/core/db/health';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { importFolder } from '../../electron/core/ingest/pipeline';
import type { ImportProgress } from '../../electron/core/ingest/types';
import { OllamaGateway } from '../../electron/core/ollama/gateway';
import { search } from '../../electron/core/retrieve/search';
import { NotesFolder } from '../support/notes';
import { startStandin, type Standin } from '../support/ollama-standin/server';

/**
 * The fault suite, Ollama: what the embedding server can do to an import. Every row ends with
 * `doctor` passing, every note indexed and found by keywords, and the import saying exactly what
 * went wrong with the vectors (nothing is lost: `quire embed` adds them later).
 */
interface Row {
  name: string;
  /** Arms the fault before the import, or at its first embedding progress (mid-import). */
  before?(s: Standin): void | Promise<void>;
  during?(s: Standin): void;
  gateway?: { timeoutMs?: number };
  code: string;
}

const ROWS: Row[] = [
  { name: 'Ollama is down', before: (s) => s.stop(), code: 'OLLAMA_UNREACHABLE' },
  { name: 'Ollama answers slower than the timeout', before: (s) => void (s.faults.latencyMs = 1500), gateway: { timeoutMs: 300 }, code: 'OLLAMA_TIMEOUT' },
  { name: 'an HTTP 500 mid-import', before: (s) => void (s.faults.failNth = { path: '/api/embed', n: 2, status: 500 }), code: 'OLLAMA_ERROR' },
  { name: 'the model changes dimension mid-import', during: (s) => s.setDimension('embeddinggemma', 384), code: 'EMBED_DIMENSION_MISMATCH' },
  { name: 'the model is removed mid-import', during: (s) => s.removeModel('embeddinggemma'), code: 'MODEL_NOT_FOUND' },
];

const WORDS = Array.from({ length: 12 }, (_, i) => `zorblat${i}`);
let ollama: Standin;
let notes: NotesFolder;
let db: Db;

beforeAll(async () => {
  ollama = await startStandin();
});
afterAll(async () => {
  await ollama?.close();
});
beforeEach(async () => {
  await ollama.start();
  ollama.addModel('embeddinggemma');
  ollama.setDimension('embeddinggemma', 768);
  ollama.faults.latencyMs = 0;
  ollama.faults.failNth = null;
  notes = new NotesFolder('quire-fault-ollama-');
  WORDS.forEach((w, i) => notes.write(`n${i}.md`, `# Note ${i}\n\nThe ${w} entry, long enough to be one chunk of its own.\n`));
  db = openDatabase(':memory:');
});
afterEach(() => {
  db.close();
  notes.dispose();
});

describe('fault suite: Ollama during an import', () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      await row.before?.(ollama);
      const gateway = new OllamaGateway({ host: ollama.url, retries: 0, backoffMs: 1, ...row.gateway });
      let armed = false;
      const onProgress = (p: ImportProgress) => {
        // Once some notes have their vectors (requests overlap the reading, so a count of files read says nothing of that).
        if (row.during && !armed && p.phase === 'indexing' && p.filesDone >= 4 && (db.prepare('SELECT count(*) FROM document_embeddings').pluck().get() as number) > 0) {
          armed = true;
          row.during(ollama);
        }
      };
      const report = await importFolder(db, notes.root, { embedding: { gateway, model: 'embeddinggemma', batchSize: 2 }, onProgress });
      if (row.during) {
        expect(armed).toBe(true);
        // Mid-import indeed: some notes had their vectors before the fault, and keep them.
        expect(db.prepare('SELECT count(*) FROM document_embeddings').pluck().get()).toBeGreaterThan(0);
      }
      expect(report.embedding.status).toBe('unavailable');
      expect(report.embedding.error?.code).toBe(row.code);
      expect(report.documents.added).toBe(WORDS.length);
      expect(report.errors).toEqual([]);
      for (const w of WORDS) expect((await search(db, w, { gateway: null, mode: 'lexical' })).results, w).toHaveLength(1);
      expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
    });
  }
});
