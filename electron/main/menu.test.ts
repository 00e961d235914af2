import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildMenuTemplate, IMPORT_FOLDER_ACCELERATOR } from './menu';

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flatten(i.submenu) : [])]);
}

const callbacks = () => ({ importFolder: vi.fn(), showDataFolder: vi.fn() });
const combos = [
  { isMac: false, isDev: false },
  { isMac: false, isDev: true },
  { isMac: true, isDev: false },
  { isMac: true, isDev: true },
];

describe('menu template', () => {
  it.each(combos)('has File › Import Folder… with Cmd/Ctrl+O that calls back (%o)', (flags) => {
    const cb = callbacks();
    const template = buildMenuTemplate(cb, { appName: 'Quire', ...flags });
    const file = template.find((m) => m.label === 'File');
    const item = (file?.submenu as MenuItemConstructorOptions[]).find((i) => i.label === 'Import Folder…');
    expect(item?.accelerator).toBe('CmdOrCtrl+O');
    expect(IMPORT_FOLDER_ACCELERATOR).toBe('CmdOrCtrl+O');
    (item?.click as () => void)();
    expect(cb.importFolder).toHaveBeenCalledTimes(1);
  });

  it.each(combos.filter((c) => !c.isDev))('has no DevTools and no reload outside development (%o)', (flags) => {
    const roles = flatten(buildMenuTemplate(callbacks(), { appName: 'Quire', ...flags })).map((i) => i.role);
    expect(roles).not.toContain('toggleDevTools');
    expect(roles).not.toContain('reload');
    expect(roles).not.toContain('forceReload');
  });

  it.each(combos.filter((c) => c.isDev))('has DevTools and reload in development (%o)', (flags) => {
    const roles = flatten(buildMenuTemplate(callbacks(), { appName: 'Quire', ...flags })).map((i) => i.role);
    expect(roles).toContain('toggleDevTools');
    expect(roles).toContain('reload');
  });

  it('has App (macOS only), File, Edit, View, Window and Help, with zoom and full screen', () => {
    const mac = buildMenuTemplate(callbacks(), { appName: 'Quire', isMac: true, isDev: false });
    expect(mac.map((m) => m.label)).toEqual(['Quire', 'File', 'Edit', 'View', 'Window', 'Help']);
    const other = buildMenuTemplate(callbacks(), { appName: 'Quire', isMac: false, isDev: false });
    expect(other.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    const roles = flatten(other).map((i) => i.role);
    for (const r of ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen', 'minimize', 'quit'] as const) {
      expect(roles).toContain(r);
    }
  });

  it('Help › Show Data Folder calls back', () => {
    const cb = callbacks();
    const item = flatten(buildMenuTemplate(cb, { appName: 'Quire', isMac: false, isDev: false })).find((i) => i.id === 'show-data-folder');
    (item?.click as () => void)();
    expect(cb.showDataFolder).toHaveBeenCalledTimes(1);
  });
});
