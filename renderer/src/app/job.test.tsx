import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type JobKind, type MethodName } from '../../../shared/contract';
import { createFakeClient } from '../api/fake-transport';
import { ClientProvider } from './client';
import { useJob, type JobOptions } from './job';

type Handlers = Partial<Record<MethodName, (input: never) => unknown>>;

function setup<K extends JobKind>(kind: K, handlers: Handlers = {}, options: JobOptions<K> = {}) {
  const { client, transport } = createFakeClient({ cancel: () => ({ cancelled: true }), ...handlers });
  const wrapper = ({ children }: { children: ReactNode }) => <ClientProvider client={client}>{children}</ClientProvider>;
  const hook = renderHook(() => useJob(kind, options), { wrapper });
  return { ...hook, client, transport, emit: (e: Parameters<typeof transport.emit>[0]) => act(() => transport.emit(e)) };
}

/** A promise settled by hand, for a start call that answers later. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('useJob', () => {
  it('follows progress, then ends with the result of job.done', async () => {
    const onProgress = vi.fn();
    const onDone = vi.fn();
    const h = setup('pull', { pullModel: () => ({ jobId: 'p-1' }) }, { onProgress, onDone });
    expect(h.result.current.running).toBe(false);
    let start: Awaited<ReturnType<typeof h.result.current.start>> | undefined;
    await act(async () => {
      start = await h.result.current.start(() => h.client.pullModel({ model: 'm' }));
    });
    expect(start).toEqual({ started: true, jobId: 'p-1' });
    expect(h.result.current).toMatchObject({ jobId: 'p-1', running: true, progress: null, result: null, error: null });
    expect(h.result.current.startedAt).not.toBeNull();

    h.emit({ type: 'job.progress', jobId: 'p-1', kind: 'pull', progress: { status: 'pulling', completed: 10, total: 100 } });
    expect(h.result.current.progress).toEqual({ status: 'pulling', completed: 10, total: 100 });
    // Another job's events, and another kind's with the same id, are not this job's.
    h.emit({ type: 'job.progress', jobId: 'p-2', kind: 'pull', progress: { status: 'other', completed: 1, total: 2 } });
    h.emit({ type: 'job.done', jobId: 'p-1', kind: 'embed', result: { chunks: 3 }, error: null });
    h.emit({ type: 'job.progress', jobId: 'p-1', kind: 'pull', progress: { status: 'verifying', completed: 100, total: 100 } });
    await waitFor(() => expect(h.result.current.progress).toEqual({ status: 'verifying', completed: 100, total: 100 }));
    expect(h.result.current.running).toBe(true);
    expect(onProgress.mock.calls.map((c) => c[0].status)).toEqual(['pulling', 'verifying']);

    h.emit({ type: 'job.done', jobId: 'p-1', kind: 'pull', result: { model: 'm' }, error: null });
    expect(h.result.current).toMatchObject({ jobId: 'p-1', running: false, progress: null, result: { model: 'm' }, error: null });
    expect(h.result.current.finishedAt).not.toBeNull();
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ jobId: 'p-1', result: { model: 'm' }, error: null });
    // Nothing after the end changes it.
    h.emit({ type: 'job.progress', jobId: 'p-1', kind: 'pull', progress: { status: 'late', completed: 0, total: 0 } });
    h.emit({ type: 'job.done', jobId: 'p-1', kind: 'pull', result: null, error: { code: 'X', message: 'late' } });
    expect(h.result.current).toMatchObject({ running: false, progress: null, result: { model: 'm' }, error: null });
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('ends with the error of job.done, keeping the result that came with it', async () => {
    const h = setup('embed', { embedMissing: () => ({ jobId: 'e-1' }) });
    await act(async () => void (await h.result.current.start(() => h.client.embedMissing({}))));
    h.emit({ type: 'job.progress', jobId: 'e-1', kind: 'embed', progress: { documents: 2, chunks: 0 } });
    h.emit({ type: 'job.done', jobId: 'e-1', kind: 'embed', result: { chunks: 7 }, error: { code: 'OLLAMA_UNREACHABLE', message: 'no answer from Ollama' } });
    expect(h.result.current.running).toBe(false);
    expect(h.result.current.result).toEqual({ chunks: 7 });
    expect(h.result.current.error).toMatchObject({ code: 'OLLAMA_UNREACHABLE' });
    expect(h.result.current.progress).toBeNull();
  });

  it('says why a start failed, and the next start clears it', async () => {
    let fail = true;
    const h = setup('import', {
      importFolder: () => {
        if (fail) throw new ApiError('FOLDER_NOT_FOUND', 'No such folder.');
        return { jobId: 'i-2' };
      },
    });
    let start: Awaited<ReturnType<typeof h.result.current.start>> | undefined;
    await act(async () => {
      start = await h.result.current.start(() => h.client.importFolder({ path: '/nope' }));
    });
    expect(start).toMatchObject({ started: false, error: { code: 'FOLDER_NOT_FOUND' } });
    expect(h.result.current).toMatchObject({ running: false, jobId: null, error: { code: 'FOLDER_NOT_FOUND' } });
    fail = false;
    await act(async () => void (await h.result.current.start(() => h.client.importFolder({ path: '/notes' }))));
    expect(h.result.current).toMatchObject({ running: true, jobId: 'i-2', error: null });
  });

  it('gets the events that arrived before the start call returned the job id', async () => {
    const call = deferred<{ jobId: string }>();
    const onProgress = vi.fn();
    const onDone = vi.fn();
    const h = setup('eval', { startEval: () => call.promise }, { onProgress, onDone });
    let pending: Promise<unknown> = Promise.resolve();
    act(() => {
      pending = h.result.current.start(() => h.client.startEval({ collectionId: 'c', questionSet: { kind: 'folder' }, grid: {} as never }));
    });
    expect(h.result.current).toMatchObject({ running: true, jobId: null });
    // Over HTTP the event stream can be faster than the POST that started the job.
    h.emit({ type: 'job.progress', jobId: 'ev-1', kind: 'eval', progress: { done: 1, total: 4, label: 'a' } });
    h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: { reportId: 12 }, error: null });
    expect(h.result.current.running).toBe(true);
    await act(async () => {
      call.resolve({ jobId: 'ev-1' });
      await pending;
    });
    expect(onProgress).toHaveBeenCalledExactlyOnceWith({ done: 1, total: 4, label: 'a' }, 'ev-1');
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ jobId: 'ev-1', result: { reportId: 12 }, error: null });
    expect(h.result.current).toMatchObject({ jobId: 'ev-1', running: false, result: { reportId: 12 }, error: null });
  });

  it('cancels the running job, and a cancel asked before the id arrives once it does', async () => {
    const call = deferred<{ jobId: string }>();
    const h = setup('ask', { ask: () => call.promise });
    let pending: Promise<unknown> = Promise.resolve();
    act(() => {
      pending = h.result.current.start(() => h.client.ask({ question: 'q' }));
    });
    act(() => h.result.current.cancel());
    expect(h.transport.calls.filter((c) => c.method === 'cancel')).toEqual([]);
    await act(async () => {
      call.resolve({ jobId: 'a-1' });
      await pending;
    });
    await waitFor(() => expect(h.transport.calls.filter((c) => c.method === 'cancel').map((c) => c.input)).toEqual([{ jobId: 'a-1' }]));

    // Once the job is under way, cancel asks at once; the job still ends by its job.done.
    act(() => h.result.current.cancel());
    await waitFor(() => expect(h.transport.calls.filter((c) => c.method === 'cancel')).toHaveLength(2));
    expect(h.result.current.running).toBe(true);
    h.emit({ type: 'job.done', jobId: 'a-1', kind: 'ask', result: null, error: { code: 'CANCELLED', message: 'Cancelled.' } });
    expect(h.result.current).toMatchObject({ running: false, error: { code: 'CANCELLED' } });
    // Nothing runs: cancel asks nothing.
    act(() => h.result.current.cancel());
    expect(h.transport.calls.filter((c) => c.method === 'cancel')).toHaveLength(2);
  });

  it('refuses a second start while a job runs', async () => {
    const h = setup('pull', { pullModel: () => ({ jobId: 'p-1' }) });
    await act(async () => void (await h.result.current.start(() => h.client.pullModel({ model: 'a' }))));
    let second: Awaited<ReturnType<typeof h.result.current.start>> | undefined;
    await act(async () => {
      second = await h.result.current.start(() => h.client.pullModel({ model: 'b' }));
    });
    expect(second?.started).toBe(false);
    expect(h.transport.calls.filter((c) => c.method === 'pullModel')).toHaveLength(1);
    expect(h.result.current).toMatchObject({ jobId: 'p-1', running: true });
  });

  it('a job settled here still takes its job.done if it comes, and ignores progress meanwhile', async () => {
    const onDone = vi.fn();
    const h = setup('eval', {}, { onDone });
    act(() => h.result.current.track('ev-3', { startedAt: 1000, progress: { done: 2, total: 8, label: 'x' } }));
    expect(h.result.current).toMatchObject({ jobId: 'ev-3', running: true, startedAt: 1000, progress: { done: 2, total: 8, label: 'x' } });
    act(() => h.result.current.settle({ result: null, error: null }));
    expect(h.result.current).toMatchObject({ running: false, progress: null, result: null });
    h.emit({ type: 'job.progress', jobId: 'ev-3', kind: 'eval', progress: { done: 3, total: 8, label: 'y' } });
    expect(h.result.current.progress).toBeNull();
    h.emit({ type: 'job.done', jobId: 'ev-3', kind: 'eval', result: { reportId: 4 }, error: null });
    expect(h.result.current.result).toEqual({ reportId: 4 });
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ jobId: 'ev-3', result: { reportId: 4 }, error: null });
  });

  it('stops following when the component goes away', async () => {
    const onProgress = vi.fn();
    const h = setup('import', { importFolder: () => ({ jobId: 'i-1' }) }, { onProgress });
    await act(async () => void (await h.result.current.start(() => h.client.importFolder({ path: '/n' }))));
    h.unmount();
    h.transport.emit({ type: 'job.progress', jobId: 'i-1', kind: 'import', progress: { phase: 'scanning', filesDone: 0, filesTotal: 1, chunks: 0, bytesDone: 0, bytesTotal: 1, currentFile: null } });
    expect(onProgress).not.toHaveBeenCalled();
    expect(h.transport.listenerCount()).toBe(0);
  });
});
