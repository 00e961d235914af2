import fs from 'node:fs/promises';
import { toErrorShape } from '../../../shared/errors';
import { getCollection, listCollections, setWatchState, type CollectionRow, type WatchState } from '../db/collections';
import { enqueuePaths, queuedPaths, unfinishedFolderImports, waitingChanges } from '../db/import-queue';
import type { Db } from '../db/open';
import type { ImportReport } from '../ingest/types';
import { watchFolder as chokidarWatch, type FolderWatch, type WatchCallbacks } from './folder-watcher';

export interface WatchStatus {
  state: WatchState;
  /** An import of this folder's changes is running. */
  busy: boolean;
  /** Changed paths waiting to be imported. */
  queued: number;
  /** Why watching is not working, in a sentence; null when it is. */
  error: string | null;
}

export interface WatchManagerDeps {
  db: Db;
  /**
   * Imports a collection's folder (only: just these paths), through the engine's one import
   * queue, so a watched change never runs beside another import of the database.
   */
  importFolder(root: string, only: readonly string[] | null, signal: AbortSignal): Promise<ImportReport>;
  /** The library changed (a folder's watch state, queue or documents). */
  changed(): void;
  /** Quiet time after the last change before its import starts. */
  debounceMs?: number;
  /** The longest a change waits while others keep arriving. */
  maxWaitMs?: number;
  /** How often a watched folder that went away is looked for again. */
  returnPollMs?: number;
  /** Injected in tests; chokidar otherwise. */
  watchFolder?: (root: string, callbacks: WatchCallbacks) => FolderWatch;
}

/** A change is written to the queue within this long (many events, one transaction). */
const FLUSH_MS = 200;

interface Watched {
  collection: CollectionRow;
  watch: FolderWatch | null;
  seen: Set<string>;
  flushTimer: NodeJS.Timeout | null;
  drainTimer: NodeJS.Timeout | null;
  firstWaiting: number | null;
  running: AbortController | null;
  /** Asked for while an import ran: the queued paths, or the whole folder. */
  next: 'paths' | 'all' | null;
  error: string | null;
  /** Looks for the folder again while it is gone (unmounted, renamed away). */
  returnTimer: NodeJS.Timeout | null;
}

/**
 * Keeps watched folders' indexes current: a watcher's changes go to the persistent queue at once,
 * and after a quiet spell (debounce) the queued paths are imported, only those. Starting (at launch,
 * or on resume) imports the whole folder once, which catches what changed while nobody watched and
 * finishes an import a restart interrupted. Pausing stops the watcher and the import under way; the
 * queue is kept for the resume.
 */
export class WatchManager {
  private readonly folders = new Map<string, Watched>();
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private readonly returnPollMs: number;
  private readonly watchFolder: NonNullable<WatchManagerDeps['watchFolder']>;
  private closed = false;

  constructor(private readonly deps: WatchManagerDeps) {
    this.debounceMs = deps.debounceMs ?? 1500;
    this.maxWaitMs = deps.maxWaitMs ?? 15_000;
    this.returnPollMs = deps.returnPollMs ?? 3000;
    this.watchFolder = deps.watchFolder ?? chokidarWatch;
  }

  /** Starts every watched folder, and finishes whole-folder imports a restart cut short. */
  start(): void {
    const unfinished = new Set(unfinishedFolderImports(this.deps.db));
    for (const c of listCollections(this.deps.db)) {
      if (c.watch === 'watching') this.begin(c);
      else if (c.watch === 'off' && unfinished.has(c.id)) void this.run(this.entry(c), null);
    }
  }

  /** Turns a folder's watching on, holds it or turns it off. */
  async set(collectionId: string, state: WatchState): Promise<WatchStatus> {
    const c = setWatchState(this.deps.db, collectionId, state);
    const w = this.folders.get(collectionId);
    if (state === 'watching') this.begin(c);
    else if (w) {
      w.collection = c;
      await this.stop(w);
    }
    this.deps.changed();
    return this.status(collectionId);
  }

  status(collectionId: string): WatchStatus {
    const w = this.folders.get(collectionId);
    const state = w?.collection.watch ?? getCollection(this.deps.db, collectionId).watch;
    return { state, busy: w?.running !== null && w?.running !== undefined, queued: waitingChanges(this.deps.db, collectionId, 0).count, error: w?.error ?? null };
  }

  /** Stops watching a folder that left the library (its queue went with it). */
  async forget(collectionId: string): Promise<void> {
    const w = this.folders.get(collectionId);
    if (!w) return;
    await this.stop(w);
    this.folders.delete(collectionId);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.folders.values()].map((w) => this.stop(w)));
    this.folders.clear();
  }

  private entry(c: CollectionRow): Watched {
    let w = this.folders.get(c.id);
    if (!w) {
      w = { collection: c, watch: null, seen: new Set(), flushTimer: null, drainTimer: null, firstWaiting: null, running: null, next: null, error: null, returnTimer: null };
      this.folders.set(c.id, w);
    }
    w.collection = c;
    return w;
  }

  private begin(c: CollectionRow): void {
    if (this.closed) return;
    const w = this.entry(c);
    if (w.watch) return;
    w.error = null;
    w.watch = this.watchFolder(c.root, {
      onChange: (rel) => this.noticed(w, rel),
      onError: (e) => {
        w.error = watchErrorSentence(e);
        this.deps.changed();
      },
    });
    // Whatever changed while nobody watched, and any import a restart cut short.
    void this.run(w, null);
  }

  private async stop(w: Watched): Promise<void> {
    this.flush(w);
    for (const t of [w.flushTimer, w.drainTimer, w.returnTimer]) if (t) clearTimeout(t);
    w.flushTimer = w.drainTimer = w.returnTimer = null;
    w.firstWaiting = null;
    w.next = null;
    w.running?.abort();
    const watch = w.watch;
    w.watch = null;
    await watch?.close();
  }

  private noticed(w: Watched, rel: string): void {
    w.seen.add(rel);
    w.flushTimer ??= setTimeout(() => this.flush(w), FLUSH_MS);
    w.firstWaiting ??= Date.now();
    if (w.drainTimer) clearTimeout(w.drainTimer);
    // Quiet for debounceMs, but never held longer than maxWaitMs by a stream of changes.
    const wait = Math.max(0, Math.min(this.debounceMs, w.firstWaiting + this.maxWaitMs - Date.now()));
    w.drainTimer = setTimeout(() => {
      w.drainTimer = null;
      w.firstWaiting = null;
      void this.drain(w);
    }, wait);
  }

  /** Writes what the watcher saw to the queue, so a crash before the import loses nothing. */
  private flush(w: Watched): void {
    if (w.flushTimer) clearTimeout(w.flushTimer);
    w.flushTimer = null;
    if (w.seen.size === 0) return;
    const paths = [...w.seen];
    w.seen.clear();
    try {
      enqueuePaths(this.deps.db, w.collection.id, paths);
    } catch (e) {
      // The database is busy or gone: keep them for the next flush rather than lose them.
      for (const p of paths) w.seen.add(p);
      w.error = `Changes could not be queued: ${toErrorShape(e).message}`;
    }
    this.deps.changed();
  }

  private async drain(w: Watched): Promise<void> {
    this.flush(w);
    const paths = queuedPaths(this.deps.db, w.collection.id).map((q) => q.relPath);
    if (paths.length > 0) await this.run(w, paths);
  }

  /** One import of the folder (only: these paths); one at a time per folder, the next one queued. */
  private async run(w: Watched, only: readonly string[] | null): Promise<void> {
    if (this.closed) return;
    if (w.running) {
      w.next = only === null || w.next === 'all' ? 'all' : 'paths';
      return;
    }
    const controller = new AbortController();
    w.running = controller;
    this.deps.changed();
    try {
      await this.deps.importFolder(w.collection.root, only, controller.signal);
      if (w.error?.startsWith('Changes could not')) w.error = null;
    } catch (e) {
      const shape = toErrorShape(e);
      if (shape.code !== 'CANCELLED') w.error = shape.code === 'NOT_A_FOLDER' ? `The folder ${w.collection.root} is gone or cannot be read; its documents are kept until it is back or forgotten.` : shape.message;
      if (shape.code === 'NOT_A_FOLDER') this.awaitReturn(w);
    } finally {
      w.running = null;
      this.deps.changed();
    }
    const next = w.next;
    w.next = null;
    if (next === null || this.closed || w.collection.watch === 'paused') return;
    if (next === 'all') await this.run(w, null);
    else await this.drain(w);
  }

  /**
   * A folder that went away (a drive unmounted, a share dropped, the folder renamed and renamed
   * back) takes its watcher with it: once it is back at its path, watching starts again with a
   * whole-folder import, which also settles the changes queued meanwhile.
   */
  private awaitReturn(w: Watched): void {
    if (w.returnTimer || this.closed) return;
    w.returnTimer = setTimeout(() => {
      w.returnTimer = null;
      void (async () => {
        const back = await fs.stat(w.collection.root).then((s) => s.isDirectory(), () => false);
        if (this.closed || w.collection.watch !== 'watching' || this.folders.get(w.collection.id) !== w) return;
        if (!back) return this.awaitReturn(w);
        const watch = w.watch;
        w.watch = null;
        await watch?.close();
        this.begin(w.collection);
      })();
    }, this.returnPollMs);
  }
}

/** What a person can do about a watch that failed. */
function watchErrorSentence(e: Error): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EMFILE') {
    return 'The system limit on watched files was reached, so some changes may be missed. Raise it (on Linux, fs.inotify.max_user_watches) or use Resync.';
  }
  if (code === 'EACCES' || code === 'EPERM') return `Part of the folder cannot be watched (permission denied): ${e.message}`;
  return `Watching stopped working: ${e.message}`;
}
