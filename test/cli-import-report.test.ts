import { extensionList } from '../shared/document-types';
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
        `    3 files of a type Quire does not read (.png 2, .svg 1); it reads ${extensionList('and')}`,
      ].join('\n'),
    );
  });

  it('names each note read in a guessed encoding, apart from the failures, and in --json', async () => {
    const old = new NotesFolder('quire-cli-report-enc-');
    const other = tempDbPath('quire-cli-report-enc-db-');
    try {
      old.write('receta.md', Buffer.from('# Receta\n\nLa canci\xf3n de la ni\xf1a est\xe1 en el caj\xf3n.\n', 'latin1'));
      const env = { OLLAMA_HOST: ollama.url, QUIRE_DB: other.file };
      const r = await runCli(['import', old.root, '--no-embed'], env);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('1 added');
      expect(r.stdout).toContain('  read in a guessed encoding (not UTF-8; check their text, or re-save them as UTF-8):\n    receta.md: read as windows-1252\n');
      expect(r.stdout).not.toContain('failed files:');
      old.write('receta.md', Buffer.from('# Receta\n\nEl caf\xe9 de la ma\xf1ana.\n', 'latin1'));
      const json = JSON.parse((await runCli(['import', old.root, '--no-embed', '--json'], env)).stdout) as { notices: unknown[] };
      expect(json.notices).toEqual([expect.objectContaining({ path: 'receta.md', code: 'GUESSED_ENCODING', encoding: 'windows-1252' })]);
    } finally {
      old.dispose();
      other.dispose();
    }
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

  // It used to end "embedded: 0 in 16 requests" and "embeddings: not made", even when some were made.
  it('Ollama gone mid-import: says which documents have no vectors, that keyword search finds them, and to import again', async () => {
    const folder = new NotesFolder('quire-cli-report-gone-');
    const other = tempDbPath('quire-cli-report-gone-db-');
    const env = { OLLAMA_HOST: ollama.url, QUIRE_DB: other.file };
    for (let i = 1; i <= 12; i++) folder.write(`n${String(i).padStart(2, '0')}.md`, `# Note ${i}\n\nDeploy key ${i} rotates every ${i} days.\n`);
    // One document a request, each answered slowly: Ollama goes once the third request is under way.
    ollama.faults.latencyMs = 40;
    ollama.calls.reset();
    const watch = setInterval(() => {
      if (ollama.calls.count('/api/embed') >= 3) {
        clearInterval(watch);
        void ollama.stop();
      }
    }, 2);
    try {
      const r = await runCli(['import', folder.root, '--batch', '1'], env);
      expect(r.code).toBe(0);
      const embedded = Number(/embedded: (\d+) in/.exec(r.stdout)?.[1]);
      expect(embedded).toBeLessThan(12);
      expect(r.stdout).toContain(`\n  embeddings: stopped after ${embedded} vectors: Ollama is not reachable at ${ollama.url} (from OLLAMA_HOST).`);
      const missing = 12 - embedded;
      const listed = new RegExp(`\\n  ${missing} of the 12 documents here have no vectors \\(((?:n\\d\\d\\.md, ){${Math.min(missing, 10) - 1}}n\\d\\d\\.md)${missing > 10 ? `, … and ${missing - 10} more` : ''}\\): keyword search still finds them, meaning search does not yet\\.\\n`);
      expect(r.stdout).toMatch(listed);
      expect(r.stdout).toContain(`\n  Once Ollama is back, run "quire import ${folder.root}" again: it embeds only what is missing.\n`);
      // Those named are the ones without vectors: importing again once Ollama is back embeds exactly them.
      await ollama.start();
      ollama.faults.latencyMs = 0;
      const again = await runCli(['import', folder.root, '--json'], env);
      expect(JSON.parse(again.stdout)).toMatchObject({ embedded: missing, embedding: { status: 'ok' } });
      expect(JSON.parse(again.stdout).withoutVectors).toBeUndefined();
    } finally {
      clearInterval(watch);
      ollama.faults.latencyMs = 0;
      await ollama.start().catch(() => undefined);
      folder.dispose();
      other.dispose();
    }
  });

  it('the embedding model missing from Ollama: none of the documents has vectors, and the sentence does not blame Ollama being away', async () => {
    const folder = new NotesFolder('quire-cli-report-nomodel-');
    const other = tempDbPath('quire-cli-report-nomodel-db-');
    folder.write('a.md', '# A\n\nAlpha.\n');
    folder.write('b.md', '# B\n\nBeta.\n');
    ollama.removeModel('embeddinggemma');
    try {
      const r = await runCli(['import', folder.root], { OLLAMA_HOST: ollama.url, QUIRE_DB: other.file });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\n {2}embeddings: stopped after 0 vectors: .*embeddinggemma/);
      expect(r.stdout).toContain('\n  None of the 2 documents here has vectors (a.md, b.md): keyword search still finds them, meaning search does not yet.\n');
      expect(r.stdout).toContain(`\n  Once that is put right, run "quire import ${folder.root}" again: it embeds only what is missing.`);
    } finally {
      ollama.addModel('embeddinggemma');
      folder.dispose();
      other.dispose();
    }
  });

  it('a rebuild while Ollama is away says how many documents came back without vectors, and how to add them', async () => {
    const folder = new NotesFolder('quire-cli-report-rebuild-');
    const damaged = tempDbPath('quire-cli-report-rebuild-db-');
    folder.write('a.md', '# A\n\nAlpha.\n');
    folder.write('b.md', '# B\n\nBeta.\n');
    try {
      const into = `${damaged.file}.new`;
      const r = await runCli(['rebuild', folder.root, '--into', into], { OLLAMA_HOST: 'http://127.0.0.1:9', QUIRE_DB: damaged.file });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`\\n {4}2 documents have no vectors \\(Ollama is not reachable at http://127\\.0\\.0\\.1:9 \\(from OLLAMA_HOST\\)\\. [^\\n]*\\): keyword search finds them; run "quire embed --db ${into.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" once that is put right\\.\\n`));
    } finally {
      folder.dispose();
      damaged.dispose();
    }
  });

  // With stderr not a terminal (a log, CI) an import printed no progress at all, however long it ran.
  it('with stderr not a terminal, a long import prints a progress line every few seconds; a short one none', async () => {
    const folder = new NotesFolder('quire-cli-report-lines-');
    const other = tempDbPath('quire-cli-report-lines-db-');
    const env = { OLLAMA_HOST: ollama.url, QUIRE_DB: other.file };
    try {
      for (let i = 1; i <= 6; i++) folder.write(`n${i}.md`, `# Note ${i}\n\nDeploy key ${i} rotates every ${i} days.\n`);
      const run = async (now?: () => number) => {
        let stderr = '';
        const code = await main(['import', folder.root, '--no-embed'], { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, env, ...(now ? { now } : {}) });
        expect(code).toBe(0);
        return stderr;
      };
      // A clock on which every look is two seconds later: a line at most every 5 s of it.
      let t = 0;
      const slow = await run(() => (t += 2_000));
      const lines = slow.split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect(line).toMatch(/^ {0,2}\d{1,3}% \S/);
      expect(slow).not.toMatch(/[\r\x1b]/);
      expect(lines.some((l) => /\d+\/6 files/.test(l))).toBe(true);
      // The same import with the real clock is over in far less than 5 s: nothing but its report.
      fs.writeFileSync(folder.path('n1.md'), '# Note 1\n\nChanged.\n');
      expect(await run()).toBe('');
    } finally {
      folder.dispose();
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
      expect(r.stdout).toContain(`\n  nothing to index: no ${extensionList('or')} file in this folder (what it holds is listed below)\n`);
    } finally {
      empty.dispose();
      other.dispose();
    }
  });
});
