import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotesFolder } from '../../../test/support/notes';
import { startStandin } from '../../../test/support/ollama-standin/server';
import { runDoctor } from '../db/health';
import { openDatabase, type Db } from '../db/open';
import { OllamaGateway } from '../ollama/gateway';
import { importFolder } from './pipeline';
import { walkFolder, walkPaths } from './walk';

let notes: NotesFolder;
let outside: NotesFolder;
let db: Db;

beforeEach(() => {
  notes = new NotesFolder();
  outside = new NotesFolder('quire-outside-');
  db = openDatabase(':memory:');
});
afterEach(() => {
  db.close();
  notes.dispose();
  outside.dispose();
});

describe('walkFolder', () => {
  it('follows links inside the root once, skips loops, links out of the root and hidden folders', async () => {
    notes.write('a.md', '# A');
    notes.write('sub/b.md', '# B');
    notes.write('.git/config', 'x');
    notes.write('node_modules/pkg/readme.md', 'x');
    notes.write('..md', '# The dot command'); // tldr's page for `.`: hidden all the same (shared/walk-names.ts)
    notes.write('.DS_Store', 'x');
    notes.write('.draft.md', '# A note hidden on purpose');
    notes.write('sub/~$report.docx', 'Word owner file');
    outside.write('secret.md', '# not yours');
    fs.symlinkSync(notes.root, notes.path('sub/loop'));
    fs.symlinkSync(outside.root, notes.path('escape'));
    fs.symlinkSync(outside.path('secret.md'), notes.path('secret-link.md'));
    fs.symlinkSync(notes.path('a.md'), notes.path('sub/a-again.md'));
    fs.symlinkSync(notes.path('missing.md'), notes.path('dangling.md'));

    const w = await walkFolder(notes.root);
    expect(w.files.map((f) => f.relPath).sort()).toEqual(['a.md', 'sub/b.md']);
    const reasons = Object.fromEntries(w.skipped.map((s) => [s.relPath, s.reason]));
    expect(reasons).toMatchObject({
      'sub/loop': 'symlink-loop',
      escape: 'symlink-outside-root',
      'secret-link.md': 'symlink-outside-root',
      'dangling.md': 'unreadable',
    });
    // A hidden note is named in the report; a program's hidden file, a hidden folder and what it holds are not.
    expect(w.skipped.filter((s) => s.reason === 'hidden-name').map((s) => s.relPath)).toEqual(['..md', '.draft.md']);
  });
});

describe('importFolder', () => {
  it('lexical-only import indexes text and makes no Ollama call', async () => {
    notes.write('a.md', '# Alpha\n\nAardvarks dig at night.\n');
    notes.write('.DS_Store', new Uint8Array([0, 1, 2]));
    const r = await importFolder(db, notes.root, { embedding: null });
    expect(r.embedding.status).toBe('off');
    expect(r.embedRequests).toBe(0);
    expect(r.documents.added).toBe(1);
    expect(r.skipped).toEqual([]); // a program's dotfile is no note: not reported as skipped
    expect(db.prepare('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?').pluck().get('aardvark')).toBe(1); // porter stemming
  });

  it('leaves out hidden files, as hidden folders, in a whole import and a watched path\'s, and names a hidden note in the report', async () => {
    notes.write('a.md', '# Alpha\n\nAardvarks dig at night.\n');
    notes.write('.draft.md', '# Draft\n\nBadgers, not yet.\n');
    notes.write('sub/.#a.md', '# Emacs lock\n');
    notes.write('sub/._a.md', 'AppleDouble');
    notes.write('.obsidian/notes.md', '# In a hidden folder\n');
    const r = await importFolder(db, notes.root, { embedding: null });
    expect(r.documents).toMatchObject({ added: 1, failed: 0 });
    // A note someone hid is said, as other skips are; an editor's lock, macOS's ._ file and a hidden folder are not notes.
    expect(r.skipped).toEqual([{ path: '.draft.md', reason: 'hidden-name' }]);
    expect(db.prepare('SELECT rel_path FROM documents').pluck().all()).toEqual(['a.md']);
    const watched = await walkPaths(notes.root, ['.draft.md', 'sub/.#a.md', 'a.md']);
    expect(watched.files.map((f) => f.relPath)).toEqual(['a.md']);
    expect(watched.skipped).toEqual([{ relPath: '.draft.md', reason: 'hidden-name' }]);
    expect((await importFolder(db, notes.root, { embedding: null, only: ['.draft.md'] })).documents.added).toBe(0);
  });

  it("leaves out a Logseq graph's copies of its pages (logseq/bak, logseq/version-files), not a folder of notes that happens to be called bak", async () => {
    notes.write('logseq/config.edn', '{:file/name-format :triple-lowbar}');
    notes.write('pages/Budget.md', '- Badgers cost 40 a month\n');
    notes.write('logseq/bak/pages/Budget/2026-11-30T10_00_00.000Z.Desktop.md', '- Badgers cost 30 a month\n');
    notes.write('logseq/version-files/base/pages/Budget.md', '- Badgers cost 30 a month\n');
    notes.write('bak/old-plan.md', '# Old plan\n\nAardvarks first.\n');
    await importFolder(db, notes.root, { embedding: null });
    expect((db.prepare('SELECT rel_path FROM documents ORDER BY rel_path').pluck().all() as string[])).toEqual(['bak/old-plan.md', 'pages/Budget.md']);
    const watched = ['logseq/bak/pages/Budget/2026-12-01T10_00_00.000Z.Desktop.md', 'logseq/version-files/base/pages/Budget.md', 'bak/old-plan.md'];
    expect((await walkPaths(notes.root, watched)).files.map((f) => f.relPath)).toEqual(['bak/old-plan.md']);
  });

  it('a document an older Quire imported under a name now passed over is taken out and listed as skipped, not counted deleted', async () => {
    // Before shared/walk-names.ts, `.draft.md` and Logseq's copies were read: an index from then holds them.
    notes.write('a.md', '# Alpha\n\nAardvarks dig at night.\n');
    notes.write('draft.md', '# Draft\n\nBadgers, not yet.\n');
    notes.write('logseq/Budget.md', '- Badgers cost 30 a month\n');
    notes.write('logseq/old.md', '- Kept? no: gone from disk too\n');
    await importFolder(db, notes.root, { embedding: null });
    fs.renameSync(notes.path('draft.md'), notes.path('.draft.md'));
    db.prepare("UPDATE documents SET rel_path = '.draft.md' WHERE rel_path = 'draft.md'").run();
    fs.mkdirSync(notes.path('logseq/bak'));
    fs.renameSync(notes.path('logseq/Budget.md'), notes.path('logseq/bak/Budget.md'));
    db.prepare("UPDATE documents SET rel_path = 'logseq/bak/Budget.md' WHERE rel_path = 'logseq/Budget.md'").run();
    fs.mkdirSync(notes.path('logseq/version-files'));
    db.prepare("UPDATE documents SET rel_path = 'logseq/version-files/old.md' WHERE rel_path = 'logseq/old.md'").run();
    notes.remove('logseq/old.md');
    const r = await importFolder(db, notes.root, { embedding: null });
    expect(db.prepare('SELECT rel_path FROM documents').pluck().all()).toEqual(['a.md']);
    // The one whose file is gone was deleted; the two still on disk were passed over, and say so.
    expect(r.documents).toMatchObject({ unchanged: 1, deleted: 1, skipped: 2 });
    expect(r.skipped).toEqual([
      { path: '.draft.md', reason: 'passed-over-name' },
      { path: 'logseq/bak/Budget.md', reason: 'passed-over-name' },
    ]);
    // Said once: the next import names the hidden note as it names any, and nothing more.
    expect((await importFolder(db, notes.root, { embedding: null })).skipped).toEqual([{ path: '.draft.md', reason: 'hidden-name' }]);
  });

  it("leaves out macOS's AppleDouble `._` files beside notes on a USB stick or a share, in a whole import and a watched path's", async () => {
    const appleDouble = new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0, ...Buffer.from('Mac OS X        ')]);
    notes.write('a.md', '# Alpha\n\nAardvarks dig at night.\n');
    notes.write('._a.md', appleDouble);
    notes.write('sub/._b.md', appleDouble);
    const r = await importFolder(db, notes.root, { embedding: null });
    expect(r.documents).toMatchObject({ added: 1, failed: 0 });
    expect(db.prepare('SELECT rel_path FROM documents').pluck().all()).toEqual(['a.md']);
    expect((await walkPaths(notes.root, ['._a.md', 'sub/._b.md', 'a.md'])).files.map((f) => f.relPath)).toEqual(['a.md']);
  });

  it('re-chunks every document when the chunker changes, and only then', async () => {
    notes.write('a.md', `# Alpha\n\n${'Word '.repeat(400)}\n`);
    await importFolder(db, notes.root, { embedding: null });
    const again = await importFolder(db, notes.root, { embedding: null });
    expect(again.documents.unchanged).toBe(1);
    const changed = await importFolder(db, notes.root, { embedding: null, chunker: { kind: 'fixed', windowTokens: 64, overlap: 8 } });
    expect(changed.documents.updated).toBe(1);
    expect(db.prepare("SELECT chunker FROM documents").pluck().get()).toBe('fixed:64/8@v4+cl100k_base');
  });

  it('a file that becomes unreadable keeps nothing stale: content errors drop the old version', async () => {
    notes.write('a.md', '# Alpha\n\nFirst version about herons.\n');
    await importFolder(db, notes.root, { embedding: null });
    notes.write('a.md', new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0x00]));
    const r = await importFolder(db, notes.root, { embedding: null });
    expect(r.documents.failed).toBe(1);
    expect(db.prepare("SELECT status, status_code FROM documents").get()).toEqual({ status: 'error', status_code: 'BINARY_FILE' });
    expect(db.prepare('SELECT count(*) FROM chunks').pluck().get()).toBe(0);
    expect(runDoctor(db).every((c) => c.ok)).toBe(true);
    // Fixed again: back to ready.
    notes.write('a.md', '# Alpha\n\nSecond version.\n');
    expect((await importFolder(db, notes.root, { embedding: null })).documents.updated).toBe(1);
  });

  it('cancellation keeps finished documents whole and writes nothing half-done', async () => {
    const ollama = await startStandin({ latencyMs: 40 });
    try {
      for (let i = 0; i < 30; i++) notes.write(`n${String(i).padStart(2, '0')}.md`, `# Note ${i}\n\nThe quokka count for note ${i}.\n`);
      const controller = new AbortController();
      let committedAtAbort = -1;
      const gateway = new OllamaGateway({ host: ollama.url });
      const r = await importFolder(db, notes.root, {
        embedding: { gateway, model: 'embeddinggemma', batchSize: 2 },
        signal: controller.signal,
        onProgress: (p) => {
          if (p.filesDone === 10 && committedAtAbort < 0) {
            committedAtAbort = db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
            controller.abort();
          }
        },
      });
      expect(r.cancelled).toBe(true);
      const docs = db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
      expect(docs).toBeGreaterThan(0);
      expect(docs).toBeLessThan(30);
      expect(db.prepare("SELECT count(*) FROM documents WHERE status = 'ready' AND id NOT IN (SELECT document_id FROM document_embeddings)").pluck().get()).toBe(0);
      expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
      // The next run picks up exactly the rest.
      const rest = await importFolder(db, notes.root, { embedding: { gateway, model: 'embeddinggemma' } });
      expect(rest.documents.added).toBe(30 - docs);
      expect(rest.documents.unchanged).toBe(docs);
    } finally {
      await ollama.close();
    }
  });

  it('counts only files it will read in the progress totals: no images, no files over the size cap', async () => {
    notes.write('a.md', '# A\n\nalpha\n');
    notes.write('b.txt', 'bravo bravo\n');
    notes.write('big.md', `# Big\n\n${'x'.repeat(400)}\n`);
    for (let i = 0; i < 5; i++) notes.write(`img/p${i}.png`, new Uint8Array(1000));
    notes.write('logo.svg', '<svg/>');
    const seen: Array<{ filesDone: number; filesTotal: number; bytesDone: number; bytesTotal: number }> = [];
    const r = await importFolder(db, notes.root, { embedding: null, maxFileBytes: 300, onProgress: ({ filesDone, filesTotal, bytesDone, bytesTotal }) => void seen.push({ filesDone, filesTotal, bytesDone, bytesTotal }) });
    expect(r.documents.added).toBe(2);
    const readBytes = fs.statSync(notes.path('a.md')).size + fs.statSync(notes.path('b.txt')).size;
    const last = seen.at(-1)!;
    expect(last).toEqual({ filesDone: 2, filesTotal: 2, bytesDone: readBytes, bytesTotal: readBytes });
    expect(seen.every((p) => p.filesDone <= p.filesTotal && p.bytesDone <= p.bytesTotal)).toBe(true);
    // Still reported as skipped, each with its reason.
    expect(r.skipped.map((s) => s.reason).sort()).toEqual([...Array(6).fill('unsupported-type'), 'too-large'].sort());
  });

  it('refuses something that is not a folder with NOT_A_FOLDER', async () => {
    notes.write('file.md', 'x');
    await expect(importFolder(db, notes.path('file.md'), { embedding: null })).rejects.toMatchObject({ code: 'NOT_A_FOLDER' });
    await expect(importFolder(db, path.join(notes.root, 'absent'), { embedding: null })).rejects.toMatchObject({ code: 'NOT_A_FOLDER' });
  });
});
