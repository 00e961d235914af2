/**
 * The application menu, as a template built from callbacks and flags so it can be checked without
 * Electron. Reload and DevTools exist only in development builds.
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuCallbacks {
  /** File › Import Folder…: pick a folder and import it. */
  importFolder(): void;
  /** Help › Show Data Folder: the folder holding quire.db. */
  showDataFolder(): void;
}

export interface MenuOptions {
  appName: string;
  isMac: boolean;
  isDev: boolean;
}

export const IMPORT_FOLDER_ACCELERATOR = 'CmdOrCtrl+O';

export function buildMenuTemplate(callbacks: MenuCallbacks, options: MenuOptions): MenuItemConstructorOptions[] {
  const { appName, isMac, isDev } = options;
  const template: MenuItemConstructorOptions[] = [];

  if (isMac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }

  template.push({
    label: 'File',
    submenu: [
      { id: 'import-folder', label: 'Import Folder…', accelerator: IMPORT_FOLDER_ACCELERATOR, click: () => callbacks.importFolder() },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  });

  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(isMac ? ([{ role: 'pasteAndMatchStyle' }] as MenuItemConstructorOptions[]) : []),
      { role: 'delete' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  });

  template.push({
    label: 'View',
    submenu: [
      ...(isDev ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[]) : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  });

  template.push({
    label: 'Window',
    role: 'window',
    submenu: isMac
      ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  });

  template.push({
    label: 'Help',
    role: 'help',
    submenu: [
      { id: 'show-data-folder', label: 'Show Data Folder', click: () => callbacks.showDataFolder() },
      ...(isMac ? [] : ([{ type: 'separator' }, { role: 'about' }] as MenuItemConstructorOptions[])),
    ],
  });

  return template;
}
