import type { BaseWindow, Dialog, OpenDialogOptions, Shell } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { createShellActions } from './shell-actions';

function deps(result: { canceled: boolean; filePaths: string[] }, openPathResult = '', win: BaseWindow | null = { isDestroyed: () => false } as unknown as BaseWindow) {
  const showOpenDialog = vi.fn(async (..._args: unknown[]) => result);
  const openPath = vi.fn(async (_p: string) => openPathResult);
  return {
    showOpenDialog,
    openPath,
    actions: createShellActions({
      dialog: { showOpenDialog } as unknown as Pick<Dialog, 'showOpenDialog'>,
      shell: { openPath } as unknown as Pick<Shell, 'openPath'>,
      getWindow: () => win,
    }),
    win,
  };
}

describe('createShellActions', () => {
  it('chooseFolder opens a directory picker on our window and returns the choice', async () => {
    const d = deps({ canceled: false, filePaths: ['/home/me/notes'] });
    await expect(d.actions.chooseFolder()).resolves.toBe('/home/me/notes');
    const [win, options] = d.showOpenDialog.mock.calls[0]!;
    expect(win).toBe(d.win);
    expect((options as OpenDialogOptions).properties).toEqual(['openDirectory']);
  });

  it('chooseFolder returns null when cancelled or empty', async () => {
    await expect(deps({ canceled: true, filePaths: ['/x'] }).actions.chooseFolder()).resolves.toBeNull();
    await expect(deps({ canceled: false, filePaths: [] }).actions.chooseFolder()).resolves.toBeNull();
  });

  it('chooseFolder without a window opens an unparented picker', async () => {
    const d = deps({ canceled: false, filePaths: ['/n'] }, '', null);
    await expect(d.actions.chooseFolder()).resolves.toBe('/n');
    expect(d.showOpenDialog.mock.calls[0]).toHaveLength(1);
  });

  it('openPath is true only when shell.openPath reports no error', async () => {
    const ok = deps({ canceled: true, filePaths: [] }, '');
    await expect(ok.actions.openPath('/notes/a.md')).resolves.toBe(true);
    expect(ok.openPath).toHaveBeenCalledExactlyOnceWith('/notes/a.md');
    await expect(deps({ canceled: true, filePaths: [] }, 'No application is associated').actions.openPath('/notes/a.md')).resolves.toBe(false);
  });
});
