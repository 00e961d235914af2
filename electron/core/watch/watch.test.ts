import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotesFolder, tempDbPath } from '../../../test/support/notes';
import { startStandin, type Standin } from '../../../test/support/ollama-standin/server';
import { openDatabase } from '../db/open';
import { createEngine, type Engine } from '../engine';

// Real chokidar on a real folder: these wait for the watcher, never for a fixed time.
const WAIT = { timeout: 8000, interval: 50 };
const TIMINGS = { debounceMs: 150, maxWaitMs: 1000, returnPollMs: 100 };

let ollama: Standin;
let notes: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;
let engine: Engine | null;

beforeAll(async () => {
  ollama = await startStandin();
});
afterAll(async () => {
  await ollama?.close();
});
beforeEach(() => {
  notes = new NotesFolder('quire-watch-');
  notes.write('a.md', '# Alpha\n\nAardvarks dig at night.\n');
  dbFile = tempDbPath('quire-watch-db-');
  engine = null;
});
afterEach(async () => {
  await engine?.close();
  notes.dispose();
  dbFile.dispose();
});

const open = (watch = true) => (engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, version: '0.0.0-test', watch, watchTimings: TIMINGS }));
const hits = async (e: Engine, q: string) => (await e.search({ query: q, mode: 'lexical' })).results.map((r) => r.path);
const collectionId = async (e: Engine) => (await e.call('library', {})).collections[0]!.id;
const watching = async (e: Engine) => {
  const id = await collectionId(e);
  await e.call('setWatch', { collectionId: id, state: 'watching' });
  // The watcher has begun once its first whole-folder pass is over.
  await vi.waitFor(() => expect(e.watchStatus(id)).toMatchObject({ state: 'watching', busy: false }), WAIT);
  return id;
};

describe('a watched folder', () => {
  it('imports added and changed files after a quiet spell, removes deleted ones, and re-points a rename', async () => {
    const e = open();
    await e.importFolder({ path: notes.root });
    const id = await watching(e);

    notes.write('b.md', '# Beta\n\nBadgers sleep by day.\n');
    await vi.waitFor(async () => expect(await hits(e, 'badgers')).toEqual(['b.md']), WAIT);
    notes.write('a.md', '# Alpha\n\nAlpacas hum.\n');
    await vi.waitFor(async () => expect(await hits(e, 'alpacas')).toEqual(['a.md']), WAIT);
    expect(await hits(e, 'aardvarks')).toEqual([]);

    fs.mkdirSync(notes.path('archive'));
    fs.renameSync(notes.path('b.md'), notes.path('archive/b.md'));
    await vi.waitFor(async () => expect(await hits(e, 'badgers')).toEqual(['archive/b.md']), WAIT);
    const db = openDatabase(dbFile.file);
    try {
      expect(db.prepare("SELECT count(*) FROM events WHERE kind = 'document.moved' AND path = 'archive/b.md'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }

    notes.remove('a.md');
    await vi.waitFor(async () => expect(await hits(e, 'alpacas')).toEqual([]), WAIT);
    await vi.waitFor(() => expect(e.watchStatus(id)).toMatchObject({ queued: 0, busy: false, error: null }), WAIT);
    expect(e.doctor().filter((c) => !c.ok)).toEqual([]);
  });

  it('watches again once a folder that went away (unmounted, renamed away) is back at its path, and says so', async () => {
    const e = open();
    await e.importFolder({ path: notes.root });
    const id = await watching(e);
    const away = `${notes.root}-away`;
    fs.renameSync(notes.root, away);
    try {
      await vi.waitFor(() => expect(e.watchStatus(id).error).toMatch(/is gone or cannot be read/), WAIT);
      expect(await hits(e, 'aardvarks')).toEqual(['a.md']); // kept while it is away
    } finally {
      fs.renameSync(away, notes.root);
    }
    await vi.waitFor(() => expect(e.watchStatus(id)).toMatchObject({ error: null, busy: false, queued: 0 }), WAIT);
    notes.write('b.md', '# Beta\n\nBadgers sleep by day.\n');
    await vi.waitFor(async () => expect(await hits(e, 'badgers')).toEqual(['b.md']), WAIT);
    expect(await hits(e, 'aardvarks')).toEqual(['a.md']);
  });

  it('paused, imports nothing; resumed, catches up on what changed meanwhile; stopped, stays off after a restart', async () => {
    const e = open();
    await e.importFolder({ path: notes.root });
    const id = await watching(e);
    expect((await e.call('setWatch', { collectionId: id, state: 'paused' })).state).toBe('paused');
    notes.write('c.md', '# Gamma\n\nCapybaras swim well.\n');
    // Give a watcher that wrongly kept running every chance to import it.
    await new Promise((r) => setTimeout(r, TIMINGS.debounceMs * 4));
    expect(await hits(e, 'capybaras')).toEqual([]);
    expect((await e.call('library', {})).collections[0]!.watch.state).toBe('paused');

    await e.call('setWatch', { collectionId: id, state: 'watching' });
    await vi.waitFor(async () => expect(await hits(e, 'capybaras')).toEqual(['c.md']), WAIT);

    await e.call('setWatch', { collectionId: id, state: 'off' });
    await e.close();
    const again = open();
    expect(again.watchStatus(id).state).toBe('off');
    notes.write('d.md', '# Delta\n\nDingoes howl.\n');
    await new Promise((r) => setTimeout(r, TIMINGS.debounceMs * 4));
    expect(await hits(again, 'dingoes')).toEqual([]);
  });

  it('keeps changes it saw in the database, so a restart imports them', async () => {
    const e = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, version: '0.0.0-test', watch: true, watchTimings: { debounceMs: 60_000, maxWaitMs: 60_000 } });
    engine = e;
    await e.importFolder({ path: notes.root });
    const id = await watching(e);
    notes.write('e.md', '# Epsilon\n\nEchidnas lay eggs.\n');
    // Queued (the watcher wrote it down) but not imported: the quiet spell is a minute long.
    await vi.waitFor(async () => expect((await e.call('library', {})).collections[0]!.pending.map((p) => p.relPath)).toEqual(['e.md']), WAIT);
    expect(e.watchStatus(id).queued).toBe(1);
    expect(await hits(e, 'echidnas')).toEqual([]);
    await e.close();

    const again = open();
    await vi.waitFor(async () => expect(await hits(again, 'echidnas')).toEqual(['e.md']), WAIT);
    await vi.waitFor(() => expect(again.watchStatus(id)).toMatchObject({ queued: 0, busy: false }), WAIT);
  });

  it('counts as waiting only the changes the Library lists: documents and files it will read, not folders', async () => {
    const e = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, version: '0.0.0-test', watch: true, watchTimings: { debounceMs: 60_000, maxWaitMs: 60_000 } });
    engine = e;
    await e.importFolder({ path: notes.root, embed: false });
    const id = await watching(e);
    fs.mkdirSync(notes.path('projects/2026'), { recursive: true });
    notes.write('projects/2026/plan.md', '# Plan\n\nPlant the beans.\n');
    notes.write('a.md', '# Alpha\n\nAlpacas hum.\n');
    const pending = async () => (await e.call('library', {})).collections[0]!.pending.map((p) => p.relPath).sort();
    await vi.waitFor(async () => expect(await pending()).toEqual(['a.md', 'projects/2026/plan.md']), WAIT);
    // The watcher queued the two folders as well (an import walks a folder whole), but no row is theirs.
    expect(e.watchStatus(id).queued).toBe(2);
    expect((await e.call('library', {})).collections[0]!.watch.queued).toBe(2);
  });

  it('finishes a whole-folder import that a restart cut short, in the app but not in the CLI', async () => {
    for (let i = 0; i < 40; i++) notes.write(`n${i}.md`, `# Note ${i}\n\nQuokkas number ${i}.\n`);
    const e = open(false);
    const controller = new AbortController();
    // Quitting mid-import: the engine closes while the import runs.
    const running = e.importFolder({ path: notes.root, embed: false }, { signal: controller.signal, onProgress: (p) => p.filesDone === 5 && void e.close() });
    const report = await running.catch(() => null);
    expect(report === null || report.cancelled).toBe(true);
    engine = null;

    const cli = open(false);
    expect((await cli.search({ query: 'quokkas', mode: 'lexical', k: 50 })).results.length).toBeLessThan(40);
    await cli.close();

    const app = open(true);
    await vi.waitFor(async () => expect((await app.search({ query: 'quokkas', mode: 'lexical', k: 50 })).results).toHaveLength(40), WAIT);
  });

  it('a person who cancels an import is not surprised by it resuming later', async () => {
    for (let i = 0; i < 40; i++) notes.write(`n${i}.md`, `# Note ${i}\n\nQuokkas number ${i}.\n`);
    const e = open(false);
    const controller = new AbortController();
    const report = await e.importFolder({ path: notes.root, embed: false }, { signal: controller.signal, onProgress: (p) => p.filesDone === 5 && controller.abort() });
    expect(report.cancelled).toBe(true);
    const indexed = (await e.search({ query: 'quokkas', mode: 'lexical', k: 50 })).results.length;
    await e.close();
    const app = open(true);
    await new Promise((r) => setTimeout(r, TIMINGS.debounceMs * 4));
    expect((await app.search({ query: 'quokkas', mode: 'lexical', k: 50 })).results).toHaveLength(indexed);
  });
});
