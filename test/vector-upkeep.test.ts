import { describe, expect, it } from 'vitest';
import { main } from '../electron/cli/run';
import { useEngineFixture } from './support/engine-fixture';

/** 60 notes of two paragraphs on a dozen topics: about 120 chunks, over a threshold set low. */
const TOPICS = ['tar archives', 'git branches', 'ssh keys', 'docker images', 'cron jobs', 'nginx proxies', 'sqlite indexes', 'rust lifetimes', 'python venvs', 'dns records', 'tls certificates', 'backup rotation'];
const notes = Object.fromEntries(
  Array.from({ length: 60 }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length]!;
    return [`note-${i}.md`, `# ${topic} ${i}\n\nHow we handle ${topic} on server ${i}: check the ${topic} first, then write it down.\n\nNote ${i} about ${topic}: the ${topic} runbook says to ask the on-call person about ${topic} before changing anything.\n`];
  }),
);

const f = useEngineFixture({ prefix: 'quire-upkeep', notes });

describe('the bits for two-stage search after an import', () => {
  it('are built and calibrated in the background once past the threshold, and status says how searches run', async () => {
    f.engine.settings.set({ denseQuantizeAbove: 100 });
    const report = await f.engine.importFolder({ path: f.notes.root, chunker: 'heading:32' });
    expect(report.chunks).toBeGreaterThanOrEqual(100);
    // Nobody waits for it: the import started it.
    const deadline = Date.now() + 20_000;
    while (f.engine.indexStatus().activeModel?.dense.calibratedVectors === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const dense = f.engine.indexStatus().activeModel!.dense;
    expect(dense.bits).toEqual({ built: report.chunks, total: report.chunks, ready: true });
    expect(dense.calibratedVectors).toBe(report.chunks);
    expect(dense.recallAt10).not.toBeNull();
    // Whatever the stand-in's hashed vectors allow: two stages with a measured factor, or exact and why.
    if (dense.oversampling !== null) expect(dense).toMatchObject({ method: 'quantized', reason: expect.stringMatching(/^two-stage/) });
    else expect(dense).toMatchObject({ method: 'exact', reason: expect.stringMatching(/^exact: no oversampling/) });
    // Search works either way, hybrid, with the same passages' shape.
    const r = await f.engine.search({ query: 'git branches runbook', k: 3 });
    expect(r.mode).toBe('hybrid');
    expect(r.results.length).toBe(3);
    expect(f.engine.doctor().every((c) => c.ok)).toBe(true);
  });

  it('follow the threshold setting when it changes, both ways, without an import or a restart', async () => {
    f.engine.settings.set({ denseQuantizeAbove: 100_000 });
    const report = await f.engine.importFolder({ path: f.notes.root, chunker: 'heading:32' });
    expect(report.chunks).toBeGreaterThanOrEqual(100);
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + 20_000;
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return done();
    };
    const dense = () => f.engine.indexStatus().activeModel!.dense;
    const store = async () => (await f.engine.call('vectorStores', {})).stores.find((s) => s.active)!;
    expect(dense()).toMatchObject({ method: 'exact', bits: null });
    const floats = (await store()).bytes;
    expect(floats).toBe(report.chunks * f.engine.indexStatus().activeModel!.dimension * 4);

    // Lowered: built and calibrated in the background straight away.
    await f.engine.saveSettings({ denseQuantizeAbove: 100 });
    expect(await until(() => dense().calibratedVectors > 0)).toBe(true);
    expect(dense().bits?.ready).toBe(true);
    // The float copy for rescoring (and the bits) now count in the store's size.
    expect((await store()).bytes).toBeGreaterThan(2 * floats);

    // Raised again: exact at once, and the copy and bits are removed.
    await f.engine.saveSettings({ denseQuantizeAbove: 100_000 });
    expect(dense().method).toBe('exact');
    expect(await until(() => dense().bits === null)).toBe(true);
    expect((await store()).bytes).toBe(floats);
    expect(f.engine.doctor().every((c) => c.ok)).toBe(true);
  });

  it('the CLI import waits for them before it exits, and its status prints the method', async () => {
    f.engine.settings.set({ denseQuantizeAbove: 100 });
    const io = (sink: string[]) => ({ stdout: { write: (t: string) => void sink.push(t) }, stderr: { write: () => {} }, env: { OLLAMA_HOST: f.ollama.url } });
    // Another engine (the CLI's own, as a separate process would have), on the same database.
    expect(await main(['import', f.notes.root, '--chunker', 'heading:32', '--db', f.dbFile], io([]))).toBe(0);
    const dense = f.engine.indexStatus().activeModel!.dense;
    expect(dense.bits?.ready).toBe(true);
    expect(dense.calibratedVectors).toBeGreaterThanOrEqual(100);
    const status: string[] = [];
    expect(await main(['status', '--db', f.dbFile], io(status))).toBe(0);
    expect(status.join('')).toMatch(/^Vector search: (two-stage: sign bits, ×\d+ oversampling|exact: no oversampling up to ×128)/m);
  });
});
