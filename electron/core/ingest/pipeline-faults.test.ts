import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotesFolder } from '../../../test/support/notes';
import { startStandin, type Standin } from '../../../test/support/ollama-standin/server';
import { activateCompleteModel, activateEmbeddingModel, getActiveEmbeddingModel } from '../db/embedding-models';
import { indexStatus, runDoctor } from '../db/health';
import { openDatabase, type Db } from '../db/open';
import { OllamaGateway } from '../ollama/gateway';
import { EmbeddingSession } from './embedding-session';
import { importFolder } from './pipeline';

/** The awkward moments of an import: races, odd cancellations, failures that repeat, bad writes. */
let ollama: Standin;
let notes: NotesFolder;
let db: Db;
let gateway: OllamaGateway;

beforeAll(async () => {
  ollama = await startStandin();
  gateway = new OllamaGateway({ host: ollama.url, retries: 0, backoffMs: 1 });
});
afterAll(() => ollama.close());
beforeEach(() => {
  notes = new NotesFolder();
  db = openDatabase(':memory:');
  ollama.faults.latencyMs = 0;
  ollama.faults.failNth = null;
});
afterEach(() => {
  db.close();
  notes.dispose();
});

const docsWithoutVectors = () =>
  db.prepare("SELECT count(*) FROM documents WHERE status = 'ready' AND chunk_count > 0 AND id NOT IN (SELECT document_id FROM document_embeddings)").pluck().get();

describe('import under faults', () => {
  it('a document replaced while its vectors are computed is not marked embedded with stale vectors', async () => {
    notes.write('a.md', '# A\n\nThe first version mentions pelicans.\n');
    await importFolder(db, notes.root, { embedding: null });
    ollama.faults.latencyMs = 300;
    ollama.calls.reset();
    const embedding = new EmbeddingSession(db, { gateway, model: 'embeddinggemma' }).embedMissing();
    // Wait until the chunks were read and sent to /api/embed, then change the file under it.
    while (ollama.calls.count('/api/embed') === 0) await new Promise((r) => setTimeout(r, 5));
    notes.write('a.md', '# A\n\nThe second version mentions flamingos.\n');
    await importFolder(db, notes.root, { embedding: null }); // swaps the chunks mid-embedding
    expect(await embedding).toBe(0);
    expect(docsWithoutVectors()).toBe(1);
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
    ollama.faults.latencyMs = 0;
    expect(await new EmbeddingSession(db, { gateway, model: 'embeddinggemma' }).embedMissing()).toBe(1);
    expect(docsWithoutVectors()).toBe(0);
  });

  it('cancelling with a custom reason is a cancellation, not "Ollama unavailable"', async () => {
    for (let i = 0; i < 12; i++) notes.write(`n${i}.md`, `# N${i}\n\nNote number ${i}.\n`);
    ollama.faults.latencyMs = 80;
    const controller = new AbortController();
    const r = await importFolder(db, notes.root, {
      embedding: { gateway, model: 'embeddinggemma', batchSize: 2 },
      signal: controller.signal,
      onProgress: (p) => p.filesDone === 5 && controller.abort(new Error('user closed the window')),
    });
    expect(r.cancelled).toBe(true);
    expect(r.embedding.status).toBe('ok');
    expect(docsWithoutVectors()).toBe(0);
  });

  it('re-importing unchanged broken files reports them again but writes no new events', async () => {
    notes.write('bin.txt', new Uint8Array([1, 0, 2]));
    notes.write('big.md', 'x'.repeat(5000));
    const events = () => db.prepare("SELECT count(*) FROM events WHERE kind = 'document.failed'").pluck().get();
    const first = await importFolder(db, notes.root, { embedding: null, maxFileBytes: 1000 });
    expect(events()).toBe(2);
    const second = await importFolder(db, notes.root, { embedding: null, maxFileBytes: 1000 });
    expect(events()).toBe(2);
    expect(second.errors).toEqual(first.errors);
    expect(second.skipped).toEqual(first.skipped);
    expect(second.documents).toMatchObject({ failed: 1, skipped: 1 });
  });

  it('an unchanged folder costs no Ollama call, even when Ollama is down', async () => {
    notes.write('a.md', '# A\n\nText.\n');
    await importFolder(db, notes.root, { embedding: { gateway, model: 'embeddinggemma' } });
    const down = new OllamaGateway({ host: 'http://127.0.0.1:9', retries: 0 });
    const r = await importFolder(db, notes.root, { embedding: { gateway: down, model: 'embeddinggemma' } });
    expect(r.embedding.status).toBe('ok');
    expect(r.embedRequests).toBe(0);
    expect(r.documents.unchanged).toBe(1);
  });

  it('one document that cannot be written fails alone', async () => {
    notes.write('good.md', '# Good\n\nFine text.\n');
    notes.write('poison.md', '# Poison\n\nThis one contains POISON.\n');
    notes.write('zz.md', '# Later\n\nAlso fine.\n');
    db.exec("CREATE TEMP TRIGGER poison BEFORE INSERT ON chunks WHEN new.text LIKE '%POISON%' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;");
    const r = await importFolder(db, notes.root, { embedding: { gateway, model: 'embeddinggemma' } });
    expect(r.documents).toMatchObject({ added: 2, failed: 1 });
    expect(r.errors).toEqual([{ path: 'poison.md', code: 'WRITE_FAILED', message: expect.stringMatching(/disk on fire/) }]);
    expect(r.embedding.status).toBe('ok');
    expect(db.prepare("SELECT count(*) FROM documents WHERE rel_path = 'poison.md'").pluck().get()).toBe(0);
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  });

  it('an interrupted model switch leaves the previous, complete model in use', async () => {
    for (let i = 0; i < 6; i++) notes.write(`n${i}.md`, `# N${i}\n\nNote number ${i} about herons.\n`);
    await importFolder(db, notes.root, { embedding: { gateway, model: 'embeddinggemma', batchSize: 2 } });
    const before = getActiveEmbeddingModel(db)!;
    ollama.faults.failNth = { path: '/api/embed', n: 2 }; // the second batch of the new model fails
    const r = await importFolder(db, notes.root, { embedding: { gateway, model: 'nomic-embed-text', batchSize: 2 } });
    expect(r.embedding.status).toBe('unavailable');
    expect(getActiveEmbeddingModel(db)!.id).toBe(before.id);
    expect(indexStatus(db).documents.needsEmbedding).toBe(0);
    // Finishing the switch makes the new model active.
    await new EmbeddingSession(db, { gateway, model: 'nomic-embed-text' }).embedMissing();
    expect(getActiveEmbeddingModel(db)!.name).toBe('nomic-embed-text:latest');
  });

  it('switching back to a re-pulled model never takes its older complete version; its newest version, once complete, does', async () => {
    for (let i = 0; i < 4; i++) notes.write(`n${i}.md`, `# N${i}\n\nNote number ${i} about egrets.\n`);
    await importFolder(db, notes.root, { embedding: { gateway, model: 'embeddinggemma', batchSize: 2 } });
    const older = getActiveEmbeddingModel(db)!;
    await new EmbeddingSession(db, { gateway, model: 'nomic-embed-text' }).embedMissing();
    const other = getActiveEmbeddingModel(db)!;
    expect(other.name).toBe('nomic-embed-text:latest');
    try {
      ollama.setDimension('embeddinggemma', 512); // re-pulled: a new digest
      ollama.faults.failNth = { path: '/api/embed', n: 2 }; // its vectors are half built when Ollama fails
      await expect(new EmbeddingSession(db, { gateway, model: 'embeddinggemma', batchSize: 2 }).embedMissing()).rejects.toMatchObject({ code: 'OLLAMA_ERROR' });
      // The older version is complete but Ollama no longer serves it: it is not taken.
      expect(activateCompleteModel(db, 'embeddinggemma')).toBeNull();
      expect(getActiveEmbeddingModel(db)!.id).toBe(other.id);
      // Once the newest version is complete it is the one taken, also when switching back to it.
      await new EmbeddingSession(db, { gateway, model: 'embeddinggemma' }).embedMissing();
      const newest = getActiveEmbeddingModel(db)!;
      expect(newest).toMatchObject({ name: 'embeddinggemma:latest', dimension: 512 });
      expect(newest.id).not.toBe(older.id);
      activateEmbeddingModel(db, other);
      expect(activateCompleteModel(db, 'embeddinggemma')!.id).toBe(newest.id);
    } finally {
      ollama.setDimension('embeddinggemma', 768);
    }
  });
});
