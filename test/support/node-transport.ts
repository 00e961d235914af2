/**
 * A Transport for Node (tests and end-to-end drivers) that speaks browser mode's HTTP
 * protocol exactly as the renderer does: POST /api/<method> with the bearer token and the served
 * Origin, events from GET /api/events over Server-Sent Events. See electron/web/server.ts for the protocol.
 */
import { ApiError, EventSchema, type ApiEvent, type MethodName, type Transport } from '../../shared/contract';

export interface NodeTransportOptions {
  /** The served origin, e.g. http://127.0.0.1:PORT */
  origin: string;
  token: string;
  /** Wait before reconnecting a dropped event stream (the server's `retry:` hint wins). */
  retryMs?: number;
}

export interface NodeTransport extends Transport {
  /** Resolves once the event stream is open (after the first subscribe). */
  ready(): Promise<void>;
  /** Ends the event stream for good. */
  close(): void;
}

export function createNodeTransport(options: NodeTransportOptions): NodeTransport {
  const origin = options.origin.replace(/\/+$/, '');
  const listeners = new Set<(event: ApiEvent) => void>();
  let stream: AbortController | null = null;
  let closed = false;
  let retryMs = options.retryMs ?? 1000;
  let markReady: () => void = () => {};
  let readyPromise = new Promise<void>((r) => (markReady = r));

  async function invoke(method: MethodName, input: unknown): Promise<unknown> {
    const res = await fetch(`${origin}/api/${method}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify(input ?? {}),
    });
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new ApiError('INTERNAL', `Browser mode answered ${method} with HTTP ${res.status} and no JSON body.`);
    }
    const b = body as { ok?: unknown; value?: unknown; error?: { code?: unknown; message?: unknown } };
    if (b.ok === true) return b.value;
    const code = typeof b.error?.code === 'string' ? b.error.code : 'INTERNAL';
    const message = typeof b.error?.message === 'string' ? b.error.message : `HTTP ${res.status}`;
    throw new ApiError(code, message);
  }

  function deliver(data: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const checked = EventSchema.safeParse(parsed);
    if (!checked.success) return;
    for (const l of [...listeners]) l(checked.data);
  }

  async function connect(): Promise<void> {
    while (!closed && listeners.size > 0) {
      const controller = new AbortController();
      stream = controller;
      try {
        const res = await fetch(`${origin}/api/events?token=${encodeURIComponent(options.token)}`, {
          headers: { Accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        let data: string[] = [];
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let nl: number;
          while ((nl = buffer.search(/\r\n|\r|\n/)) !== -1) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
            if (line === '') {
              if (data.length > 0) deliver(data.join('\n'));
              data = [];
            } else if (line.startsWith(':')) {
              if (line.startsWith(': connected')) markReady();
            } else {
              const colon = line.indexOf(':');
              const field = colon === -1 ? line : line.slice(0, colon);
              const val = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'data') data.push(val);
              else if (field === 'retry' && /^\d+$/.test(val)) retryMs = Number(val);
            }
          }
        }
      } catch {
        // Dropped or refused: retry below unless closed.
      }
      if (closed || listeners.size === 0) break;
      readyPromise = new Promise<void>((r) => (markReady = r));
      await new Promise((r) => setTimeout(r, retryMs));
    }
    stream = null;
  }

  return {
    invoke,
    subscribe(listener) {
      listeners.add(listener);
      if (!stream && !closed) void connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stream?.abort();
      };
    },
    ready: () => readyPromise,
    close() {
      closed = true;
      listeners.clear();
      stream?.abort();
    },
  };
}
