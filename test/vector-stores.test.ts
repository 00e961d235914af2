import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, openDatabase, type Db, type Engine } from '../electron/core/engine';
import { NotesFolder, tempDbPath } from './support/notes';
import { startStandin, type Standin } from './support/ollama-standin/server';

let ollama: Standin;
let notes: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;
let engine: Engine;
let db: Db;

beforeEach(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-stores-');
  notes.write('keys.md', '# Keys\n\nWe rotate the deploy keys every 90 days.\n');
  notes.write('bread.md', '# Bread\n\nBake the loaf at 250 degrees.\n');
  dbFile = tempDbPath('quire-stores-db-');
  engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, version: '0.0.0-test' });
  db = openDatabase(dbFile.file);
});
afterEach(async () => {
  db.close();
  await engine.close();
  await ollama.close();
  notes.dispose();
  dbFile.dispose();
});

const vecTables = () => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'vec\\_%' ESCAPE '\\' AND sql LIKE '%vec0%'").pluck().all() as string[];
const stores = async () => (await engine.call('vectorStores', {})).stores;

describe('stored vectors of earlier embedding models', () => {
  it('are kept after a switch (switching back is instant), listed, and deleted only when a person asks, never the active or chosen one', async () => {
    await engine.importFolder({ path: notes.root });
    engine.settings.set({ embedModel: 'nomic-embed-text' });
    await engine.embedMissing({});
    const listed = await stores();
    expect(listed.map((s) => [s.name, s.active, s.chosen, s.documentsMissing])).toEqual([
      ['nomic-embed-text:latest', true, true, 0],
      ['embeddinggemma:latest', false, false, 0],
    ]);
    expect(listed.every((s) => s.vectors === 2 && s.bytes === s.vectors * s.dimension * 4)).toBe(true);
    expect(vecTables()).toHaveLength(2);

    const [active, old] = listed;
    await expect(engine.call('dropVectorStore', { modelId: active!.modelId })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: /chosen in Settings|searches use/ });
    // Chosen again (and so active again at once, being complete): refused, with a sentence saying what to do.
    engine.settings.set({ embedModel: 'embeddinggemma' });
    expect((await stores()).find((s) => s.active)!.name).toBe('embeddinggemma:latest'); // complete: switched at once
    await expect(engine.call('dropVectorStore', { modelId: old!.modelId })).rejects.toMatchObject({ message: /choose another one first/ });
    engine.settings.set({ embedModel: 'nomic-embed-text' });

    expect(await engine.call('dropVectorStore', { modelId: old!.modelId })).toEqual({ vectors: 2 });
    expect((await stores()).map((s) => s.name)).toEqual(['nomic-embed-text:latest']);
    expect(vecTables()).toHaveLength(1);
    expect(db.prepare('SELECT count(*) FROM document_embeddings WHERE model_id = ?').pluck().get(old!.modelId)).toBe(0);
    expect(db.prepare("SELECT count(*) FROM events WHERE kind = 'model.dropped'").pluck().get()).toBe(1);
    expect((await engine.search({ query: 'deploy keys', mode: 'hybrid' })).mode).toBe('hybrid');
    expect(engine.doctor().filter((c) => !c.ok)).toEqual([]);
    await expect(engine.call('dropVectorStore', { modelId: old!.modelId })).rejects.toMatchObject({ message: /no longer stored/ });
  });

  it('of an older version of the same model are dropped once the new version takes over, not before', async () => {
    await engine.importFolder({ path: notes.root });
    const first = (await stores())[0]!;
    ollama.setDimension('embeddinggemma:latest', 384); // re-pulled: new weights, new digest
    let seenBeforeSwitch = 0;
    await engine.embedMissing({}, { onProgress: () => void (seenBeforeSwitch = vecTables().length) });
    // While the new version was built, the old one still answered searches.
    expect(seenBeforeSwitch).toBe(2);
    const after = await stores();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ name: 'embeddinggemma:latest', dimension: 384, active: true });
    expect(after[0]!.digest).not.toBe(first.digest);
    expect(vecTables()).toHaveLength(1);
    expect(engine.doctor().filter((c) => !c.ok)).toEqual([]);
  });
});

describe('what the embedding model reads', () => {
  it('is each passage as read, on import and when another model embeds the stored chunks', async () => {
    notes.write('probes.md', '# Probes\n\nConfigure [health checks](https://kubernetes.io/docs/tasks/configure-liveness-readiness-startup-probes/) for the pod.\n\n[guide]: https://example.com/hidden-reference-target\n');
    const inputs = () => ollama.calls.entries.filter((c) => c.path === '/api/embed').flatMap((c) => (c.body as { input: string | string[] }).input);
    await engine.importFolder({ path: notes.root });
    engine.settings.set({ embedModel: 'nomic-embed-text' });
    await engine.embedMissing({});
    const sent = inputs().filter((i) => i.includes('health checks'));
    // embeddinggemma on import, then nomic-embed-text from the stored chunks, each with its own task prefix.
    expect(sent.map((i) => i.replace(/\s+/g, ' ').trim())).toEqual([
      'title: Probes | text: Probes # Probes Configure [health checks] for the pod.',
      'search_document: Probes # Probes Configure [health checks] for the pod.',
    ]);
    expect(inputs().some((i) => /https?:|hidden-reference-target|startup-probes/.test(i))).toBe(false);
  });
});
