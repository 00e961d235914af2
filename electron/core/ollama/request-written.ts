import diagnostics from 'node:diagnostics_channel';

/** Published by the fetch Node (and Electron's Node) is built with once a request's body is written. */
const BODY_SENT = 'undici:request:bodySent';

/**
 * Resolves once Node's fetch has written a request whose path starts with `pathPrefix` to its
 * socket, or after `capMs` whichever comes first. Work that blocks the event loop (keyword search
 * is synchronous) waits for this, so a request started before it is on its way to Ollama instead
 * of waiting behind it: one turn of the loop was enough on Node 20, not on Node 22, whose fetch
 * takes more turns to connect and write. Listen before starting the request.
 */
export function requestWritten(pathPrefix: string, capMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      diagnostics.unsubscribe(BODY_SENT, onSent);
      resolve();
    };
    const onSent = (message: unknown) => {
      const path = (message as { request?: { path?: unknown } }).request?.path;
      if (typeof path === 'string' && path.startsWith(pathPrefix)) done();
    };
    const timer = setTimeout(done, capMs);
    diagnostics.subscribe(BODY_SENT, onSent);
  });
}
