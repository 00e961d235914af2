import { describe, expect, it, vi } from 'vitest';
import { ApiError, createClient } from '../../../shared/contract';
import { createBridgeTransport, isBridge, type Bridge } from './bridge-transport';
import { pickTransport } from './index';

describe('desktop bridge transport', () => {
  const bridge = (over: Partial<Bridge> = {}): Bridge => ({
    onEvent: vi.fn(() => () => {}),
    status: vi.fn(async () => ({ ok: true, value: { fine: true } })),
    search: vi.fn(async () => ({ ok: false, error: { code: 'INVALID_ARGUMENT', message: 'Too long.' } })),
    ...over,
  });

  it('unwraps values and turns error envelopes into ApiError', async () => {
    const client = createClient(createBridgeTransport(bridge()));
    await expect(client.status({})).resolves.toEqual({ fine: true });
    const error = await client.search({ query: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'Too long.' });
  });

  it('refuses a method the bridge does not expose', async () => {
    const client = createClient(createBridgeTransport(bridge()));
    await expect(client.library({})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('is chosen when window.quire is a bridge, and not for anything else', () => {
    expect(isBridge(bridge())).toBe(true);
    expect(isBridge({ invoke: () => {} })).toBe(false);
    const b = bridge();
    const seen = vi.fn();
    pickTransport({ quire: b } as unknown as Window).subscribe(seen);
    expect(b.onEvent).toHaveBeenCalledWith(seen);
  });
});
