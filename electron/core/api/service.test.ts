import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotesFolder } from '../../../test/support/notes';
import { openDatabase, type Db } from '../db/open';
import { importFolder } from '../ingest/pipeline';
import { createEngine, type ShellActions } from '../engine';

let notes: NotesFolder;
let db: Db;
beforeEach(() => {
  notes = new NotesFolder();
  db = openDatabase(':memory:');
});
afterEach(() => {
  db.close();
  notes.dispose();
});

/** An engine over the test's database; its contract methods as a transport calls them. */
const service = (shell?: ShellActions) => {
  const engine = createEngine({ dbPath: ':memory:', open: () => db, sampleNotesDir: notes.root, version: '0.0.0-test', evalDir: path.join(notes.root, '..', 'eval'), ...(shell ? { shell } : {}) });
  return { handlers: engine };
};
const dispatch = (engine: { dispatch(method: string, input: unknown): Promise<unknown> }, method: string, input: unknown) => engine.dispatch(method, input);

describe('desktop-only actions', () => {
  it('browser mode answers "not supported" and opens nothing', async () => {
    const { handlers } = service();
    expect(await dispatch(handlers, 'chooseFolder', {})).toEqual({ ok: true, value: { supported: false, path: null } });
    expect((await dispatch(handlers, 'status', {})) as { value: { desktop: boolean } }).toMatchObject({ value: { desktop: false } });
  });

  it('opens a cited file only as its real path inside the imported folder', async () => {
    notes.write('ops/keys.md', '# Keys\n\nRotate them.\n');
    await importFolder(db, notes.root, { embedding: null });
    const chunkId = db.prepare('SELECT id FROM chunks').pluck().get() as string;
    const openPath = vi.fn(async () => true);
    const { handlers } = service({ chooseFolder: async () => '/picked', openPath });
    expect(await dispatch(handlers, 'openSourceFile', { chunkId })).toEqual({ ok: true, value: { supported: true, opened: true } });
    expect(openPath).toHaveBeenCalledWith(fs.realpathSync(notes.path('ops/keys.md')));
    expect(await dispatch(handlers, 'chooseFolder', {})).toEqual({ ok: true, value: { supported: true, path: '/picked' } });
  });

  it('refuses when the indexed path now leads outside the folder', async () => {
    notes.write('a.md', '# A\n\nText.\n');
    await importFolder(db, notes.root, { embedding: null });
    const chunkId = db.prepare('SELECT id FROM chunks').pluck().get() as string;
    // The file was replaced by a link pointing out of the folder since it was imported.
    const outside = new NotesFolder('quire-outside-');
    try {
      outside.write('secret.md', 'x');
      fs.rmSync(notes.path('a.md'));
      fs.symlinkSync(outside.path('secret.md'), notes.path('a.md'));
      const openPath = vi.fn(async () => true);
      const res = await dispatch(service({ chooseFolder: async () => null, openPath }).handlers, 'openSourceFile', { chunkId });
      expect(res).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
      expect(openPath).not.toHaveBeenCalled();
    } finally {
      outside.dispose();
    }
  });
});

describe('opening a cited file hands the OS only a note, never a program', () => {
  // A note that is a link to a script (or .bat, .command, .app) inside the folder is imported with
  // the target's text; opening it must not launch the target.
  it.each([
    ['deploy.sh', '#!/bin/sh\necho pwned\n'],
    ['run.bat', '@echo off\r\necho pwned\r\n'],
    ['launch.command', '#!/bin/sh\necho pwned\n'],
    ['tool.exe', 'MZ not really\n'],
    ['notes', '#!/bin/sh\necho no extension\n'],
  ])('refuses a note linked to %s', async (target, content) => {
    notes.write(target, content);
    fs.chmodSync(notes.path(target), 0o755);
    // Named to sort first: the walk lists a file once, under the first name it meets.
    fs.symlinkSync(target, notes.path('a-notes.md'));
    await importFolder(db, notes.root, { embedding: null });
    const chunkId = db.prepare("SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = 'a-notes.md'").pluck().get() as string;
    expect(chunkId).toBeTruthy();
    const openPath = vi.fn(async () => true);
    const res = await dispatch(service({ chooseFolder: async () => null, openPath }).handlers, 'openSourceFile', { chunkId });
    expect(res).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining(target) } });
    expect(openPath).not.toHaveBeenCalled();
  });

  it('refuses a note that became a link to an application bundle (a folder named .app)', async () => {
    notes.write('a.md', '# A\n\nText.\n');
    await importFolder(db, notes.root, { embedding: null });
    const chunkId = db.prepare('SELECT id FROM chunks').pluck().get() as string;
    fs.mkdirSync(notes.path('Evil.app/Contents/MacOS'), { recursive: true });
    fs.rmSync(notes.path('a.md'));
    fs.symlinkSync('Evil.app', notes.path('a.md'));
    const openPath = vi.fn(async () => true);
    const res = await dispatch(service({ chooseFolder: async () => null, openPath }).handlers, 'openSourceFile', { chunkId });
    expect(res).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    expect(openPath).not.toHaveBeenCalled();
  });

  it('refuses a note that became a folder with a note\'s name', async () => {
    notes.write('b.md', '# B\n\nText.\n');
    await importFolder(db, notes.root, { embedding: null });
    const chunkId = db.prepare('SELECT id FROM chunks').pluck().get() as string;
    fs.rmSync(notes.path('b.md'));
    fs.mkdirSync(notes.path('b.md'));
    const openPath = vi.fn(async () => true);
    const res = await dispatch(service({ chooseFolder: async () => null, openPath }).handlers, 'openSourceFile', { chunkId });
    expect(res).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('not a regular file') } });
    expect(openPath).not.toHaveBeenCalled();
  });

  it('opens a note linked to another note, as the target\'s real path', async () => {
    notes.write('real.txt', 'Plain text note.\n');
    fs.symlinkSync('real.txt', notes.path('alias.md'));
    await importFolder(db, notes.root, { embedding: null });
    const chunkId = db.prepare("SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = 'alias.md'").pluck().get() as string;
    const openPath = vi.fn(async () => true);
    expect(await dispatch(service({ chooseFolder: async () => null, openPath }).handlers, 'openSourceFile', { chunkId })).toEqual({ ok: true, value: { supported: true, opened: true } });
    expect(openPath).toHaveBeenCalledExactlyOnceWith(fs.realpathSync(notes.path('real.txt')));
  });
});

describe('the fusion setting', () => {
  it('defaults to weighted:0.2, keeps a valid spec in canonical form, refuses nonsense and keeps the old value', async () => {
    const { handlers } = service();
    expect(await dispatch(handlers, 'getSettings', {})).toMatchObject({ ok: true, value: { fusion: 'weighted:0.2' } });
    expect(await dispatch(handlers, 'setSettings', { fusion: 'weighted:0.50' })).toMatchObject({ ok: true, value: { fusion: 'weighted:0.5' } });
    expect(await dispatch(handlers, 'setSettings', { fusion: 'blend:2' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    expect(await dispatch(handlers, 'getSettings', {})).toMatchObject({ ok: true, value: { fusion: 'weighted:0.5' } });
  });
});
