import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { NotesFolder } from '../../../test/support/notes';
import { statFiles } from './stat-worker';

describe('statFiles: sizes and times off the main thread', () => {
  let notes: NotesFolder;
  afterEach(() => notes.dispose());

  it('answers regular files as fs.stat does, and null for anything the walk must examine itself', async () => {
    notes = new NotesFolder('quire-stat-worker-');
    const a = notes.write('a.md', '# A\n');
    const b = notes.write('sub/b.md', 'bee '.repeat(1000));
    const got = await statFiles([a, notes.path('sub'), notes.path('gone.md'), b]);
    expect(got).toEqual([
      { size: fs.statSync(a).size, mtimeMs: fs.statSync(a).mtimeMs },
      null,
      null,
      { size: 4000, mtimeMs: fs.statSync(b).mtimeMs },
    ]);
  });

  it('takes more files than one batch, in order', async () => {
    notes = new NotesFolder('quire-stat-worker-');
    const files = Array.from({ length: 2_500 }, (_, i) => notes.write(`f${i}.txt`, 'x'.repeat(i % 50)));
    const got = await statFiles(files);
    expect(got.map((s) => s?.size)).toEqual(files.map((_, i) => i % 50));
  });
});
