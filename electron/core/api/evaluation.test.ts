import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiEvent, JobDoneEvent, JobEvent, JobKind, JobProgressEvent } from '../../../shared/contract';
import { useEngineFixture } from '../../../test/support/engine-fixture';
import { extractiveReply } from '../../../test/support/ollama-standin/chat';

const f = useEngineFixture({ prefix: 'quire-evaluation', notes: { 'ops/keys.md': '# Keys\n\nWe rotate the deploy keys every 90 days. The platform team owns the rotation.\n', 'food/bread.md': '# Bread\n\nBake the loaf at 250 degrees for twenty minutes.\n' }, version: '1.2.3', evalDir: (f) => path.join(path.dirname(f), 'eval') });

const call = (method: string, input: unknown) => f.engine.dispatch(method, input);
async function value<T>(method: string, input: unknown): Promise<T> {
  const res = await call(method, input);
  if (!res.ok) throw new Error(`${method}: ${res.error.code} ${res.error.message}`);
  return res.value as T;
}
async function until<T extends 'job.progress' | 'job.done', K extends JobKind>(type: T, kind: K, jobId: string): Promise<Extract<JobEvent<K>, { type: T }>> {
  for (let i = 0; i < 600; i++) {
    const e = f.events.find((x) => x.type === type && 'kind' in x && x.kind === kind && x.jobId === jobId);
    if (e) return e as Extract<JobEvent<K>, { type: T }>;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no ${type} event of ${kind} job ${jobId}`);
}
/** How evaluation job `jobId` ended: its report's id (null: none stored) and its error. */
async function evalDone(jobId: string): Promise<{ reportId: number | null; error: JobDoneEvent['error'] }> {
  const e = await until('job.done', 'eval', jobId);
  return { reportId: e.result?.reportId ?? null, error: e.error };
}
/** The progress of evaluation job `jobId` so far. */
const evalProgress = (jobId: string) =>
  f.events.filter((e): e is JobProgressEvent<'eval'> => e.type === 'job.progress' && e.kind === 'eval' && e.jobId === jobId).map((e) => e.progress);
async function importNotes(): Promise<string> {
  const { jobId } = await value<{ jobId: string }>('importFolder', { path: f.notes.root });
  await until('job.done', 'import', jobId);
  const lib = await value<{ collections: Array<{ id: string }> }>('library', {});
  return lib.collections[0]!.id;
}

const FOLDER_SET = JSON.stringify([
  { id: 'keys', question: 'How often are the deploy keys rotated?', expect: { chunkFact: 'every 90 days', answerable: true } },
  { id: 'wifi', question: 'What is the office wifi password?', expect: { answerable: false } },
]);

describe('save as test', () => {
  it('turns a cited answer into a question expecting the passage the citation rests on', async () => {
    const collectionId = await importNotes();
    const chunkId = f.db.prepare("SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = 'ops/keys.md'").pluck().get() as string;
    const saved = await value<{ id: string; expect: unknown; file: string; root: string }>('saveAsTest', {
      expect: 'fact',
      question: 'How often are the deploy keys rotated?',
      chunkId,
      sentence: `The deploy keys are rotated every 90 days [${chunkId}].`,
    });
    expect(saved).toMatchObject({
      id: 'how-often-are-the-deploy-keys',
      expect: { chunkFact: 'We rotate the deploy keys every 90 days.', answerable: true },
      file: 'ops/keys.md',
    });
    const refusal = await value<{ id: string; expect: unknown; root: string | null }>('saveAsTest', { expect: 'refusal', question: 'How often are the deploy keys rotated?' });
    expect(refusal).toMatchObject({ id: 'how-often-are-the-deploy-keys-2', expect: { answerable: false }, root: null });

    const { sets } = await value<{ sets: Array<{ ref: { kind: string }; answerable: number; unanswerable: number; error: string | null }> }>('questionSets', { collectionId });
    expect(sets).toEqual([{ ref: { kind: 'saved' }, name: 'Saved from answers', answerable: 1, unanswerable: 1, error: null }]);
    expect(await value('deleteSavedQuestion', { id: refusal.id })).toEqual({ deleted: true });
    expect((await value<{ questions: unknown[] }>('savedQuestions', {})).questions).toHaveLength(1);
  });

  it('refuses a passage no longer in the index, with a sentence saying so', async () => {
    const res = await call('saveAsTest', { expect: 'fact', question: 'Q?', chunkId: 'gone#1', sentence: 'x' });
    expect(res).toMatchObject({ ok: false, error: { code: 'NOT_FOUND_IN_INDEX' } });
    expect((await value<{ questions: unknown[] }>('savedQuestions', {})).questions).toEqual([]);
  });
});

describe('question sets', () => {
  it("offers the folder's own file, and names every broken entry of a bad one", async () => {
    f.notes.write('.quire-questions.json', FOLDER_SET);
    const collectionId = await importNotes();
    // The set is Quire's, not a note: importing passed over it.
    expect(f.db.prepare("SELECT count(*) FROM documents WHERE rel_path LIKE '%quire-questions%'").pluck().get()).toBe(0);
    let { sets } = await value<{ sets: Array<{ ref: { kind: string }; answerable: number; unanswerable: number; error: string | null }> }>('questionSets', { collectionId });
    expect(sets[0]).toMatchObject({ ref: { kind: 'folder' }, answerable: 1, unanswerable: 1, error: null });
    expect(sets[1]).toMatchObject({ ref: { kind: 'saved' }, answerable: 0, error: expect.stringContaining('Save as test') });

    f.notes.write('.quire-questions.json', JSON.stringify([{ id: 'a', question: '', expect: { answerable: true } }]));
    sets = (await value<{ sets: typeof sets }>('questionSets', { collectionId })).sets;
    expect(sets[0]!.error).toMatch(/entry 1 \(id "a"\): "question" must be a non-empty string/);

    const bad = await call('checkQuestionSet', { name: 'mine.json', text: '{"questions": 3}' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_QUESTION_SET', message: expect.stringContaining('mine.json') } });
    expect(await value('checkQuestionSet', { name: 'mine.json', text: FOLDER_SET })).toMatchObject({ answerable: 1, unanswerable: 1, error: null, ref: { kind: 'file', name: 'mine.json' } });
  });
});

describe('evaluation jobs', () => {
  const grid = { chatModels: ['llama3.2'], embedModels: ['embeddinggemma'], chunkers: ['heading:256', 'fixed:64/8'], ks: [3], modes: ['lexical', 'hybrid'], repeats: 1 };

  it('runs the grid, reports progress, stores the report, and lists, reopens and deletes it', async () => {
    f.notes.write('.quire-questions.json', FOLDER_SET);
    const collectionId = await importNotes();
    await value('setSettings', { numCtx: 4096 });
    const { jobId } = await value<{ jobId: string }>('startEval', { collectionId, questionSet: { kind: 'folder' }, grid });
    const done = await evalDone(jobId);
    expect(done.error).toBeNull();
    const progress = evalProgress(jobId);
    expect(progress.at(-1)).toMatchObject({ done: 8, total: 8 });
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));

    const report = await value<{ configs: Array<{ metrics: { hit1: number } }>; run: { quire: string; questionSet: { name: string } } }>('getEvalReport', { id: done.reportId });
    expect(report.configs).toHaveLength(4);
    expect(report.configs.every((c) => c.metrics.hit1 === 1)).toBe(true);
    expect(report.run).toMatchObject({ quire: '1.2.3', questionSet: { name: '.quire-questions.json' } });
    expect((report.run as unknown as { answerSettings: { numCtxCap: number } }).answerSettings.numCtxCap).toBe(4096);
    const { reports } = await value<{ reports: Array<{ id: number; configs: number; questions: number }> }>('evalReports', {});
    expect(reports).toEqual([expect.objectContaining({ id: done.reportId, configs: 4, questions: 2, questionSet: '.quire-questions.json' })]);
    // Run again: the same questions, grid and settings; the comparison says it reproduced.
    const again = await value<{ jobId: string }>('rerunEval', { reportId: done.reportId });
    const againDone = await evalDone(again.jobId);
    expect(againDone.error).toBeNull();
    expect(againDone.reportId).not.toBe(done.reportId);
    const same = await value<{ same: boolean; metrics: unknown[] }>('compareEvalReports', { before: done.reportId, after: againDone.reportId });
    expect(same).toMatchObject({ same: true, metrics: [], questions: [], corpus: null });
    const rerun = await value<{ run: { grid: unknown; answerSettings: { numCtxCap: number } } }>('getEvalReport', { id: againDone.reportId });
    // A grid sent without fusions runs today's default fusion (not rrf:60, which old saved grids ran), and the report says so.
    expect(rerun.run.grid).toEqual({ ...grid, fusions: ['weighted:0.2'] });
    expect(rerun.run.answerSettings.numCtxCap).toBe(4096);

    f.notes.write('ops/keys.md', '# Keys\n\nThe deploy keys are rotated when someone remembers.\n');
    const changed = await value<{ jobId: string }>('rerunEval', { reportId: done.reportId });
    const changedDone = await evalDone(changed.jobId);
    const diff = await value<{ same: boolean; corpus: unknown; metrics: Array<{ metric: string; before: number; after: number }> }>('compareEvalReports', {
      before: done.reportId,
      after: changedDone.reportId,
    });
    expect(diff.same).toBe(false);
    expect(diff.corpus).not.toBeNull();
    const hit1 = diff.metrics.filter((m) => m.metric === 'hit1');
    expect(hit1).toHaveLength(4);
    expect(hit1.every((m) => m.before === 1 && m.after === 0)).toBe(true);
    expect(await call('rerunEval', { reportId: 999 })).toMatchObject({ ok: false, error: { code: 'EVAL_REPORT_NOT_FOUND' } });

    expect(await value('deleteEvalReport', { id: done.reportId })).toEqual({ deleted: true });

    // One index per embedding model × chunker; they go when their folder leaves the library.
    const storage = await value<{ indexes: number; bytes: number }>('evalStorage', {});
    expect(storage.indexes).toBe(2);
    expect(storage.bytes).toBeGreaterThan(0);
    expect(await value('removeCollection', { collectionId })).toMatchObject({ documents: 2 });
    expect(await value('evalStorage', {})).toEqual({ indexes: 0, bytes: 0 });
    expect(await call('getEvalReport', { id: done.reportId })).toMatchObject({ ok: false, error: { code: 'EVAL_REPORT_NOT_FOUND' } });
  });

  it('refuses a bad request on the call itself, before any job starts', async () => {
    const collectionId = await importNotes();
    expect(await call('startEval', { collectionId, questionSet: { kind: 'saved' }, grid })).toMatchObject({ ok: false, error: { code: 'INVALID_QUESTION_SET' } });
    expect(await call('startEval', { collectionId, questionSet: { kind: 'folder' }, grid })).toMatchObject({ ok: false, error: { code: 'INVALID_QUESTION_SET' } });
    const file = { kind: 'file', name: 'q.json', text: FOLDER_SET };
    expect(await call('startEval', { collectionId, questionSet: file, grid: { ...grid, chunkers: ['sideways:3'] } })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    expect(await call('startEval', { collectionId: 'nope', questionSet: file, grid })).toMatchObject({ ok: false, error: { code: 'COLLECTION_NOT_FOUND' } });
    expect(await call('startEval', { collectionId, questionSet: file, grid: { ...grid, ks: [] } })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    // Another process (a `quire eval` over the same database) holds the indexes.
    const lockFile = path.join(path.dirname(f.dbFile), 'eval', 'run.lock');
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, docs: '/elsewhere', startedAt: '' }));
    try {
      expect(await call('startEval', { collectionId, questionSet: file, grid })).toMatchObject({ ok: false, error: { code: 'EVAL_ALREADY_RUNNING', message: expect.stringContaining('/elsewhere') } });
      expect(await call('clearEvalIndexes', {})).toMatchObject({ ok: false, error: { code: 'EVAL_ALREADY_RUNNING' } });
    } finally {
      fs.rmSync(lockFile, { force: true });
    }
    expect(f.events.some((e) => e.type === 'job.progress' && e.kind === 'eval')).toBe(false);
  });

  it('cancelled after a configuration finished: the finished ones are stored, and the report says the rest did not run', async () => {
    const collectionId = await importNotes();
    f.ollama.faults.streamDelayMs = 30;
    try {
      const { jobId } = await value<{ jobId: string }>('startEval', { collectionId, questionSet: { kind: 'file', name: 'q.json', text: FOLDER_SET }, grid });
      await until('job.progress', 'eval', jobId);
      for (let i = 0; i < 400; i++) {
        const p = evalProgress(jobId).at(-1);
        if (p && p.done >= 2) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await value('cancel', { jobId });
      const done = await evalDone(jobId);
      expect(done.error?.code).toBe('CANCELLED');
      expect(done.reportId).not.toBeNull();
      const report = await value<{ configs: unknown[]; warnings: string[] }>('getEvalReport', { id: done.reportId });
      expect(report.configs.length).toBeGreaterThanOrEqual(1);
      expect(report.configs.length).toBeLessThan(4);
      expect(report.warnings).toEqual([`Cancelled after ${report.configs.length} of 4 configurations; the others did not run.`]);
    } finally {
      f.ollama.faults.streamDelayMs = 0;
    }
  });

  it('Ollama going away mid-run: the job ends OLLAMA_UNREACHABLE with the sentence, and the report of what ran is stored', async () => {
    const collectionId = await importNotes();
    // The first configuration's answer as usual; Ollama stops while giving the second one's.
    f.ollama.script(
      (ctx) => extractiveReply(ctx.kept),
      (ctx) => {
        void f.ollama.stop();
        return extractiveReply(ctx.kept);
      },
    );
    try {
      const { jobId } = await value<{ jobId: string }>('startEval', { collectionId, questionSet: { kind: 'file', name: 'q.json', text: FOLDER_SET }, grid });
      const done = await evalDone(jobId);
      expect(done.error?.code).toBe('OLLAMA_UNREACHABLE');
      expect(done.error?.message).toMatch(/^The evaluation stopped because Ollama could not be reached at http:\/\/127\.0\.0\.1:\d+: 6 of 8 question runs were not done\.$/);
      expect(done.reportId).not.toBeNull();
      const report = await value<{ configs: unknown[]; warnings: string[]; stopped: { reason: string; notDone: number } }>('getEvalReport', { id: done.reportId });
      expect(report.configs).toHaveLength(1);
      expect(report.stopped).toMatchObject({ reason: 'ollama-unreachable', notDone: 6 });
      expect(report.warnings).toContain(done.error?.message);
    } finally {
      await f.ollama.start();
    }
  });

  it('cancels: the job ends CANCELLED and stores no report', async () => {
    const collectionId = await importNotes();
    f.ollama.faults.streamDelayMs = 50;
    try {
      const { jobId } = await value<{ jobId: string }>('startEval', { collectionId, questionSet: { kind: 'file', name: 'q.json', text: FOLDER_SET }, grid });
      await until('job.progress', 'eval', jobId);
      expect((await value<{ evaluation: { jobId: string; total: number } | null }>('status', {})).evaluation).toMatchObject({ jobId, total: 8 });
      expect(await call('clearEvalIndexes', {})).toMatchObject({ ok: false, error: { code: 'EVAL_ALREADY_RUNNING' } });
      const second = await call('startEval', { collectionId, questionSet: { kind: 'file', name: 'q.json', text: FOLDER_SET }, grid });
      expect(second).toMatchObject({ ok: false, error: { code: 'EVAL_ALREADY_RUNNING' } });
      expect(await value('cancel', { jobId })).toEqual({ cancelled: true });
      const done = await evalDone(jobId);
      expect(done).toMatchObject({ reportId: null, error: { code: 'CANCELLED' } });
      expect((await value<{ reports: unknown[] }>('evalReports', {})).reports).toEqual([]);
      expect((await value<{ evaluation: unknown }>('status', {})).evaluation).toBeNull();
      // Once it has ended, the next run may start.
      const next = await value<{ jobId: string }>('startEval', { collectionId, questionSet: { kind: 'file', name: 'q.json', text: FOLDER_SET }, grid: { ...grid, chatModels: [] } });
      expect((await evalDone(next.jobId)).error).toBeNull();
      const cleared = await value<{ indexes: number }>('clearEvalIndexes', {});
      expect(cleared.indexes).toBe(2);
      expect(await value('evalStorage', {})).toEqual({ indexes: 0, bytes: 0 });
    } finally {
      f.ollama.faults.streamDelayMs = 0;
    }
  });
});
