/**
 * The service's desktop-only actions, done with Electron's dialog and shell. The service itself
 * checks that a path handed to openPath is a note Quire reads, a regular file whose real path lies
 * inside an imported folder (core/api/source-file.ts), so the OS never launches a program for it.
 */
import type { BaseWindow, Dialog, OpenDialogOptions, Shell } from 'electron';
import type { ShellActions } from '../core/engine';

export interface ShellActionDeps {
  dialog: Pick<Dialog, 'showOpenDialog'>;
  shell: Pick<Shell, 'openPath'>;
  getWindow: () => BaseWindow | null;
}

export const CHOOSE_FOLDER_OPTIONS: OpenDialogOptions = {
  title: 'Import a folder of notes',
  buttonLabel: 'Import',
  properties: ['openDirectory'],
};

export function createShellActions({ dialog, shell, getWindow }: ShellActionDeps): ShellActions {
  return {
    async chooseFolder() {
      const win = getWindow();
      const options: OpenDialogOptions = { ...CHOOSE_FOLDER_OPTIONS, properties: [...(CHOOSE_FOLDER_OPTIONS.properties ?? [])] };
      const result = win && !win.isDestroyed() ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      if (result.canceled) return null;
      return result.filePaths[0] ?? null;
    },
    async openPath(absolutePath) {
      // shell.openPath resolves with an error message, or '' on success.
      const error = await shell.openPath(absolutePath);
      return error === '';
    },
  };
}
