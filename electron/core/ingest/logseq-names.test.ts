import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotesFolder, tempDbPath } from '../../../test/support/notes';
import { openDatabase, type Db } from '../db/open';
import { logseqPageName, logseqPageTitle } from './logseq-names';
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

describe("Logseq's journal pages, named by the graph's :journal/page-title-format", () => {
  const graph = (journalTitle: string) => ({ names: 'triple-lowbar' as const, journalTitle });
  it('reads a journal file name (yyyy_MM_dd, yyyy-MM-dd) as the date in the title format', () => {
    expect(logseqPageTitle('2024_01_15', graph('MMM do, yyyy'))).toBe('Jan 15th, 2024');
    expect(logseqPageTitle('2024-03-02', graph('MMM do, yyyy'))).toBe('Mar 2nd, 2024');
    expect(logseqPageTitle('2024_01_15', graph('EEEE, dd.MM.yyyy'))).toBe('Monday, 15.01.2024');
    expect(logseqPageTitle('2024_01_15', graph('EEE, MM/dd/yyyy'))).toBe('Mon, 01/15/2024');
    expect(logseqPageTitle('2023_12_23', graph('do MMMM yyyy'))).toBe('23rd December 2023');
    expect(logseqPageTitle('2024_01_11', graph('do MMM yy'))).toBe('11th Jan 24');
    expect(logseqPageTitle('2024_01_15', graph('yyyy年MM月dd日'))).toBe('2024年01月15日');
    expect(logseqPageTitle('2024_01_15', graph('yyyy-MM-dd'))).toBe('2024-01-15');
  });

  it('leaves names that are no date as they are', () => {
    expect(logseqPageTitle('2024_02_30', graph('MMM do, yyyy'))).toBe('2024_02_30');
    expect(logseqPageTitle('2024_01_15 notes', graph('MMM do, yyyy'))).toBe('2024_01_15 notes');
    expect(logseqPageTitle('Project___Atlas', graph('MMM do, yyyy'))).toBe('Project/Atlas');
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

  it("names journals by the graph's title format, and a page by its file even when it opens with a heading block, as Logseq does", async () => {
    notes.write('logseq/config.edn', '{:file/name-format :triple-lowbar\n :journal/page-title-format "EEE, MM/dd/yyyy"}\n');
    notes.write('journals/2024_01_15.md', '- Met Ana about the budget\n');
    notes.write('pages/Project___Atlas.md', '- # Goals\n- Ship the first map\n');
    notes.write('pages/Reading.org', '* Books to read\n** Dune\n');
    notes.write('pages/Queue.org', '#+TITLE: Reading queue\n\n* Next\n');
    notes.write('pages/Front.md', '---\ntitle: From front matter\n---\n- # A heading\n');
    expect(await titles()).toMatchObject({
      'journals/2024_01_15.md': 'Mon, 01/15/2024',
      'pages/Project___Atlas.md': 'Project/Atlas',
      'pages/Reading.org': 'Reading',
      'pages/Queue.org': 'Reading queue',
      'pages/Front.md': 'From front matter',
    });
  });

  it("a graph whose config names no journal title format has Logseq's default (MMM do, yyyy)", async () => {
    notes.write('logseq/config.edn', '{:meta/version 1\n ;; :journal/page-title-format "yyyy-MM-dd"\n}\n');
    notes.write('journals/2024_01_15.md', '- Met Ana\n');
    expect((await titles())['journals/2024_01_15.md']).toBe('Jan 15th, 2024');
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
