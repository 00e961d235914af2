/**
 * Electron main: the entry of dist/electron/main.cjs. It only wires the core (database, service)
 * to the window through the preload's channels, with the renderer locked down: app:// only,
 * strict CSP, sandboxed, no navigation, no new windows, no permissions, no network.
 *
 * Order matters: the app:// scheme is made privileged and the sandbox enabled before ready; the
 * single-instance lock is taken at once; everything else happens on ready.
 */
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron';
import * as sqliteVec from 'sqlite-vec';
import { createEngine, restoreFrom, setAsideDamaged, type Engine, type Salvage } from '../core/engine';
import { APP_INDEX_URL, registerAppProtocol, registerSchemesAsPrivileged } from './app-protocol';
import { appPaths, type AppPaths } from './app-paths';
import { bundleDir } from './bundle-dir';
import { registerIpc, sendEvent, trustedSender } from './ipc';
import { buildMenuTemplate } from './menu';
import { betterSqliteBinding, dropDevelopmentSwitches, openDatabaseForElectron } from './native';
import { safeStorageBox } from './secret-box';
import { createShellActions } from './shell-actions';
import { describeStartupError } from './startup-error';
import { hardenContents, hardenSession, secureWebPreferences } from './window-security';

const isMac = process.platform === 'darwin';
const isDev = !app.isPackaged;

let mainWindow: BrowserWindow | null = null;
let engine: Engine | null = null;
let disposeIpc: (() => void) | null = null;
let paths: AppPaths | null = null;

const getWindow = (): BrowserWindow | null => (mainWindow && !mainWindow.isDestroyed() ? mainWindow : null);

/** A web or mail link clicked in an answer or a passage: the system browser opens it, never our window. */
const openLink = (url: string): void => void shell.openExternal(url).catch(() => {});

function note(line: string): void {
  process.stderr.write(`Quire: ${line}\n`);
}

function createWindow(preload: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Quire',
    show: false,
    // DevTools cannot be opened at all in packaged builds.
    webPreferences: { ...secureWebPreferences(preload), devTools: isDev },
  });
  hardenContents(win.webContents, openLink);
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(APP_INDEX_URL).catch((e: unknown) => note(`could not load ${APP_INDEX_URL}: ${e instanceof Error ? e.message : String(e)}`));
  return win;
}

function showStartupError(e: unknown, databaseFile: string): void {
  const { title, content } = describeStartupError(e, databaseFile);
  note(`${title}\n${content}`);
  dialog.showErrorBox(title, content);
}

function importFromMenu(): void {
  const current = engine;
  if (!current) return;
  void (async () => {
    const picked = await current.dispatch('chooseFolder', {});
    if (!picked.ok) return;
    const folder = (picked.value as { path: string | null }).path;
    if (!folder) return;
    // Progress and the result reach the window as events, like an import the page started.
    const started = await current.dispatch('importFolder', { path: folder });
    if (!started.ok) dialog.showErrorBox('Quire could not import that folder', started.error.message);
  })();
}

function onReady(): void {
  paths = appPaths({ appPath: app.getAppPath(), userData: app.getPath('userData'), mainDir: bundleDir(), isPackaged: app.isPackaged });
  const p = paths;

  hardenSession(session.defaultSession);
  registerAppProtocol(protocol, p.rendererDir);
  // After ready: before it, Linux and Windows report no encryption.
  const secretBox = safeStorageBox(safeStorage, process.platform);

  const open = () =>
    createEngine({
      dbPath: p.databaseFile,
      open: (file) =>
        openDatabaseForElectron(file, {
          isPackaged: app.isPackaged,
          sqliteVecLoadablePath: () => sqliteVec.getLoadablePath(),
          env: process.env,
        }),
      sampleNotesDir: p.sampleNotesDir,
      evalDir: p.evalDir,
      parseWorker: path.join(bundleDir(), 'parse-worker.cjs'),
      version: app.getVersion(),
      shell: createShellActions({ dialog, shell, getWindow }),
      secretBox,
      resumeMigration: true,
      watch: true,
    });
  let restore: Salvage | null = null;
  try {
    engine = open();
  } catch (e) {
    const rebuild = offerRebuild(e, p.databaseFile);
    if (!rebuild) {
      showStartupError(e, p.databaseFile);
      app.exit(1);
      return;
    }
    try {
      const { salvage } = setAsideDamaged(p.databaseFile, { nativeBinding: betterSqliteBinding(process.env, app.isPackaged) });
      restore = salvage;
      engine = open();
    } catch (again) {
      showStartupError(again, p.databaseFile);
      app.exit(1);
      return;
    }
  }
  engine.onEvent((event) => {
    sendEvent(getWindow, event);
  });
  disposeIpc = registerIpc(ipcMain, engine, trustedSender(getWindow));

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate(
        {
          importFolder: importFromMenu,
          showDataFolder: () => {
            void shell.openPath(app.getPath('userData'));
          },
        },
        { appName: app.name, isMac, isDev },
      ),
    ),
  );

  mainWindow = createWindow(p.preload);
  if (restore) {
    const found = restore;
    const current = engine;
    restoreFrom(current, found).then(
      (jobs) => note(`rebuilding the index: ${jobs.length} of ${found.roots.length} folder imports started (a folder not there now is left out)`),
      (e: unknown) => note(`rebuilding the index failed: ${e instanceof Error ? e.message : String(e)}`),
    );
  }
}

/**
 * A damaged database at startup: asks whether to set it aside and rebuild the index from the
 * folders it lists. Only for DB_CORRUPT; true when the person chose to rebuild.
 */
function offerRebuild(e: unknown, databaseFile: string): boolean {
  if ((e as { code?: unknown }).code !== 'DB_CORRUPT') return false;
  const choice = dialog.showMessageBoxSync({
    type: 'error',
    title: 'Quire\'s index is damaged',
    message: 'Quire cannot read its index.',
    detail: `${(e as Error).message}\n\nRebuild: the damaged file is kept beside the new one (renamed, unchanged), and your folders are imported again into a new index. Your notes are not touched.`,
    buttons: ['Rebuild the index from my folders', 'Quit'],
    defaultId: 0,
    cancelId: 1,
  });
  return choice === 0;
}

let shutDown = false;
/** Before quitting: stop taking calls, cancel running jobs, let them stop writing, close the database; then quit. */
function shutdown(event: { preventDefault(): void }): void {
  if (shutDown || !engine) return;
  shutDown = true;
  event.preventDefault();
  disposeIpc?.();
  disposeIpc = null;
  const closing = engine;
  engine = null;
  closing
    .close()
    .catch((e: unknown) => note(`closing the database failed: ${e instanceof Error ? e.message : String(e)}`))
    .finally(() => app.quit());
}

function start(): void {
  // Before anything loads a native module: a packaged app loads only what it shipped with.
  const dropped = dropDevelopmentSwitches(process.env, app.isPackaged);
  if (dropped.length > 0) note(`ignored in a packaged app: ${dropped.join(', ')}`);
  // Both must happen before ready.
  registerSchemesAsPrivileged(protocol);
  app.enableSandbox();

  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  app.on('second-instance', () => {
    const win = getWindow();
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });

  // Any other webContents (DevTools' own, or one that slips through) gets the same locks.
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, openLink));

  app.on('before-quit', shutdown);

  app.on('window-all-closed', () => {
    if (!isMac) app.quit();
  });

  app.on('activate', () => {
    if (!getWindow() && engine && paths) mainWindow = createWindow(paths.preload);
  });

  app
    .whenReady()
    .then(onReady)
    .catch((e: unknown) => {
      showStartupError(e, paths?.databaseFile ?? '(not opened)');
      app.exit(1);
    });
}

start();
