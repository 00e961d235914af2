import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotesFolder, tempDbPath } from '../../../test/support/notes';
import { openDatabase, type Db } from '../db/open';
import { logseqPageName } from './logseq-names';
import { importFolder } from './pipeline';

describe("Logseq's file names as page names (its docs' Filename format; graph_parser title-parsing)", () => {
  it(':triple-lowbar: ___ is a slash, other escapes decoded one by one, empty namespace parts dropped', () => {
    expect(logseqPageName('a___b', 'triple-lowbar')).toBe('a/b');
    expect(logseqPageName('Logseq___Features___Filename format', 'triple-lowbar')).toBe('Logseq/Features/Filename format');
    expect(logseqPageName('What%3F A%3A B', 'triple-lowbar')).toBe('What? A: B');
    expect(logseqPageName('a%2Fb', 'triple-lowbar')).toBe('a/b');
    // A single byte of a UTF-8 sequence does not decode alone: left as written, as Logseq leaves it.
    expect(logseqPageName('caf%C3', 'triple-lowbar')).toBe('caf%C3');
    expect(logseqPageName('___a______b', 'triple-lowbar')).toBe('a/b');
    // Dots and single or double underscores are the name's own.
    expect(logseqPageName('v1.2 notes__draft_x', 'triple-lowbar')).toBe('v1.2 notes__draft_x');
  });

  it(':legacy: percent-decoded whole, and a dot is a slash (its earliest versions wrote a/b as a.b)', () => {
    expect(logseqPageName('a%2Fb', 'legacy')).toBe('a/b');
    expect(logseqPageName('a.b', 'legacy')).toBe('a/b');
    expect(logseqPageName('a___b', 'legacy')).toBe('a___b');
    expect(logseqPageName('100%', 'legacy')).toBe('100%'); // not an escape: the name as written
  });
});

describe('a Logseq graph imported', () => {
  let notes: NotesFolder;
  let file: ReturnType<typeof tempDbPath>;
  let db: Db;
  beforeEach(() => {
    notes = new NotesFolder('quire-logseq-');
    file = tempDbPath('quire-logseq-db-');
    db = openDatabase(file.file);
  });
  afterEach(() => {
    db.close();
    file.dispose();
    notes.dispose();
  });
  const titles = async (root = notes.root) => {
    await importFolder(db, root, { embedding: null });
    return Object.fromEntries((db.prepare('SELECT rel_path, title FROM documents ORDER BY rel_path').all() as Array<{ rel_path: string; title: string }>).map((r) => [r.rel_path, r.title]));
  };
  const pages = () => {
    notes.write('pages/a___b.md', '- the first block of a namespaced page\n');
    notes.write('pages/a%2Fb%2Fc.md', '- a page of an older graph\n');
    notes.write('pages/v1.2 notes.md', '- release notes\n');
    notes.write('pages/titled___page.md', 'title:: Its own title\n\n- a block\n');
  };

  it('names pages titled by their file names by the graph\'s format (:triple-lowbar)', async () => {
    notes.write('logseq/config.edn', '{:meta/version 1\n ;; :file/name-format :legacy\n :file/name-format :triple-lowbar\n :journal/page-title-format "MMM do, yyyy"}\n');
    pages();
    expect(await titles()).toMatchObject({ 'pages/a___b.md': 'a/b', 'pages/a%2Fb%2Fc.md': 'a/b/c', 'pages/v1.2 notes.md': 'v1.2 notes', 'pages/titled___page.md': 'Its own title' });
    // The chunks are headed by the page's name, which keyword search reads.
    expect(db.prepare("SELECT heading_path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = 'pages/a___b.md'").pluck().get()).toBe('a/b');
  });

  it('a config naming no format is :legacy, as in Logseq; the graph\'s pages/ imported alone is still its', async () => {
    notes.write('logseq/config.edn', '{:meta/version 1}\n');
    pages();
    expect(await titles(notes.path('pages'))).toMatchObject({ 'a___b.md': 'a___b', 'a%2Fb%2Fc.md': 'a/b/c', 'v1.2 notes.md': 'v1/2 notes' });
  });

  it('a folder that is no Logseq graph keeps its file names as they are', async () => {
    pages();
    expect(await titles()).toMatchObject({ 'pages/a___b.md': 'a___b', 'pages/a%2Fb%2Fc.md': 'a%2Fb%2Fc', 'pages/v1.2 notes.md': 'v1.2 notes' });
  });

  it('a graph imported before is cut again once, its pages renamed', async () => {
    pages();
    expect((await titles())['pages/a___b.md']).toBe('a___b');
    notes.write('logseq/config.edn', '{:file/name-format :triple-lowbar}\n');
    expect((await titles())['pages/a___b.md']).toBe('a/b');
  });
});
