import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hangFile } from '../../../test/support/hung-file';
import { NotesFolder } from '../../../test/support/notes';
import { runDoctor } from '../db/health';
import { openDatabase, type Db } from '../db/open';
import { importFolder } from './pipeline';
import { readRegularFile } from './read-file';

// mkfifo is POSIX; Windows has no named pipes in the file system.
const hasFifo = process.platform !== 'win32';
const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

let notes: NotesFolder;
let db: Db;
beforeEach(() => {
  notes = new NotesFolder('quire-fifo-');
  db = openDatabase(':memory:');
});
afterEach(() => {
  vi.restoreAllMocks();
  db.close();
  notes.dispose();
});

describe('reading a file the walk listed', () => {
  it('reads a regular file', async () => {
    notes.write('a.md', '# A\n\ntext\n');
    expect((await readRegularFile(notes.path('a.md'), { maxBytes: 1000 })).toString()).toBe('# A\n\ntext\n');
  });

  it('refuses a file grown past the limit since the scan', async () => {
    notes.write('big.md', 'x'.repeat(2000));
    await expect(readRegularFile(notes.path('big.md'), { maxBytes: 1000 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('a read that blocks ends with READ_TIMEOUT at its time limit; its handle is closed once the read returns', async () => {
    const file = notes.write('stuck.md', '# Stuck\n');
    const stuck = hangFile(file, 'read');
    const started = Date.now();
    await expect(readRegularFile(file, { maxBytes: 1000, timeoutMs: 150 })).rejects.toMatchObject({ code: 'READ_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stuck.closed).not.toHaveBeenCalled(); // closing would wait for the stuck read
    stuck.release();
    await vi.waitFor(() => expect(stuck.closed).toHaveBeenCalledTimes(1));
  });

  it('an open that blocks ends with READ_TIMEOUT too', async () => {
    const file = notes.write('stuck.md', '# Stuck\n');
    hangFile(file, 'open');
    await expect(readRegularFile(file, { maxBytes: 1000, timeoutMs: 150 })).rejects.toMatchObject({ code: 'READ_TIMEOUT' });
  });

  it('cancelling ends a blocked read at once, long before its time limit', async () => {
    const file = notes.write('stuck.md', '# Stuck\n');
    hangFile(file, 'read');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(readRegularFile(file, { maxBytes: 1000, timeoutMs: 60_000, signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.skipIf(!hasFifo)('refuses a named pipe at once instead of waiting for a writer forever', async () => {
    mkfifo(notes.path('pipe.md'));
    await expect(readRegularFile(notes.path('pipe.md'), { maxBytes: 1000 })).rejects.toMatchObject({ code: 'NOT_A_REGULAR_FILE', message: /named pipe/ });
  });
});

describe.skipIf(!hasFifo)('an import meeting named pipes (needs mkfifo)', () => {
  it('a pipe in the folder is skipped with its reason; everything else is imported', async () => {
    notes.write('a.md', '# A\n\nalpha text\n');
    mkfifo(notes.path('pipe.md'));
    const report = await importFolder(db, notes.root, { embedding: null });
    expect(report.documents.added).toBe(1);
    expect(report.skipped).toContainEqual({ path: 'pipe.md', reason: 'not-a-regular-file', message: 'It is a named pipe, not a file.' });
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  });

  it('a note replaced by a pipe between the scan and the read is skipped, not waited on', async () => {
    for (let i = 0; i < 12; i++) notes.write(`a${String(i).padStart(2, '0')}.md`, `# Note ${i}\n\nbody ${i}\n`);
    notes.write('zz.md', '# Last\n\nthe last note\n');
    let replaced = false;
    const report = await importFolder(db, notes.root, {
      embedding: null,
      onProgress: (p) => {
        // After the scan listed zz.md as a file, before anything is read.
        if (!replaced && p.phase === 'indexing') {
          replaced = true;
          fs.rmSync(notes.path('zz.md'));
          mkfifo(notes.path('zz.md'));
        }
      },
    });
    expect(replaced).toBe(true);
    expect(report.documents.added).toBe(12);
    expect(report.skipped).toContainEqual(expect.objectContaining({ path: 'zz.md', reason: 'not-a-regular-file' }));
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  });
});

describe('file names that are not valid UTF-8', () => {
  it('are reported plainly as unsupported-file-name (not ENOENT with a U+FFFD); the rest imports', async (ctx) => {
    notes.write('good.md', '# Good\n\nfine text\n');
    const bad = Buffer.concat([Buffer.from(`${notes.root}/bad`), Buffer.from([0xff, 0xfe]), Buffer.from('.md')]);
    try {
      fs.writeFileSync(bad, '# Bad\n\ntext\n');
    } catch {
      ctx.skip('this file system refuses names that are not UTF-8 (e.g. APFS), so it cannot hold one either');
    }
    const report = await importFolder(db, notes.root, { embedding: null });
    expect(report.documents.added).toBe(1);
    expect(report.errors).toEqual([]);
    expect(report.skipped).toContainEqual({ path: 'bad\\xff\\xfe.md', reason: 'unsupported-file-name', message: expect.stringMatching(/not valid UTF-8/) });
    expect(report.skipped.some((s) => s.path.includes('\uFFFD'))).toBe(false);
  });
});
