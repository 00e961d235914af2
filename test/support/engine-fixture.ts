import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { ApiEvent } from '../../shared/contract';
import { createEngine, openDatabase, type Db, type Engine } from '../../electron/core/engine';
import { NotesFolder, tempDbPath } from './notes';
import { startStandin, type Standin } from './ollama-standin/server';

export interface EngineFixture {
  readonly ollama: Standin;
  readonly notes: NotesFolder;
  readonly dbFile: string;
  /** A second connection to the engine's database, for looking at tables. */
  readonly db: Db;
  readonly engine: Engine;
  /** Every event the engine emitted in this test. */
  readonly events: ApiEvent[];
}

/**
 * An engine per test over a fresh notes folder and database, talking to one Ollama stand-in per
 * file: registers the vitest hooks and returns the live handles.
 */
export function useEngineFixture(options: { prefix: string; notes: Record<string, string>; version?: string; evalDir?: (dbFile: string) => string }): EngineFixture {
  const state = {} as { ollama: Standin; notes: NotesFolder; dbFile: ReturnType<typeof tempDbPath>; db: Db; engine: Engine; events: ApiEvent[] };
  beforeAll(async () => {
    state.ollama = await startStandin();
  });
  afterAll(async () => {
    await state.ollama?.close();
  });
  beforeEach(async () => {
    state.notes = new NotesFolder(`${options.prefix}-`);
    for (const [rel, text] of Object.entries(options.notes)) state.notes.write(rel, text);
    state.dbFile = tempDbPath(`${options.prefix}-db-`);
    state.db = openDatabase(state.dbFile.file);
    state.events = [];
    state.engine = createEngine({
      dbPath: state.dbFile.file,
      open: () => state.db,
      sampleNotesDir: state.notes.root,
      version: options.version ?? '0.0.0-test',
      // Retries keep their order and count, quicker: an unreachable Ollama otherwise costs 3.5 s a call.
      ollamaBackoffMs: 10,
      ...(options.evalDir ? { evalDir: options.evalDir(state.dbFile.file) } : {}),
    });
    state.engine.onEvent((e) => state.events.push(e));
    const r = await state.engine.dispatch('setSettings', { ollamaHost: state.ollama.url });
    if (!r.ok) throw new Error(r.error.message);
  });
  afterEach(async () => {
    await state.engine.close();
    state.notes.dispose();
    state.dbFile.dispose();
  });
  return {
    get ollama() {
      return state.ollama;
    },
    get notes() {
      return state.notes;
    },
    get dbFile() {
      return state.dbFile.file;
    },
    get db() {
      return state.db;
    },
    get engine() {
      return state.engine;
    },
    get events() {
      return state.events;
    },
  };
}
