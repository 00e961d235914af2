import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderCompletions } from './folder-completions';

let home: string;
let outside: string;
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-home-')));
  outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-elsewhere-')));
  for (const d of ['Notes', 'notebooks', 'Music', '.secrets', 'Notes/work', 'Notes/home']) fs.mkdirSync(path.join(home, d), { recursive: true });
  fs.writeFileSync(path.join(home, 'notes.txt'), 'a file, not a folder');
  fs.mkdirSync(path.join(outside, 'private'));
  fs.symlinkSync(outside, path.join(home, 'link-out'));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('completing a folder path as it is typed', () => {
  it('offers the subfolders that start with what was typed, case aside, folders only, hidden ones only when asked', () => {
    expect(folderCompletions(`${home}/no`, home)).toEqual([path.join(home, 'notebooks'), path.join(home, 'Notes')]);
    expect(folderCompletions(`${home}/Notes/`, home)).toEqual([path.join(home, 'Notes/home'), path.join(home, 'Notes/work')]);
    expect(folderCompletions(`${home}/`, home)).not.toContain(path.join(home, '.secrets'));
    expect(folderCompletions(`${home}/.se`, home)).toEqual([path.join(home, '.secrets')]);
    expect(folderCompletions('~/Mu', home)).toEqual([path.join(home, 'Music')]);
  });

  it('offers nothing outside the home folder, through a link or otherwise, nor for a relative or missing path', () => {
    expect(folderCompletions(`${outside}/`, home)).toEqual([]);
    expect(folderCompletions(`${home}/link-out/`, home)).toEqual([]);
    expect(folderCompletions('/', home)).toEqual([]);
    expect(folderCompletions('Notes', home)).toEqual([]);
    expect(folderCompletions(`${home}/absent/`, home)).toEqual([]);
  });
});
