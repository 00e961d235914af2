import { describe, expect, it, vi } from 'vitest';
import { QuireError } from '../../../shared/errors';
import { EventSchema, type ApiEvent, type JobDoneEvent, type JobKind } from '../../../shared/contract';
import { useEngineFixture } from '../../../test/support/engine-fixture';

// Every job reports the same way: job.progress events, then one job.done, each valid against the
// contract (the renderer's useJob relies on it). The evaluation's are covered in evaluation.test.ts.

const f = useEngineFixture({ prefix: 'quire-jobs', notes: { 'ops/keys.md': '# Keys\n\nWe rotate the deploy keys every 90 days. The platform team owns the rotation.\n' }, evalDir: (f) => `${f}.eval` });

async function startJob(method: string, input: unknown): Promise<string> {
  const res = await f.engine.dispatch(method, input);
  if (!res.ok) throw new Error(`${method}: ${res.error.code} ${res.error.message}`);
  return (res.value as { jobId: string }).jobId;
}

/** The job's events once its job.done has come, checked against the contract. */
async function eventsOf<K extends JobKind>(kind: K, jobId: string): Promise<{ progress: unknown[]; done: JobDoneEvent<K> }> {
  for (let i = 0; i < 600; i++) {
    const mine = f.events.filter((e) => 'jobId' in e && e.jobId === jobId);
    const done = mine.find((e) => e.type === 'job.done');
    if (done) {
      for (const e of mine) expect(EventSchema.safeParse(e).error).toBeUndefined();
      expect(mine.every((e) => 'kind' in e && e.kind === kind)).toBe(true);
      expect(mine.filter((e) => e.type === 'job.done')).toHaveLength(1);
      expect(mine.at(-1)).toBe(done);
      return { progress: mine.filter((e) => e.type === 'job.progress').map((e) => (e as { progress: unknown }).progress), done: done as JobDoneEvent<K> };
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no job.done for ${jobId}`);
}

describe('job events', () => {
  it('import, ask, embed and pull each report job.progress, then one job.done with their result', async () => {
    const imported = await eventsOf('import', await startJob('importFolder', { path: f.notes.root }));
    expect(imported.progress.length).toBeGreaterThan(0);
    expect(imported.done.error).toBeNull();
    expect(imported.done.result?.documents.added).toBe(1);

    // The answer's steps are its progress; its result (done or error) ends it.
    const asked = await eventsOf('ask', await startJob('ask', { question: 'How often are the deploy keys rotated?' }));
    expect(asked.progress.map((p) => (p as { type: string }).type)).toContain('retrieval');
    expect(asked.progress.every((p) => !['done', 'error'].includes((p as { type: string }).type))).toBe(true);
    expect(asked.done.result?.question).toBe('How often are the deploy keys rotated?');
    expect(asked.done.error === null).toBe(asked.done.result?.status !== 'error');

    const embedded = await eventsOf('embed', await startJob('embedMissing', {}));
    expect(embedded.done).toMatchObject({ result: { chunks: expect.any(Number) }, error: null });

    const pulled = await eventsOf('pull', await startJob('pullModel', { model: 'all-minilm' }));
    expect(pulled.progress.length).toBeGreaterThan(0);
    expect(pulled.progress[0]).toMatchObject({ status: 'pulling manifest', completed: null, total: null });
    expect(pulled.done).toMatchObject({ result: { model: 'all-minilm' }, error: null });
  });

  it('a failed job ends with its error', async () => {
    const pulled = await eventsOf('pull', await startJob('pullModel', { model: 'no-such-model' }));
    expect(pulled.done.result).toBeNull();
    expect(pulled.done.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });

    // An answer that fails still ends with its result, beside the error.
    await eventsOf('import', await startJob('importFolder', { path: f.notes.root }));
    const asked = await eventsOf('ask', await startJob('ask', { question: 'How often are the deploy keys rotated?', chatModel: 'no-such-model' }));
    expect(asked.done.error?.code).toBeTruthy();
    expect(asked.done.result).toMatchObject({ status: 'error', error: asked.done.error });
  });

  it('an answer cancelled midway, or whose stream throws, ends with job.done and its error; a question of blanks is refused before any job', async () => {
    await eventsOf('import', await startJob('importFolder', { path: f.notes.root }));
    // Slow enough that the cancel lands while the answer streams.
    f.ollama.faults.streamDelayMs = 200;
    try {
      const jobId = await startJob('ask', { question: 'How often are the deploy keys rotated?' });
      for (let i = 0; i < 400 && !f.events.some((e) => e.type === 'job.progress' && e.jobId === jobId); i++) await new Promise((r) => setTimeout(r, 5));
      expect(await f.engine.dispatch('cancel', { jobId })).toEqual({ ok: true, value: { cancelled: true } });
      const asked = await eventsOf('ask', jobId);
      expect(asked.done.error?.code).toBe('CANCELLED');
    } finally {
      f.ollama.faults.streamDelayMs = 0;
    }

    // A failure the stream throws instead of ending with (storing the turn when another process
    // holds the database) ends the job with its error, not silence.
    const thrown = vi.spyOn(f.engine, 'ask').mockImplementation(async function* () {
      throw new QuireError('WRITE_FAILED', 'The database is busy.');
    });
    try {
      const failed = await eventsOf('ask', await startJob('ask', { question: 'How often are the deploy keys rotated?' }));
      expect(failed.done).toMatchObject({ result: null, error: { code: 'WRITE_FAILED', message: 'The database is busy.' } });
    } finally {
      thrown.mockRestore();
    }

    const blank = await f.engine.dispatch('ask', { question: ' \n\t ' });
    expect(blank).toEqual({ ok: false, error: { code: 'INVALID_ARGUMENT', message: 'Ask a question first.' } });
  });
});
