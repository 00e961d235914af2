import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createEngine, openDatabase, type Db, type Engine, type EngineOptions } from '../../electron/core/engine';
import { startBrowserMode } from '../../electron/web/server';
import { NotesFolder, tempDbPath } from '../support/notes';
import { startStandin, type Standin, type StandinOptions } from '../support/ollama-standin/server';
import { launchChromium } from './browser';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** The renderer global-setup.ts has just built. */
export const STATIC = path.join(ROOT, 'dist/renderer');
/** Where screenshots go, for a person to look at. */
export const SHOTS = path.join(ROOT, 'test-results');

export interface BrowserAppOptions {
  /** Names the temporary notes folder and database. */
  prefix: string;
  /** Writes the notes folder's files. */
  notes: (notes: NotesFolder) => void;
  standin?: StandinOptions;
  engine?: Omit<EngineOptions, 'dbPath' | 'open'>;
  /** Done through the engine before browser mode starts (an import, stored answers). */
  prepare?: (engine: Engine, notes: NotesFolder) => Promise<void>;
  viewport: { width: number; height: number };
}

export interface BrowserApp {
  readonly ollama: Standin;
  readonly notes: NotesFolder;
  /** The engine's database connection, for looking at tables. */
  readonly db: Db;
  readonly engine: Engine;
  readonly app: Awaited<ReturnType<typeof startBrowserMode>>;
  /** One page of Debian's headless Chromium, not yet at the app: each file goes where it starts. */
  readonly page: Page;
  /** The window as a person sees it, as test-results/NAME.png, scrolled so that `focus` is in view. */
  shot(name: string, focus?: Locator): Promise<void>;
}

/**
 * Browser mode over a fresh notes folder and database with the Ollama stand-in, and a Chromium
 * page, for one e2e file: registers its beforeAll and afterAll and returns the live handles. What
 * differs between files (the notes, the stand-in's and engine's options, what is done before the
 * page opens, the window) is the caller's, said outright.
 */
export function useBrowserApp(options: BrowserAppOptions): BrowserApp {
  const s = {} as { ollama: Standin; notes: NotesFolder; dbFile: ReturnType<typeof tempDbPath>; db: Db; engine: Engine; app: BrowserApp['app']; browser: Browser; page: Page };
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    s.ollama = await startStandin(options.standin);
    process.env.OLLAMA_HOST = s.ollama.url;
    s.notes = new NotesFolder(`${options.prefix}-`);
    options.notes(s.notes);
    s.dbFile = tempDbPath(`${options.prefix}-db-`);
    s.db = openDatabase(s.dbFile.file);
    s.engine = createEngine({ ...options.engine, dbPath: s.dbFile.file, open: () => s.db });
    await options.prepare?.(s.engine, s.notes);
    s.app = await startBrowserMode({ engine: s.engine, staticDir: STATIC });
    s.browser = await launchChromium();
    s.page = await s.browser.newPage({ viewport: options.viewport });
    s.page.on('pageerror', (e) => console.error('page error:', e.message));
  });
  afterAll(async () => {
    await s.browser?.close();
    await s.app?.close();
    await s.engine?.close();
    await s.ollama?.close();
    s.notes?.dispose();
    s.dbFile?.dispose();
  });
  return {
    get ollama() {
      return s.ollama;
    },
    get notes() {
      return s.notes;
    },
    get db() {
      return s.db;
    },
    get engine() {
      return s.engine;
    },
    get app() {
      return s.app;
    },
    get page() {
      return s.page;
    },
    async shot(name, focus) {
      if (focus) await focus.scrollIntoViewIfNeeded();
      await s.page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
    },
  };
}

/** Imports a folder as the Library does, as a job, and waits for its end (which tells the window the library changed). */
export async function importAndWait(engine: Engine, root: string): Promise<void> {
  const imported = new Promise<void>((resolve) => engine.onEvent((e) => e.type === 'job.done' && e.kind === 'import' && resolve()));
  await engine.call('importFolder', { path: root });
  await imported;
}
