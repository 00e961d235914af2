import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexFileName, indexStorage, removeIndexes } from './index-files';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-index-files-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const touch = (name: string, bytes = 10) => fs.writeFileSync(path.join(dir, name), Buffer.alloc(bytes));

describe('evaluation index files', () => {
  it('names an index by its folder first, so one folder’s indexes go without touching another’s', () => {
    const a1 = indexFileName('/notes/a', 'embeddinggemma', 'heading:256');
    const a2 = indexFileName('/notes/a', 'nomic-embed-text', 'heading:256');
    const b1 = indexFileName('/notes/b', 'embeddinggemma', 'heading:256');
    expect(a1.split('-')[1]).toBe(a2.split('-')[1]);
    expect(a1.split('-')[1]).not.toBe(b1.split('-')[1]);
    for (const n of [a1, `${a1}-wal`, a2, b1]) touch(n);
    touch('quire.db');
    touch('notes.txt');
    expect(indexStorage(dir, '/notes/a')).toEqual({ indexes: 2, bytes: 30 });
    expect(removeIndexes(dir, '/notes/a')).toEqual({ indexes: 2, bytes: 30, failed: [] });
    expect(fs.readdirSync(dir).sort()).toEqual([b1, 'notes.txt', 'quire.db'].sort());
  });

  it('counts and clears indexes named the older way too, but only when clearing everything', () => {
    touch('index-0123456789abcdef.db', 5);
    touch('index-0123456789abcdef.db-shm', 5);
    expect(indexStorage(dir, '/notes/a')).toEqual({ indexes: 0, bytes: 0 });
    expect(indexStorage(dir)).toEqual({ indexes: 1, bytes: 10 });
    expect(removeIndexes(dir).indexes).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('never throws: what cannot be removed is reported and the rest still goes', () => {
    const stuck = indexFileName('/notes/a', 'm', 'heading:256');
    fs.mkdirSync(path.join(dir, stuck)); // a directory: rmSync without recursive refuses it
    const fine = indexFileName('/notes/a', 'n', 'heading:256');
    touch(fine);
    const r = removeIndexes(dir, '/notes/a');
    expect(r.failed).toEqual([path.join(dir, stuck)]);
    expect(r.indexes).toBe(1);
    expect(fs.existsSync(path.join(dir, fine))).toBe(false);
    expect(removeIndexes(path.join(dir, 'missing'))).toEqual({ indexes: 0, bytes: 0, failed: [] });
  });
});
