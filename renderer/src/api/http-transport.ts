import { ApiError, EventSchema, type ApiEvent, type MethodName, type Transport } from '../../../shared/contract';

const TOKEN_KEY = 'quire.token';

/**
 * The session token of browser mode: read once from `#token=...` (the URL the server printed),
 * kept in sessionStorage so a reload still works, and removed from the address bar at once so it
 * does not linger in history or screenshots.
 */
export function takeToken(win: Window = window): string {
  const hash = win.location.hash.replace(/^#/, '');
  const fromHash = hash ? new URLSearchParams(hash).get('token') : null;
  if (fromHash) {
    try {
      win.sessionStorage.setItem(TOKEN_KEY, fromHash);
    } catch {
      // Storage may be disabled; the token still works for this page's lifetime.
    }
    win.history.replaceState(win.history.state, '', win.location.pathname + win.location.search);
    return fromHash;
  }
  try {
    return win.sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

type Body = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

function isBody(x: unknown): x is Body {
  return typeof x === 'object' && x !== null && typeof (x as { ok?: unknown }).ok === 'boolean';
}

export interface HttpTransportOptions {
  token: string;
  fetch?: typeof fetch;
  EventSource?: typeof EventSource;
  /** Delay before reopening an event stream the browser gave up on. */
  reopenMs?: number;
}

/** Transport over the browser-mode server: POST /api/<method>, and one shared SSE stream for events. */
export function createHttpTransport(opts: HttpTransportOptions): Transport {
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const ES = opts.EventSource ?? globalThis.EventSource;
  const listeners = new Set<(e: ApiEvent) => void>();
  let source: EventSource | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | null = null;
  // The id of the last event received: a stream opened again asks the server for what came after.
  let lastEventId = '';

  function open(): void {
    const resume = lastEventId ? '&lastEventId=' + encodeURIComponent(lastEventId) : '';
    const es = new ES('/api/events?token=' + encodeURIComponent(opts.token) + resume);
    es.onmessage = (msg: MessageEvent) => {
      if (msg.lastEventId) lastEventId = msg.lastEventId;
      let data: unknown;
      try {
        data = JSON.parse(String(msg.data));
      } catch {
        return;
      }
      const parsed = EventSchema.safeParse(data);
      if (!parsed.success) return;
      for (const l of [...listeners]) l(parsed.data);
    };
    es.onerror = () => {
      // The browser retries by itself while CONNECTING; once CLOSED it has given up, so we retry.
      if (es.readyState === ES.CLOSED && source === es && listeners.size > 0) {
        source = null;
        reopenTimer = setTimeout(() => {
          reopenTimer = null;
          if (listeners.size > 0 && !source) open();
        }, opts.reopenMs ?? 2000);
      }
    };
    source = es;
  }

  function close(): void {
    if (reopenTimer) clearTimeout(reopenTimer);
    reopenTimer = null;
    source?.close();
    source = null;
  }

  return {
    async invoke(method: MethodName, input: unknown): Promise<unknown> {
      let res: Response;
      try {
        res = await doFetch('/api/' + method, {
          method: 'POST',
          headers: { Authorization: 'Bearer ' + opts.token, 'Content-Type': 'application/json' },
          body: JSON.stringify(input ?? {}),
        });
      } catch (e) {
        throw new ApiError('UNREACHABLE', `Could not reach Quire: ${(e as Error).message}`);
      }
      let body: unknown = null;
      try {
        body = await res.json();
      } catch {
        body = null;
      }
      if (isBody(body)) {
        if (body.ok) return body.value;
        throw new ApiError(body.error.code, body.error.message);
      }
      if (res.status === 401 || res.status === 403) throw new ApiError('UNAUTHORIZED', 'The session token was refused.');
      throw new ApiError('INTERNAL', `Quire answered ${res.status} without a readable body.`);
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!source && !reopenTimer) open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) close();
      };
    },
  };
}
