import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import fsp from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportReport } from '../../electron/core/engine';
import { runDoctor } from '../../electron/core/db/health';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { importFolder, type ImportOptions } from '../../electron/core/ingest/pipeline';
import { sharedParsePool } from '../../electron/core/ingest/parse/parse-pool';
import { search } from '../../electron/core/retrieve/search';
import { hangFile } from '../support/hung-file';
import { NotesFolder } from '../support/notes';
import { makePdf, truncatedPdf } from '../support/pdf';

/**
 * The fault suite, files: one row per awkward file a notes folder can hold. Every row ends with
 * `doctor` passing, the three good notes beside it intact and searchable, and the file's own
 * outcome: indexed, skipped with a reason, or failed with a code.
 */
type Outcome = { indexed: string } | { skipped: string; reason: string } | { failed: string; code: string };

interface Row {
  name: string;
  /** Makes the awkward file(s); returns false when this machine cannot (the row then says why it skipped). */
  setup(notes: NotesFolder): boolean | void;
  expect: Outcome;
  /** The import report's notice for the file, when it was read with a caveat (every other row: none). */
  notice?: Partial<ImportReport['notices'][number]>;
  options?: Partial<ImportOptions>;
}

const PARSE_WORKER = new URL('../../electron/core/ingest/parse/worker-bootstrap.mjs', import.meta.url);
const limitedPool = (limits: { timeoutMs?: number; maxMemoryMb?: number }) => sharedParsePool(PARSE_WORKER, limits);

const isRoot = process.getuid?.() === 0;
const posix = process.platform !== 'win32';
const GOOD = { 'good/alpha.md': '# Alpha\n\nThe aardvark note.\n', 'good/beta.md': '# Beta\n\nThe bumblebee note.\n', 'good/gamma.txt': 'The chameleon note.\n' };

const PDF_PAGES = [['The first page of the pelican manual.'], ['The second page.']];

const ROWS: Row[] = [
  { name: 'a zero-byte note', setup: (n) => void n.write('empty.md', ''), expect: { indexed: 'empty.md' } },
  { name: 'a PDF with a text layer', setup: (n) => void n.write('manual.pdf', makePdf({ pages: PDF_PAGES })), expect: { indexed: 'manual.pdf' } },
  { name: 'a PDF locked by a password', setup: (n) => void n.write('locked.pdf', makePdf({ pages: PDF_PAGES, userPassword: 'pelican' })), expect: { skipped: 'locked.pdf', reason: 'password-protected' } },
  { name: 'a PDF cut off part-way', setup: (n) => void n.write('cut.pdf', truncatedPdf({ pages: PDF_PAGES }, 0.5)), expect: { failed: 'cut.pdf', code: 'CORRUPT_FILE' } },
  { name: 'a PDF of scanned pages (no text layer)', setup: (n) => void n.write('scan.pdf', makePdf({ pages: [[], [], []] })), expect: { skipped: 'scan.pdf', reason: 'no-text-layer' } },
  { name: 'something else named .pdf', setup: (n) => void n.write('notes.pdf', '# Not a PDF\n\nJust Markdown.\n'), expect: { failed: 'notes.pdf', code: 'CORRUPT_FILE' } },
  { name: 'binary content named .md', setup: (n) => void n.write('photo.md', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])), expect: { failed: 'photo.md', code: 'BINARY_FILE' } },
  // Not UTF-8 and no BOM: read in the legacy encoding its bytes point to (readers/decode.ts guessEncoding), and the report says which.
  { name: 'Latin-1 text', setup: (n) => void n.write('latin1.md', Buffer.from('# Caf\xe9\n\nLa cr\xe8me br\xfbl\xe9e du caf\xe9.\n', 'latin1')), expect: { indexed: 'latin1.md' }, notice: { path: 'latin1.md', code: 'GUESSED_ENCODING', encoding: 'windows-1252' } },
  // Too short for statistics, and in another script: a guess could index mojibake, so it fails, saying so.
  { name: 'a short note in windows-1251', setup: (n) => void n.write('ru.md', Buffer.from([0xc2, 0xf1, 0xf2, 0xf0, 0xe5, 0xf7, 0xe0, 0x20, 0xe2, 0x20, 0xef, 0xff, 0xf2, 0xed, 0xe8, 0xf6, 0xf3, 0x0a])), expect: { failed: 'ru.md', code: 'UNDECODABLE_TEXT' } },
  { name: 'UTF-16 with a BOM', setup: (n) => void n.write('utf16.md', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Wide\n\nSixteen-bit text.\n', 'utf16le')])), expect: { indexed: 'utf16.md' } },
  // UTF-8 but for a stray byte: damaged, not in another encoding, so no guess turns the rest into mojibake.
  { name: 'invalid UTF-8 bytes in the text', setup: (n) => void n.write('broken.md', Buffer.concat([Buffer.from('# Caf\u00e9\n\nLa cr\u00e8me br\u00fbl\u00e9e du caf\u00e9 ', 'utf8'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0x0a])])), expect: { failed: 'broken.md', code: 'UNDECODABLE_TEXT' } },
  { name: 'over the size cap', setup: (n) => void n.write('huge.md', 'x'.repeat(2048)), options: { maxFileBytes: 1024 }, expect: { skipped: 'huge.md', reason: 'too-large' } },
  { name: 'one long line (2 MB, no newline)', setup: (n) => void n.write('line.md', 'word '.repeat(400_000)), expect: { indexed: 'line.md' } },
  // Parsing runs in a worker with a time and a memory limit (core/ingest/parse/); these limits are
  // small so that an ordinary large file crosses them, as a crafted one would the real ones.
  {
    name: 'a file whose parse runs over its time limit',
    setup: (n) => void n.write('slow.md', Array.from({ length: 40_000 }, (_, i) => `## Section ${i}\n\n${'Words that go on and on. '.repeat(8)}\n`).join('\n')),
    options: { parse: (req) => limitedPool({ timeoutMs: 300 }).parse(req) },
    expect: { failed: 'slow.md', code: 'PARSE_TIMEOUT' },
  },
  {
    name: 'a file whose parse runs over its memory limit',
    setup: (n) => void n.write('greedy.md', Array.from({ length: 60_000 }, (_, i) => `- item ${i} with **bold** and \`code\` and [a link](x${i})`).join('\n')),
    options: { parse: (req) => limitedPool({ maxMemoryMb: 48, timeoutMs: 120_000 }).parse(req) },
    expect: { failed: 'greedy.md', code: 'PARSE_MEMORY' },
  },
  {
    name: 'a symlink loop',
    setup: (n) => {
      if (!posix) return false;
      fs.mkdirSync(n.path('loop'));
      fs.symlinkSync(n.path('loop'), n.path('loop/again'));
    },
    expect: { skipped: 'loop/again', reason: 'symlink-loop' },
  },
  {
    name: 'a broken symlink',
    setup: (n) => {
      if (!posix) return false;
      fs.symlinkSync(n.path('nowhere.md'), n.path('dangling.md'));
    },
    expect: { skipped: 'dangling.md', reason: 'unreadable' },
  },
  {
    name: 'a symlink out of the folder (never followed)',
    setup: (n) => {
      if (!posix) return false;
      fs.symlinkSync(os.tmpdir(), n.path('outside'));
    },
    expect: { skipped: 'outside', reason: 'symlink-outside-root' },
  },
  {
    name: 'no read permission',
    setup: (n) => {
      if (!posix || isRoot) return false; // root reads everything
      n.write('secret.md', '# Secret\n');
      fs.chmodSync(n.path('secret.md'), 0o000);
    },
    expect: { failed: 'secret.md', code: 'READ_FAILED' },
  },
  {
    name: 'a named pipe',
    setup: (n) => {
      if (!posix) return false;
      execFileSync('mkfifo', [n.path('pipe.md')]);
    },
    expect: { skipped: 'pipe.md', reason: 'not-a-regular-file' },
  },
  { name: 'an NFC name', setup: (n) => void n.write('caf\u00e9.md', '# NFC\n\nComposed.\n'), expect: { indexed: 'caf\u00e9.md' } },
  { name: 'an NFD name', setup: (n) => void n.write('cafe\u0301-nfd.md', '# NFD\n\nDecomposed.\n'), expect: { indexed: 'cafe\u0301-nfd.md' } },
  { name: 'brackets and spaces in the name', setup: (n) => void n.write('notes [draft] (v2) #1.md', '# Draft\n\nBrackets.\n'), expect: { indexed: 'notes [draft] (v2) #1.md' } },
  { name: 'a 200-character name', setup: (n) => void n.write(`${'n'.repeat(200)}.md`, '# Long\n\nLong name.\n'), expect: { indexed: `${'n'.repeat(200)}.md` } },
  {
    name: 'a name that is not valid UTF-8',
    setup: (n) => {
      try {
        fs.writeFileSync(Buffer.concat([Buffer.from(`${n.root}/bad`), Buffer.from([0xff]), Buffer.from('.md')]), '# Bad\n');
      } catch {
        return false; // APFS refuses such names
      }
    },
    expect: { skipped: 'bad\\xff.md', reason: 'unsupported-file-name' },
  },
];

let notes: NotesFolder;
let db: Db;
beforeEach(() => {
  notes = new NotesFolder('quire-fault-');
  for (const [rel, text] of Object.entries(GOOD)) notes.write(rel, text);
  db = openDatabase(':memory:');
});
afterEach(() => {
  vi.restoreAllMocks();
  db.close();
  // An unreadable file in a writable folder is removed with it; links are removed, never followed.
  notes.dispose();
});

async function goodNotesIntact(): Promise<void> {
  for (const word of ['aardvark', 'bumblebee', 'chameleon']) {
    const res = await search(db, word, { gateway: null, mode: 'lexical' });
    expect(res.results.map((r) => r.path), word).toHaveLength(1);
  }
  expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
}

function outcomeOf(report: ImportReport, expected: Outcome): Outcome | string {
  if ('indexed' in expected) {
    const found = db.prepare("SELECT status FROM documents WHERE rel_path = ?").pluck().get(expected.indexed);
    return found === 'ready' ? expected : `status ${String(found)}; errors ${JSON.stringify(report.errors)}; skipped ${JSON.stringify(report.skipped)}`;
  }
  if ('skipped' in expected) {
    const s = report.skipped.find((x) => x.path === expected.skipped);
    return s ? { skipped: s.path, reason: s.reason } : `not skipped: ${JSON.stringify(report.skipped)}`;
  }
  const e = report.errors.find((x) => x.path === expected.failed);
  return e ? { failed: e.path, code: e.code } : `not failed: ${JSON.stringify(report.errors)}`;
}

describe('fault suite: files', () => {
  for (const row of ROWS) {
    it(row.name, async (ctx) => {
      if (row.setup(notes) === false) ctx.skip(`this machine cannot make ${row.name} (platform or permissions)`);
      const report = await importFolder(db, notes.root, { embedding: null, ...row.options });
      expect(outcomeOf(report, row.expect)).toEqual(row.expect);
      if (row.notice) expect(report.notices).toEqual([expect.objectContaining(row.notice)]);
      else expect(report.notices).toEqual([]);
      expect(report.documents.added).toBeGreaterThanOrEqual(3);
      await goodNotesIntact();
      // Again: the outcome holds, and nothing new is written for an unchanged folder.
      const again = await importFolder(db, notes.root, { embedding: null, ...row.options });
      expect(again.documents.added + again.documents.updated).toBe(0);
      await goodNotesIntact();
    });
  }
});

describe('fault suite: files changing during an import', () => {
  /** Twelve notes before the one that changes, so the change lands after the scan and before its read. */
  function crowd(): void {
    for (let i = 0; i < 12; i++) notes.write(`a${String(i).padStart(2, '0')}.md`, `# Crowd ${i}\n\ncrowd note ${i}\n`);
    notes.write('zz.md', '# Last\n\nThe original wombat text.\n');
  }
  const onFirstIndexing = (change: () => void) => {
    let done = false;
    return (p: { phase: string }) => {
      if (!done && p.phase === 'indexing') {
        done = true;
        change();
      }
    };
  };

  it('a note modified after the scan is indexed as it is when read; the next import has nothing to do', async () => {
    crowd();
    const report = await importFolder(db, notes.root, { embedding: null, onProgress: onFirstIndexing(() => notes.write('zz.md', '# Last\n\nThe rewritten platypus text.\n')) });
    expect(report.errors).toEqual([]);
    expect((await search(db, 'platypus', { gateway: null, mode: 'lexical' })).results).toHaveLength(1);
    expect((await search(db, 'wombat', { gateway: null, mode: 'lexical' })).results).toHaveLength(0);
    await goodNotesIntact();
    const again = await importFolder(db, notes.root, { embedding: null });
    expect(again.documents.added + again.documents.updated).toBe(0);
  });

  it('a note deleted after the scan fails alone with a read error; the next import removes nothing else', async () => {
    crowd();
    const report = await importFolder(db, notes.root, { embedding: null, onProgress: onFirstIndexing(() => notes.remove('zz.md')) });
    expect(report.errors).toEqual([expect.objectContaining({ path: 'zz.md', code: 'READ_FAILED' })]);
    await goodNotesIntact();
    const again = await importFolder(db, notes.root, { embedding: null });
    expect(again.errors).toEqual([]);
    expect(db.prepare("SELECT count(*) FROM documents WHERE rel_path = 'zz.md'").pluck().get()).toBe(0);
    await goodNotesIntact();
  });
});

describe('fault suite: reads that hang (a stalled network mount)', () => {
  function crowd(): void {
    for (let i = 0; i < 12; i++) notes.write(`a${String(i).padStart(2, '0')}.md`, `# Crowd ${i}\n\ncrowd note ${i}\n`);
  }

  for (const stage of ['open', 'read'] as const) {
    it(`a note whose ${stage} never returns fails alone with READ_TIMEOUT; every other note is imported`, async () => {
      crowd();
      hangFile(notes.path('a03.md'), stage);
      const report = await importFolder(db, notes.root, { embedding: null, readTimeoutMs: 200 });
      expect(report.errors).toEqual([expect.objectContaining({ path: 'a03.md', code: 'READ_TIMEOUT' })]);
      expect(report.documents.added).toBe(3 + 11);
      await goodNotesIntact();
    });
  }

  it('Cancel ends the import promptly while a read is stuck, and the stuck note is not marked failed', async () => {
    crowd();
    const stuck = hangFile(notes.path('a03.md'), 'read');
    const controller = new AbortController();
    let cancelledAt = 0;
    const report = await importFolder(db, notes.root, {
      embedding: null,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.currentFile === 'a03.md' && cancelledAt === 0) {
          cancelledAt = Date.now();
          setTimeout(() => controller.abort(), 50);
        }
      },
    });
    expect(cancelledAt).toBeGreaterThan(0);
    expect(report.cancelled).toBe(true);
    expect(Date.now() - cancelledAt).toBeLessThan(2000); // the time limit is 30 s
    expect(db.prepare("SELECT count(*) FROM documents WHERE status = 'error'").pluck().get()).toBe(0);
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
    stuck.release();
  });

  it('read-ahead never has more reads in flight than the threadpool leaves free', async () => {
    for (let i = 0; i < 30; i++) notes.write(`n${String(i).padStart(2, '0')}.md`, `# N${i}\n\nnote ${i}\n`);
    const realOpen = fsp.open.bind(fsp);
    let inFlight = 0;
    let most = 0;
    vi.spyOn(fsp, 'open').mockImplementation(async (...args) => {
      most = Math.max(most, ++inFlight);
      // Each read is slow, so read-ahead has every chance to pile them up.
      const handle = await new Promise<fsp.FileHandle>((resolve, reject) => setTimeout(() => realOpen(...args).then(resolve, reject), 20));
      const close = handle.close.bind(handle);
      handle.close = async () => {
        inFlight--;
        return close();
      };
      return handle;
    });
    const report = await importFolder(db, notes.root, { embedding: null });
    expect(report.documents.added).toBe(33);
    expect(most).toBeGreaterThan(1); // it still reads ahead
    expect(most).toBeLessThan(4); // libuv's default threadpool: 4, one left for the rest of the process
  });
});
