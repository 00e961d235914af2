import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { vi } from 'vitest';

/**
 * Makes `file` behave like one on a hung network mount: its open (or, with `stage: 'read'`, the
 * read of a handle that says it is a regular file) does not return until release() is called, and
 * ignores any signal, as a call stuck in the kernel does. Other files open as usual. Undo with
 * vi.restoreAllMocks().
 */
export function hangFile(file: string, stage: 'open' | 'read'): { release(): void; closed: ReturnType<typeof vi.fn> } {
  const realOpen = fsp.open.bind(fsp);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const closed = vi.fn(async () => {});
  const handle = {
    stat: async () => fs.statSync(file),
    readFile: async () => {
      await released;
      return Buffer.from('late');
    },
    close: closed,
  };
  vi.spyOn(fsp, 'open').mockImplementation(async (p, ...rest) => {
    if (String(p) !== file) return realOpen(p, ...rest);
    if (stage === 'open') await released;
    return handle as unknown as fsp.FileHandle;
  });
  return { release, closed };
}
