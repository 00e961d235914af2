import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDbPath } from '../../../test/support/notes';
import { ensureCollection } from './collections';
import { openDatabase, type Db } from './open';

// The Rust book's folder showed as "src", and a second folder called "notes" as "notes (2)".

let file: ReturnType<typeof tempDbPath>;
let db: Db;
beforeEach(() => {
  file = tempDbPath('quire-names-');
  db = openDatabase(file.file);
});
afterEach(() => {
  db.close();
  file.dispose();
});

const named = (root: string) => ensureCollection(db, root).name;

describe('a new folder\'s name', () => {
  it('is the folder it is in, where its own name says only what kind of folder it is', () => {
    expect(named('/home/me/books/rust-book/src')).toBe('rust-book');
    expect(named('/home/me/code/fastify/docs')).toBe('fastify');
    expect(named('/home/me/notes')).toBe('notes');
  });

  it('tells two of one name apart by the folder each is in before falling back to a number', () => {
    expect(named('/home/me/work/notes')).toBe('notes');
    expect(named('/home/me/home/notes')).toBe('notes (home)');
    expect(named('/srv/home/notes')).toBe('notes (2)');
    expect(named('/home/me/rust-book/src')).toBe('rust-book');
    expect(named('/home/me/rust-book/docs')).toBe('rust-book docs');
  });
});
