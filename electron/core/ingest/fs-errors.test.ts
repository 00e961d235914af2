import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotesFolder } from '../../../test/support/notes';
import { openDatabase, type Db } from '../db/open';
import { fsErrorSentence } from './fs-errors';
import { importFolder } from './pipeline';

const errno = (code: string, message: string) => Object.assign(new Error(message), { code });
const posix = process.platform !== 'win32';

let notes: NotesFolder;
let db: Db;

beforeEach(() => {
  notes = new NotesFolder('quire-fs-errors-');
  db = openDatabase(':memory:');
});
afterEach(() => {
  db.close();
  notes.dispose();
});

describe('fsErrorSentence', () => {
  it('says what happened in words, without Node\'s syscall and absolute path, keeping the code', () => {
    const denied = fsErrorSentence(errno('EACCES', "EACCES: permission denied, open '/home/me/notes/a.md'"), 'file');
    expect(denied).toBe('Quire is not allowed to read this file. Check its permissions (EACCES).');
    expect(fsErrorSentence(errno('EACCES', 'EACCES: permission denied, scandir'), 'folder')).toMatch(/^Quire is not allowed to open this folder, so nothing in it was imported/);
    expect(fsErrorSentence(errno('ENOENT', 'ENOENT: no such file'), 'file')).toMatch(/^It was moved or deleted while the folder was being imported/);
    expect(fsErrorSentence(errno('ENOENT', 'ENOENT: no such file'), 'link')).toBe('It is a link to something that does not exist (ENOENT).');
    expect(fsErrorSentence(errno('ELOOP', 'ELOOP: too many symbolic links'), 'link')).toMatch(/^It is a link that leads back to itself/);
    // Anything else keeps Node's words, behind a sentence of ours.
    expect(fsErrorSentence(errno('EXDEV', 'EXDEV: odd'), 'file')).toBe('Could not read this file: EXDEV: odd');
  });
});

describe('an import meeting file-system trouble', () => {
  it('a file renamed after the folder was listed fails alone, with a sentence saying so; the rest imports', async () => {
    for (let i = 0; i < 12; i++) notes.write(`note-${String(i).padStart(2, '0')}.md`, `# Note ${i}\n\nText of note ${i}.\n`);
    let renamed = false;
    const report = await importFolder(db, notes.root, {
      embedding: null,
      // The first file's turn comes before any file is read; the last one is then renamed under the import.
      onProgress: (p) => {
        if (!renamed && p.currentFile !== null) {
          fs.renameSync(notes.path('note-11.md'), notes.path('renamed.md'));
          renamed = true;
        }
      },
    });
    expect(renamed).toBe(true);
    expect(report.documents.added).toBe(11);
    expect(report.errors).toEqual([
      { path: 'note-11.md', code: 'READ_FAILED', message: 'It was moved or deleted while the folder was being imported; the next import finds it under its new name (ENOENT).' },
    ]);
  });

  it.runIf(posix)('a link to itself is a loop and a dangling link says it leads nowhere, each with its sentence', async () => {
    notes.write('a.md', '# A\n\nText.\n');
    fs.symlinkSync('self.md', notes.path('self.md'));
    fs.symlinkSync(notes.path('missing.md'), notes.path('dangling.md'));
    const report = await importFolder(db, notes.root, { embedding: null });
    expect(report.skipped).toEqual([
      { path: 'dangling.md', reason: 'unreadable', message: 'It is a link to something that does not exist (ENOENT).' },
      { path: 'self.md', reason: 'symlink-loop', message: 'It is a link that leads back to itself, so it was not followed (ELOOP).' },
    ]);
  });
});
