import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API } from '../../shared/contract';
import { BOUNDS, NUMERIC_SETTINGS, SETTING_KEYS, SETTINGS, SettingsSchema } from '../../shared/settings';
import { NotesFolder, tempDbPath } from '../../test/support/notes';
import { startStandin, type Standin } from '../../test/support/ollama-standin/server';
import { createEngine, restoreFrom, setAsideDamaged, type Engine } from './engine';
import { FakeSecretBox } from '../../test/support/fake-secret-box';
import { hasBuildUnderWay, startBuild } from './db/keyword-index-build';
import { dueForRebuild } from './db/keyword-statistics';
import { openDatabase, type Db } from './db/open';

let ollama: Standin;
let notes: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;
let engine: Engine;

beforeAll(async () => {
  ollama = await startStandin();
});
afterAll(async () => {
  await ollama?.close();
});
beforeEach(() => {
  notes = new NotesFolder('quire-engine-');
  notes.write('ops/keys.md', '# Keys\n\nWe rotate the deploy keys every 90 days. The platform team owns the rotation.\n');
  notes.write('food/bread.md', '# Bread\n\nBake the loaf at 250 degrees for twenty minutes.\n');
  dbFile = tempDbPath('quire-engine-db-');
  engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, version: '0.0.0-test' });
  ollama.calls.reset();
});
afterEach(async () => {
  await engine.close();
  notes.dispose();
  dbFile.dispose();
});

describe('settings: one table, one store', () => {
  it('the contract schema, the store and the table name the same settings', () => {
    expect(Object.keys(SettingsSchema.shape).sort()).toEqual([...SETTING_KEYS].sort());
    expect(Object.keys(engine.settings.all()).sort()).toEqual([...SETTING_KEYS].sort());
    // Every default passes its own schema (the Ollama host's comes from the environment).
    for (const key of SETTING_KEYS) expect(SETTINGS[key].schema.safeParse(SETTINGS[key].fallback).success, key).toBe(true);
    // Storage keys are distinct, so two settings can never overwrite each other.
    expect(new Set(SETTING_KEYS.map((k) => SETTINGS[k].storageKey)).size).toBe(SETTING_KEYS.length);
  });

  it('reads defaults, the environment host, then what was saved; refuses a bad value and keeps the old one', async () => {
    expect(engine.settings.all()).toEqual({ ollamaHost: ollama.url, chatModel: 'llama3.2', embedModel: 'embeddinggemma', k: 6, chunkTokens: 256, numCtx: 8192, searchMode: 'hybrid', fusion: 'weighted:0.2', denseQuantizeAbove: 20_000, embedBatchesInFlight: 2, maxFileMb: 20 });
    engine.settings.set({ k: 3, fusion: 'weighted:0.30' });
    expect(engine.settings.get('k')).toBe(3);
    expect(engine.settings.get('fusion')).toBe('weighted:0.3');
    expect(() => engine.settings.set({ k: 21 })).toThrow(/Passages per answer \(k\).*saved value is kept/);
    expect(() => engine.settings.set({ k: 4, numCtx: 100 })).toThrow(/Context window/);
    // Nothing of a refused patch is stored, not even its valid part.
    expect(engine.settings.get('k')).toBe(3);
    // The contract's setSettings goes through the same store.
    await expect(engine.call('setSettings', { chunkTokens: 10 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await engine.call('getSettings', {})).chunkTokens).toBe(256);
  });

  it('the Ollama host, from Settings or OLLAMA_HOST, is http(s) only; a bad one is refused with a sentence and the old one kept', async () => {
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'http://me:pw@gpu-box:11434']) {
      await expect(engine.call('setSettings', { ollamaHost: bad })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^Ollama host: .*The saved value is kept\.$/) });
      expect((await engine.call('getSettings', {})).ollamaHost).toBe(ollama.url);
    }
    await engine.close();
    engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: 'file:///etc/passwd' } });
    await expect(engine.call('getSettings', {})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^OLLAMA_HOST: .*not file:/) });
    expect((await engine.dispatch('status', {})) as { ok: boolean }).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    // A good host saved in Settings wins over the bad environment, so the app can be put right.
    expect((await engine.call('setSettings', { ollamaHost: ollama.url })).ollamaHost).toBe(ollama.url);
    expect((await engine.call('status', {})).ollama).toMatchObject({ host: ollama.url, connected: true });
  });

  it('a host saved by an older Quire that is not http(s) is ignored, never contacted', async () => {
    const { setSetting } = await import('./db/settings');
    const { openDatabase } = await import('./db/open');
    const db = openDatabase(dbFile.file);
    setSetting(db, SETTINGS.ollamaHost.storageKey, 'file://127.0.0.1:80/etc/passwd');
    db.close();
    expect(engine.settings.get('ollamaHost')).toBe(ollama.url);
  });

  it('every numeric setting has the bounds the contract uses; out of bounds is refused and the old value kept', async () => {
    const bounds = { k: BOUNDS.k, chunkTokens: BOUNDS.chunkTokens, numCtx: BOUNDS.numCtx, denseQuantizeAbove: BOUNDS.denseQuantizeAbove, embedBatchesInFlight: BOUNDS.embedBatchesInFlight, maxFileMb: BOUNDS.maxFileMb } as const;
    expect([...NUMERIC_SETTINGS].sort()).toEqual(Object.keys(bounds).sort());
    // The contract's ask input takes its limits from the same table.
    expect(API.ask.input.safeParse({ question: 'q', k: BOUNDS.k.max + 1 }).success).toBe(false);
    expect(API.ask.input.safeParse({ question: 'q', numCtx: BOUNDS.numCtx.min - 1 }).success).toBe(false);
    for (const [key, b] of Object.entries(bounds) as Array<[keyof typeof bounds, { min: number; max: number }]>) {
      expect(engine.settings.set({ [key]: b.min })[key]).toBe(b.min);
      expect(engine.settings.set({ [key]: b.max })[key]).toBe(b.max);
      const range = `${SETTINGS[key].label} takes a whole number from ${b.min.toLocaleString('en')} to ${b.max.toLocaleString('en')}`;
      for (const bad of [b.min - 1, b.max + 1, b.min + 0.5, '12', null, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(engine.call('setSettings', { [key]: bad })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(range) });
        expect(() => engine.settings.set({ [key]: bad })).toThrow(`${range}. The saved value is kept.`);
        expect(engine.settings.get(key)).toBe(b.max);
      }
    }
  });

  it('every operation uses the saved settings: chunk size and model on import, k and context cap on ask', async () => {
    engine.settings.set({ chunkTokens: 32, k: 2, numCtx: 2048 });
    const report = await engine.importFolder({ path: notes.root });
    expect(report.embedding.status).toBe('ok');
    expect(ollama.calls.last('/api/embed')?.body).toMatchObject({ model: 'embeddinggemma:latest' });
    const answer = [];
    for await (const e of engine.ask({ question: 'How often are the deploy keys rotated?' })) answer.push(e);
    const done = answer.find((e) => e.type === 'done' || e.type === 'error');
    expect(done && 'result' in done ? done.result.budget : null).toMatchObject({ numCtx: 2048 });
    expect(done && 'result' in done ? done.result.budget!.k : 99).toBeLessThanOrEqual(2);
    expect(ollama.calls.last('/api/chat')?.body).toMatchObject({ model: 'llama3.2:latest', options: { num_ctx: 2048 } });
  });
});

describe('the largest file an import reads', () => {
  it('is a setting every import follows, named in the skip; a file skipped for size is read once the limit allows it', async () => {
    notes.write('book.md', `# A long book\n\n${'The chapter goes on about lighthouses. '.repeat(40_000)}\n`);
    engine.settings.set({ maxFileMb: 1 });
    const small = await engine.importFolder({ path: notes.root });
    expect(small.skipped).toEqual([{ path: 'book.md', reason: 'too-large', message: '1.5 MB is over the 1.0 MB limit for one file (Settings › Largest file to import (MB), or --max-file-mb).' }]);
    engine.settings.set({ maxFileMb: 2 });
    const larger = await engine.importFolder({ path: notes.root });
    expect(larger.skipped).toEqual([]);
    expect(larger.documents.added + larger.documents.updated).toBe(1);
    expect((await engine.search({ query: "lighthouses", mode: "lexical" })).results[0]?.path).toBe("book.md");
    // A CLI flag still says otherwise for its own import.
    notes.write('book.md', `# A longer book\n\n${'The chapter goes on about lighthouses. '.repeat(40_000)}\n`);
    const flagged = await engine.importFolder({ path: notes.root, maxFileMb: 1 });
    expect(flagged.skipped.map((s) => s.path)).toEqual(['book.md']);
  });
});

describe('the Ollama gateway', () => {
  it('a hybrid search makes one request to Ollama, the query embedding, once the model is known', async () => {
    await engine.importFolder({ path: notes.root });
    ollama.calls.reset();
    const first = await engine.search({ query: 'deploy key rotation', mode: 'hybrid' });
    expect(first.mode).toBe('hybrid');
    ollama.calls.reset();
    const second = await engine.search({ query: 'how hot is the oven for bread', mode: 'hybrid' });
    expect(second.mode).toBe('hybrid');
    expect(ollama.calls.entries.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/embed']);
  });

  it('a model pulled or changed since is seen: an import reads the model list afresh', async () => {
    await engine.importFolder({ path: notes.root });
    ollama.setDimension('embeddinggemma', 384);
    notes.write('new.md', '# New\n\nA note written after the model changed.\n');
    const report = await engine.importFolder({ path: notes.root });
    expect(report.embedding.status).toBe('ok');
    expect(engine.indexStatus().activeModel?.dimension).toBe(384);
  });
});

describe('the evaluation', () => {
  it('takes the context cap saved in the app unless a rerun brings its own', async () => {
    engine.settings.set({ numCtx: 4096 });
    const questions = [{ id: 'q1', question: 'How often are the deploy keys rotated?', expect: { answerable: true, chunkFact: 'every 90 days' } }];
    const grid = { chatModels: [], embedModels: ['embeddinggemma'], chunkers: ['heading:256'], ks: [3], modes: ['lexical' as const], fusions: ['rrf:60'], repeats: 1 };
    const saved = await engine.evaluate({ docs: notes.root, questions: questions as never, questionSetName: 't', grid });
    expect(saved.run.answerSettings.numCtxCap).toBe(4096);
    const rerun = await engine.evaluate({ docs: notes.root, questions: questions as never, questionSetName: 't', grid, numCtxCap: 2048 });
    expect(rerun.run.answerSettings.numCtxCap).toBe(2048);
    // Both reports are stored where the Evaluate view lists them.
    expect((await engine.call('evalReports', {})).reports).toHaveLength(2);
  });
});

describe('one import at a time per database', () => {
  it('two imports in one process run one after the other: the second waits, then finds nothing to redo', async () => {
    for (let i = 0; i < 20; i++) notes.write(`bulk/n${i}.md`, `# Note ${i}\n\nBody of note ${i} about topic ${i}.\n`);
    const phases: string[][] = [[], []];
    const [a, b] = await Promise.all([
      engine.importFolder({ path: notes.root, embed: false }, { onProgress: (p) => phases[0]!.push(p.phase) }),
      engine.importFolder({ path: notes.root, embed: false }, { onProgress: (p) => phases[1]!.push(p.phase) }),
    ]);
    expect(phases[0]).not.toContain('waiting');
    expect(phases[1]![0]).toBe('waiting');
    expect(a.documents.added).toBe(22);
    expect(b.documents).toMatchObject({ added: 0, unchanged: 22, failed: 0 });
    expect(a.errors.concat(b.errors)).toEqual([]);
  });

  it('waits while another process holds the database\'s import lock, says whose, then imports', async () => {
    const lockFile = `${dbFile.file}.import-lock`;
    // A live process that is not this one: our parent.
    fs.writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, what: '/their/notes', startedAt: 'now' }));
    const waits: Array<string | null> = [];
    const importing = engine.importFolder({ path: notes.root, embed: false }, { onProgress: (p) => p.phase === 'waiting' && waits.push(p.currentFile) });
    await new Promise((r) => setTimeout(r, 400));
    expect(waits).toEqual(['/their/notes']);
    expect(engine.indexStatus().documents.total).toBe(0);
    fs.rmSync(lockFile);
    expect((await importing).documents.added).toBe(2);
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('an import waiting for the lock can be cancelled', async () => {
    const lockFile = `${dbFile.file}.import-lock`;
    fs.writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, what: '/their/notes', startedAt: 'now' }));
    const controller = new AbortController();
    const importing = engine.importFolder({ path: notes.root, embed: false }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(importing).rejects.toMatchObject({ code: 'CANCELLED' });
    fs.rmSync(lockFile);
  });
});

describe('starting over from a damaged database', () => {
  it('sets the file aside unchanged, and a fresh engine gets its settings back and re-imports its folders', async () => {
    engine.settings.set({ k: 3, chunkTokens: 128, ollamaHeaders: { Authorization: 'Bearer team-token', 'X-Team': 'ops' } });
    await engine.importFolder({ path: notes.root, embed: false });
    await engine.close();
    const bytes = fs.readFileSync(dbFile.file);
    const { movedTo, salvage } = setAsideDamaged(dbFile.file);
    expect(fs.readFileSync(movedTo).equals(bytes)).toBe(true);
    expect(fs.existsSync(dbFile.file)).toBe(false);
    expect(salvage.roots).toEqual([fs.realpathSync(notes.root)]);

    engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url } });
    const done = new Promise<void>((resolve) => engine.onEvent((e) => e.type === 'job.done' && e.kind === 'import' && resolve()));
    const jobs = await restoreFrom(engine, salvage);
    expect(jobs).toHaveLength(1);
    await done;
    expect(engine.settings.get('k')).toBe(3);
    expect(engine.settings.get('chunkTokens')).toBe(128);
    // The request headers too, though no setting returns them: a team's token is not lost.
    expect(engine.settings.headers()).toEqual({ Authorization: 'Bearer team-token', 'X-Team': 'ops' });
    expect(engine.indexStatus().documents.total).toBe(2);
  });
});

describe('starting over with sealed request headers', () => {
  it('takes the sealed values over as they are, and the same keychain opens them; a plain one left over is sealed', async () => {
    const box = new FakeSecretBox();
    await engine.close();
    engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, secretBox: box });
    engine.settings.set({ ollamaHeaders: { Authorization: 'Bearer team-token' } });
    await engine.close();
    const { salvage } = setAsideDamaged(dbFile.file);
    const raw = salvage.settings.find((s) => s.key === 'ollama_headers')!.value;
    expect(raw).not.toContain('team-token');

    engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, secretBox: box });
    await restoreFrom(engine, { ...salvage, roots: [] });
    expect(engine.settings.headers()).toEqual({ Authorization: 'Bearer team-token' });
    const stored = engine.settings.headerStorage();
    expect(stored.sealed).toBe(true);
    const raw2 = new Database(dbFile.file, { readonly: true });
    try {
      expect(raw2.prepare("SELECT value FROM settings WHERE key = 'ollama_headers'").pluck().get()).not.toContain('team-token');
    } finally {
      raw2.close();
    }
  });
});

describe('switching embedding models', () => {
  it('keeps searching with the old model until the new one is complete; switching back to a complete one is instant, even offline', async () => {
    await engine.importFolder({ path: notes.root });
    expect(engine.indexStatus().activeModel?.name).toBe('embeddinggemma:latest');
    engine.settings.set({ embedModel: 'nomic-embed-text' });
    // Nothing of nomic-embed-text exists yet: searches stay on the complete, old model.
    expect(engine.indexStatus().activeModel?.name).toBe('embeddinggemma:latest');
    const outcome = await engine.embedMissing({});
    expect(outcome.chunks).toBeGreaterThan(0);
    expect(engine.indexStatus().activeModel?.name).toBe('nomic-embed-text:latest');
    await ollama.stop();
    try {
      engine.settings.set({ embedModel: 'embeddinggemma' });
      expect(engine.indexStatus().activeModel?.name).toBe('embeddinggemma:latest');
    } finally {
      await ollama.start();
    }
  });
});

describe('a change of embedding model interrupted by a restart', () => {
  it('is reported in status, and a long-lived shell carries it on at startup until searches use the new model', async () => {
    await engine.importFolder({ path: notes.root });
    engine.settings.set({ embedModel: 'nomic-embed-text' });
    expect((await engine.call('status', {})).migration).toEqual({ to: 'nomic-embed-text:latest', documentsLeft: 2 });
    await engine.close(); // the app quit before the new vectors were built

    // The CLI does not start jobs by itself…
    engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url } });
    await new Promise((r) => setTimeout(r, 100));
    expect(engine.indexStatus().activeModel?.name).toBe('embeddinggemma:latest');
    await engine.close();

    // …the app does.
    engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, resumeMigration: true });
    const done = new Promise<unknown>((resolve) => engine.onEvent((e) => e.type === 'job.done' && e.kind === 'embed' && resolve(e.error)));
    expect(await done).toBeNull();
    expect(engine.indexStatus().activeModel?.name).toBe('nomic-embed-text:latest');
    expect((await engine.call('status', {})).migration).toBeNull();
  });
});

describe('a change of embedding model changed again mid-way', () => {
  it('an embedding run for a model no longer chosen does not take over searches; one whose missing documents were forgotten completes the switch', async () => {
    await engine.importFolder({ path: notes.root });
    engine.settings.set({ embedModel: 'nomic-embed-text' });
    let switchedBack = false;
    await engine.embedMissing(
      {},
      {
        onProgress: () => {
          if (!switchedBack) {
            switchedBack = true;
            engine.settings.set({ embedModel: 'embeddinggemma' });
          }
        },
      },
    );
    expect(switchedBack).toBe(true);
    expect(engine.indexStatus().activeModel?.name).toBe('embeddinggemma:latest');
    expect((await engine.call('status', {})).migration).toBeNull();
  });
});

describe('a change of embedding model whose remaining documents were forgotten', () => {
  it('an embedding run with nothing left to embed switches searches to the version Ollama serves', async () => {
    const other = new NotesFolder('quire-engine-other-');
    try {
      other.write('tea.md', '# Tea\n\nSteep the oolong for three minutes.\n');
      await engine.importFolder({ path: notes.root });
      await engine.importFolder({ path: other.root });
      engine.settings.set({ embedModel: 'nomic-embed-text' });
      await engine.importFolder({ path: notes.root }); // builds the new vectors of this folder only
      expect(engine.indexStatus().activeModel?.name).toBe('embeddinggemma:latest');
      await engine.forgetFolder(other.root); // the documents still lacking them go
      const outcome = await engine.embedMissing({});
      expect(outcome.chunks).toBe(0);
      expect(engine.indexStatus().activeModel?.name).toBe('nomic-embed-text:latest');
      expect((await engine.call('status', {})).migration).toBeNull();
    } finally {
      other.dispose();
    }
  });
});

describe('an embedding run with nothing to embed', () => {
  it('needs no Ollama: neither an unreachable one nor one whose certificate this computer does not trust fails it', async () => {
    await engine.importFolder({ path: notes.root });
    expect((await engine.embedMissing({})).chunks).toBe(0);
    // The stand-in over TLS with a self-signed certificate nothing here trusts.
    const dir = path.join(import.meta.dirname, '../../test/support/tls');
    const untrusted = await startStandin({ tls: { key: fs.readFileSync(path.join(dir, 'localhost.key')), cert: fs.readFileSync(path.join(dir, 'localhost.crt')) } });
    try {
      engine.settings.set({ ollamaHost: untrusted.url });
      await expect(engine.embedMissing({})).resolves.toMatchObject({ chunks: 0, requests: 0 });
      engine.settings.set({ ollamaHost: 'http://127.0.0.1:9' });
      await expect(engine.embedMissing({})).resolves.toMatchObject({ chunks: 0, requests: 0 });
      // With something to embed, the certificate's sentence is the answer, not a silent zero.
      notes.write('food/soup.md', '# Soup\n\nSimmer the stock for an hour.\n');
      await engine.importFolder({ path: notes.root, embed: false });
      engine.settings.set({ ollamaHost: untrusted.url });
      await expect(engine.embedMissing({})).rejects.toMatchObject({ code: 'OLLAMA_ERROR', message: expect.stringMatching(/certificate this computer does not trust/) });
    } finally {
      await untrusted.close();
    }
  });
  it('needs no embedding model in Ollama either: one removed since (e.g. ollama rm) does not fail it', async () => {
    const own = await startStandin();
    try {
      engine.settings.set({ ollamaHost: own.url });
      await engine.importFolder({ path: notes.root });
      own.removeModel(engine.settings.get('embedModel'));
      await expect(engine.embedMissing({})).resolves.toMatchObject({ chunks: 0, requests: 0 });
      // With something to embed, the missing model is the answer.
      notes.write('food/soup.md', '# Soup\n\nSimmer the stock for an hour.\n');
      await engine.importFolder({ path: notes.root, embed: false });
      await expect(engine.embedMissing({})).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    } finally {
      await own.close();
    }
  });
});

describe('an import queued behind another in this engine', () => {
  it('can be cancelled while it waits', async () => {
    const lockFile = `${dbFile.file}.import-lock`;
    fs.writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, what: '/their/notes', startedAt: 'now' }));
    const first = engine.importFolder({ path: notes.root, embed: false });
    const controller = new AbortController();
    const second = engine.importFolder({ path: notes.root, embed: false }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(second).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(1000);
    fs.rmSync(lockFile);
    expect((await first).documents.added).toBe(2);
  });
});

describe('a folder forgotten while it is imported', () => {
  for (const embed of [false, true]) {
    it(`stops the import cleanly, and nothing of the folder remains (${embed ? 'with' : 'without'} vectors)`, async () => {
      for (let i = 0; i < 40; i++) notes.write(`many/n${String(i).padStart(2, '0')}.md`, `# Note ${i}\n\nThe body of note ${i}.\n`);
      let forgotten: ReturnType<Engine['forgetFolder']> | null = null;
      const report = await engine.importFolder(
        { path: notes.root, embed },
        {
          onProgress: (p) => {
            if (forgotten === null && p.filesDone === 10) forgotten = engine.forgetFolder(notes.root);
          },
        },
      );
      expect(forgotten).not.toBeNull();
      expect(report.cancelled).toBe(true);
      expect(report.errors).toEqual([]);
      expect(report.documents.failed).toBe(0);
      expect(engine.indexStatus().documents.total).toBe(0);
      expect(engine.indexStatus().chunks).toBe(0);
      expect((await engine.call('library', {})).collections).toEqual([]);
      expect(engine.doctor().filter((c) => !c.ok)).toEqual([]);
    });
  }
});

describe('a keyword index rebuild cut short by quitting', () => {
  it('a long-lived shell carries it on at startup; the CLI leaves it for the next import', async () => {
    await engine.importFolder({ path: notes.root, embed: false });
    await engine.close();
    const raw = openDatabase(dbFile.file);
    raw.transaction(() => startBuild(raw, 'chunks_fts')).immediate();
    raw.close();
    const builds = () => {
      const d = new Database(dbFile.file, { readonly: true });
      try {
        return d.prepare('SELECT count(*) FROM keyword_index_builds').pluck().get() as number;
      } finally {
        d.close();
      }
    };
    // The claim of the process that quit (no process has pid 2^22 + 1).
    const stale = `${2 ** 22 + 1}:quit`;
    const claimStale = () => {
      const d = new Database(dbFile.file);
      d.prepare('UPDATE keyword_index_builds SET owner = ?').run(stale);
      d.close();
    };
    claimStale();

    engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url } });
    await new Promise((r) => setTimeout(r, 200));
    expect(builds()).toBe(1);
    await engine.close();

    engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, resumeMigration: true });
    for (let i = 0; i < 100 && builds() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(builds()).toBe(0);
    expect(engine.doctor().filter((c) => !c.ok)).toEqual([]);
  });
});

describe('the keyword statistics after a forget or an import: in the background in a long-lived shell, awaited by the CLI', () => {
  const rebuilding = (db: Db) => hasBuildUnderWay(db) || dueForRebuild(db).length > 0;
  const settled = async (db: Db) => {
    for (let i = 0; i < 200 && rebuilding(db); i++) await new Promise((r) => setTimeout(r, 25));
    return !rebuilding(db);
  };
  const twoFolders = async (backgroundUpkeep: boolean) => {
    await engine.close();
    let db!: Db;
    engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url }, backgroundUpkeep, open: (file) => (db = openDatabase(file)) });
    const other = new NotesFolder('quire-engine-other-');
    for (let i = 0; i < 6; i++) other.write(`o${i}.md`, `# Other ${i}\n\nAnother note, number ${i}.\n`);
    await engine.importFolder({ path: notes.root, embed: false });
    await engine.importFolder({ path: other.root, embed: false });
    const otherId = engine.indexStatus().collections.find((c) => c.root === other.root)!.id;
    other.dispose();
    return { db, otherId, otherRoot: other.root };
  };

  it('the window is answered once the folder is gone; the rebuild follows', async () => {
    const { db, otherId } = await twoFolders(true);
    const answer = await engine.call('removeCollection', { collectionId: otherId });
    expect(answer).toEqual({ documents: 6 });
    expect(engine.indexStatus().collections.map((c) => c.id)).not.toContain(otherId);
    expect(rebuilding(db)).toBe(true);
    expect(await settled(db)).toBe(true);
  });

  it('an import job ends before the rebuild it made due', async () => {
    const { db } = await twoFolders(true);
    expect(await settled(db)).toBe(true);
    for (let i = 0; i < 6; i++) notes.write(`ops/n${i}.md`, `# N ${i}\n\nNote ${i}.\n`);
    await engine.importFolder({ path: notes.root, embed: false });
    for (let i = 0; i < 6; i++) notes.remove(`ops/n${i}.md`);
    const r = await engine.importFolder({ path: notes.root, embed: false });
    expect(r.documents.deleted).toBe(6);
    expect(r.warnings).toEqual([]);
    expect(rebuilding(db)).toBe(true);
    expect(await settled(db)).toBe(true);
    expect(engine.doctor().filter((c) => !c.ok)).toEqual([]);
  });

  it('the CLI (backgroundUpkeep: false) returns with the statistics rebuilt', async () => {
    const { db, otherRoot } = await twoFolders(false);
    const { documents, warnings } = await engine.forgetFolder(otherRoot);
    expect([documents, warnings]).toEqual([6, []]);
    expect(rebuilding(db)).toBe(false);
  });
});
