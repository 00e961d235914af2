import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { main } from '../electron/cli/run';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

let ollama: Standin;
let notes: NotesFolder;
let outside: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

const posix = process.platform !== 'win32';

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-report-');
  outside = new NotesFolder('quire-cli-report-out-');
  db = tempDbPath('quire-cli-report-db-');
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  outside?.dispose();
  db?.dispose();
});

describe('quire import, read by a person', () => {
  // It used to print "skipped: 1 symlink-outside-root, 1 unreadable, 3 unsupported-type": no file
  // named, no reason in words, and a "skipped" count in the line above that disagreed with it.
  it.runIf(posix)('names each skipped file or link with why, counts other file types by extension, and the counts agree', async () => {
    notes.write('keys.md', '# Keys\n\nRotate the deploy keys every ninety days.\n');
    notes.write('diagram.svg', '<svg/>');
    notes.write('photos/a.png', 'x');
    notes.write('photos/b.png', 'x');
    outside.write('secret.md', '# Not yours\n');
    fs.symlinkSync(outside.root, notes.path('elsewhere'));
    fs.symlinkSync(notes.path('gone.md'), notes.path('dangling.md'));
    const r = await runCli(['import', notes.root, '--no-embed'], { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  documents: 1 added, 0 updated, 0 unchanged, 0 moved, 0 deleted, 5 skipped, 0 failed\n');
    expect(r.stdout).toContain(
      [
        '  skipped:',
        '    dangling.md: It is a link to something that does not exist (ENOENT).',
        '    elsewhere: a link pointing outside the imported folder.',
        '    3 files of a type Quire does not read (.png 2, .svg 1); it reads .md, .markdown, .mdx, .rst, .adoc, .asciidoc, .org, .txt, .pdf, .docx, .html and .htm',
      ].join('\n'),
    );
  });

  // The second of two imports at once waited seconds, then said "Imported … in 0.0 s".
  it('an import that waited for another says how long it waited, apart from its own time', async () => {
    const other = tempDbPath('quire-cli-report-wait-');
    const env = { OLLAMA_HOST: ollama.url, QUIRE_DB: other.file };
    ollama.faults.latencyMs = 400; // the first import's Ollama calls hold its lock a while
    try {
      let started!: () => void;
      const firstHoldsLock = new Promise<void>((resolve) => (started = resolve));
      let firstOut = '';
      const first = main(['import', notes.root], {
        stdout: { write: (t: string) => (firstOut += t) },
        // A terminal's stderr: its progress bar is drawn once the import (and its lock) has begun.
        stderr: { write: () => started(), isTTY: true },
        env,
      });
      await firstHoldsLock;
      const second = await runCli(['import', notes.root], env);
      expect(await first).toBe(0);
      expect(firstOut).toMatch(/^Imported .* in \d+\.\d s\n/);
      expect(second.code).toBe(0);
      expect(second.stderr).toContain('Another import into this database');
      expect(second.stdout).toMatch(/^Imported .* in \d+\.\d s, after waiting \d+\.\d s for another import\n/);
      const waited = Number(/after waiting (\d+\.\d) s/.exec(second.stdout)![1]);
      expect(waited).toBeGreaterThan(0);
    } finally {
      ollama.faults.latencyMs = 0;
      other.dispose();
    }
  });

  it('a folder with nothing Quire reads says so, rather than a row of zeros', async () => {
    const empty = new NotesFolder('quire-cli-report-empty-');
    const other = tempDbPath('quire-cli-report-empty-db-');
    try {
      empty.write('photo.png', 'x');
      const r = await runCli(['import', empty.root], { OLLAMA_HOST: ollama.url, QUIRE_DB: other.file });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('\n  nothing to index: no .md, .markdown, .mdx, .rst, .adoc, .asciidoc, .org, .txt, .pdf, .docx, .html or .htm file in this folder (what it holds is listed below)\n');
    } finally {
      empty.dispose();
      other.dispose();
    }
  });
});
