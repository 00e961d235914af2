import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './lazy';

describe('loadOnce', () => {
  it('loads once and shares the result', async () => {
    const load = vi.fn(async () => 'chart');
    const get = loadOnce(load);
    expect(await Promise.all([get(), get()])).toEqual(['chart', 'chart']);
    expect(await get()).toBe('chart');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    let n = 0;
    const load = vi.fn(async () => {
      n++;
      if (n === 1) throw new Error('chunk failed to load');
      return 'chart';
    });
    const get = loadOnce(load);
    await expect(get()).rejects.toThrow('chunk failed to load');
    expect(await get()).toBe('chart');
    expect(await get()).toBe('chart');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('a load that throws at once is a rejection too, and is retried', async () => {
    let n = 0;
    const get = loadOnce(() => {
      if (++n === 1) throw new Error('sync');
      return Promise.resolve(1);
    });
    await expect(get()).rejects.toThrow('sync');
    expect(await get()).toBe(1);
  });
});
