import { ApiError, type ApiEvent, type MethodName, type Transport } from '../../../shared/contract';

/** window.quire as the Electron preload exposes it: one named function per method, and events. */
export type Bridge = { [M in MethodName]?: (input: unknown) => Promise<unknown> } & {
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** The path of a file dropped on the window (desktop only; see dropped-path.ts). */
  pathForFile?(file: File): string | null;
};

type Envelope = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

/**
 * The desktop transport: calls the bridge's function of that name and unwraps the dispatcher's
 * envelope into a value or an ApiError, as the HTTP transport does.
 */
export function createBridgeTransport(bridge: Bridge): Transport {
  return {
    async invoke(method, input) {
      const fn = bridge[method];
      if (typeof fn !== 'function') throw new ApiError('INVALID_ARGUMENT', `The desktop bridge has no method "${method}".`);
      const reply = (await fn(input)) as Envelope;
      if (reply && reply.ok === true) return reply.value;
      const error = reply && reply.ok === false ? reply.error : { code: 'INTERNAL', message: 'The desktop bridge gave no answer.' };
      throw new ApiError(error.code, error.message);
    },
    subscribe(listener) {
      return bridge.onEvent(listener);
    },
  };
}

export function isBridge(value: unknown): value is Bridge {
  return typeof value === 'object' && value !== null && typeof (value as Bridge).onEvent === 'function' && typeof (value as Bridge).status === 'function';
}
