import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createClient, type ApiEvent } from '../../../shared/contract';
import { createJobHub } from '../app/job-hub';
import { createFakeClient } from './fake-transport';
import { createHttpTransport, takeToken } from './http-transport';
import { describeError, ERROR_MESSAGES } from './messages';
import { ERROR_CODES } from '../../../shared/errors';

class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = 1;
  onmessage: ((m: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  send(data: unknown, lastEventId = '') {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data), lastEventId } as MessageEvent);
  }
}

afterEach(() => {
  FakeEventSource.instances = [];
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('browser-mode transport', () => {
  it('takes the token from the hash once, keeps it in sessionStorage and removes it from the address', () => {
    history.replaceState(null, '', '/index.html?x=1#token=s3cr%2Bt');
    expect(takeToken()).toBe('s3cr+t');
    expect(location.hash).toBe('');
    expect(location.search).toBe('?x=1');
    expect(sessionStorage.getItem('quire.token')).toBe('s3cr+t');
    expect(takeToken()).toBe('s3cr+t');
  });

  it('POSTs /api/<method> with the bearer token and unwraps {ok,value}', async () => {
    const fetch = vi.fn(async (..._a: unknown[]) => json({ ok: true, value: { jobId: 'j1' } }));
    const client = createClient(createHttpTransport({ token: 'tok', fetch: fetch as unknown as typeof globalThis.fetch }));
    await expect(client.importFolder({ path: '/n' })).resolves.toEqual({ jobId: 'j1' });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/importFolder');
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
    expect(init.body).toBe('{"path":"/n"}');
  });

  it('throws ApiError with the boundary code and message', async () => {
    const fetch = vi.fn(async () => json({ ok: false, error: { code: 'NOT_A_FOLDER', message: '/x is not a folder.' } }, 400));
    const client = createClient(createHttpTransport({ token: 't', fetch: fetch as unknown as typeof globalThis.fetch }));
    const err = await client.importFolder({ path: '/x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('NOT_A_FOLDER');
    expect((err as ApiError).message).toBe('/x is not a folder.');
  });

  it('turns a bare 401 into UNAUTHORIZED', async () => {
    const fetch = vi.fn(async () => new Response('nope', { status: 401 }));
    const client = createClient(createHttpTransport({ token: 'bad', fetch: fetch as unknown as typeof globalThis.fetch }));
    await expect(client.status({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('shares one EventSource among subscribers, parses events, ignores junk, closes when the last leaves', () => {
    const t = createHttpTransport({ token: 'a b', EventSource: FakeEventSource as unknown as typeof EventSource });
    const seenA: ApiEvent[] = [];
    const seenB: ApiEvent[] = [];
    const offA = t.subscribe((e) => seenA.push(e));
    const offB = t.subscribe((e) => seenB.push(e));
    expect(FakeEventSource.instances).toHaveLength(1);
    const es = FakeEventSource.instances[0]!;
    expect(es.url).toBe('/api/events?token=a%20b');
    es.send({ type: 'library.changed' });
    es.send('not json');
    es.send({ type: 'no.such.event' });
    expect(seenA).toEqual([{ type: 'library.changed' }]);
    expect(seenB).toEqual([{ type: 'library.changed' }]);
    offA();
    expect(es.closed).toBe(false);
    offB();
    expect(es.closed).toBe(true);
  });

  it('reopens the stream when the browser gives up on it', async () => {
    vi.useFakeTimers();
    try {
      const t = createHttpTransport({ token: 't', EventSource: FakeEventSource as unknown as typeof EventSource, reopenMs: 1000 });
      t.subscribe(() => {});
      const first = FakeEventSource.instances[0]!;
      first.readyState = FakeEventSource.CLOSED;
      first.onerror?.();
      await vi.advanceTimersByTimeAsync(1000);
      expect(FakeEventSource.instances).toHaveLength(2);
      expect(FakeEventSource.instances[1]!.url).toBe('/api/events?token=t');
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks the reopened stream for what came after the last event it received', async () => {
    vi.useFakeTimers();
    try {
      const t = createHttpTransport({ token: 't', EventSource: FakeEventSource as unknown as typeof EventSource, reopenMs: 1000 });
      const got: ApiEvent[] = [];
      t.subscribe((e) => got.push(e));
      const first = FakeEventSource.instances[0]!;
      first.send({ type: 'library.changed' }, '41');
      first.send({ type: 'library.changed' }, '42');
      first.readyState = FakeEventSource.CLOSED;
      first.onerror?.();
      await vi.advanceTimersByTimeAsync(1000);
      expect(FakeEventSource.instances[1]!.url).toBe('/api/events?token=t&lastEventId=42');
      expect(got).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('job hub', () => {
  it('replays events that arrived before the job id was known', () => {
    const { client, transport } = createFakeClient();
    const hub = createJobHub(client);
    const stop = hub.connect();
    transport.emit({ type: 'job.progress', jobId: 'early', kind: 'import', progress: { phase: 'scanning', filesDone: 0, filesTotal: 0, chunks: 0, bytesDone: 0, bytesTotal: 0, currentFile: null } });
    const got: string[] = [];
    hub.watch('early', (e) => got.push(e.type));
    transport.emit({ type: 'job.done', jobId: 'early', kind: 'import', result: null, error: null });
    expect(got).toEqual(['job.progress', 'job.done']);
    stop();
    expect(transport.listenerCount()).toBe(0);
  });
});

describe('error messages', () => {
  it('has a sentence for every error code and UNAUTHORIZED', () => {
    for (const code of [...ERROR_CODES, 'UNAUTHORIZED'] as const) expect(ERROR_MESSAGES[code]).toMatch(/\.$/);
    expect(describeError(new ApiError('OLLAMA_UNREACHABLE', 'fetch failed')).sentence).toContain('ollama serve');
    expect(describeError(new ApiError('SOMETHING_NEW', 'Raw words.'))).toEqual({ code: 'SOMETHING_NEW', sentence: 'Raw words.', detail: null });
  });
});
