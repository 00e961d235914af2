import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openableSourceFile } from '../electron/core/api/source-file';
import { libraryDocuments } from '../electron/core/api/views';
import { openDatabase, type Db } from '../electron/core/db/open';
import { importFolder } from '../electron/core/ingest/pipeline';
import { search } from '../electron/core/retrieve/search';
import { docx } from './support/docx';
import { NotesFolder } from './support/notes';

/**
 * DOCX and HTML through the whole import: what is indexed (and what is not), the heading paths
 * citations show, and a damaged Word file failing alone. Fixtures are built here.
 */
let notes: NotesFolder;
let db: Db;
beforeEach(() => {
  notes = new NotesFolder();
  db = openDatabase(':memory:');
});
afterEach(() => {
  db.close();
  notes.dispose();
});

const PAGE = `<!doctype html>
<html><head><title>Brewing &amp; steeping</title>
<style>.xylostyle { color: red }</style>
<script>const quokkascript = "only in a script";</script></head>
<body><header><nav><a href="/">Home</a> <a href="/menu">Navwombat menu</a></nav></header>
<main><h1>Brewing</h1>
<p>Water at 95&nbsp;&deg;C for the caf&eacute; cr&egrave;me &mdash; &lt;never&gt; boiling.</p>
<h2>Oolong</h2><p>Oolong leaves unfurl slowly.</p>
<noscript>Noscriptnumbat fallback</noscript></main>
<footer>Footerpangolin copyright</footer></body></html>`;

function writeFixtures() {
  notes.write(
    'handbook.docx',
    docx([
      { title: 'Operations handbook' },
      { heading: 1, text: 'Key rotation' },
      { text: 'Signing keys rotate every quarter, and archival keys are rotated by hand after each audit of the vault.' },
      { image: 'a zebrafish diagram' },
      { heading: 2, text: 'Schedule' },
      { table: [['Key', 'Period'], ['signing', 'quarterly'], ['archival', 'biennially']] },
      { heading: 1, text: 'Incidents' },
      { bullet: 'Page the on-call engineer' },
    ]),
  );
  notes.write('tea.html', PAGE);
  notes.write('broken.docx', docx([{ text: 'Half a document' }]).subarray(0, 200));
  notes.write('plain.md', '# Plain\n\nA markdown note beside them.\n');
}

/** Chunks small enough that each section is its own chunk, so each carries its exact heading path. */
const importNotes = () => importFolder(db, notes.root, { embedding: null, chunker: { kind: 'heading', maxTokens: 24 } });
const chunksOf = (relPath: string) =>
  db.prepare('SELECT c.heading_path, c.text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = ? ORDER BY c.ordinal').all(relPath) as Array<{ heading_path: string; text: string }>;
const find = async (query: string) => (await search(db, query, { mode: 'lexical', gateway: null })).results;

describe('importing DOCX and HTML', () => {
  it('indexes both beside Markdown, and a damaged DOCX fails alone with CORRUPT_FILE', async () => {
    writeFixtures();
    const report = await importNotes();
    expect(report.documents).toMatchObject({ added: 3, failed: 1, skipped: 0 });
    expect(report.indexedByType).toEqual({ markdown: 1, docx: 1, html: 1 });
    expect(report.errors).toEqual([{ path: 'broken.docx', code: 'CORRUPT_FILE', message: expect.stringMatching(/damaged|not a \.docx/) }]);
    expect(db.prepare("SELECT status, status_code FROM documents WHERE rel_path = 'broken.docx'").get()).toEqual({ status: 'error', status_code: 'CORRUPT_FILE' });

    const again = await importNotes();
    expect(again.documents).toMatchObject({ added: 0, updated: 0, unchanged: 3, failed: 1 });
  });

  it('keeps the DOCX headings as heading paths, its table as searchable rows, and skips its images', async () => {
    writeFixtures();
    await importNotes();
    expect(db.prepare("SELECT title FROM documents WHERE rel_path = 'handbook.docx'").pluck().get()).toBe('Operations handbook');
    const chunks = chunksOf('handbook.docx');
    expect(chunks.map((c) => c.heading_path)).toEqual(
      expect.arrayContaining(['Operations handbook > Key rotation', 'Operations handbook > Key rotation > Schedule', 'Operations handbook > Incidents']),
    );
    const all = chunks.map((c) => c.text).join('\n');
    expect(all).toContain('archival | biennially');
    expect(all).toContain('- Page the on-call engineer');
    expect(all).not.toMatch(/zebrafish|data:image|base64/);

    const [hit] = await find('biennially');
    expect(hit).toMatchObject({ path: 'handbook.docx', heading: 'Operations handbook > Key rotation > Schedule' });
    expect(await find('zebrafish')).toEqual([]);
  });

  it('indexes a page without its scripts, styles and navigation, with entities decoded and headings kept', async () => {
    writeFixtures();
    await importNotes();
    expect(db.prepare("SELECT title FROM documents WHERE rel_path = 'tea.html'").pluck().get()).toBe('Brewing & steeping');
    for (const word of ['quokkascript', 'xylostyle', 'navwombat', 'noscriptnumbat', 'footerpangolin']) expect(await find(word), word).toEqual([]);

    const chunks = chunksOf('tea.html');
    expect(chunks.map((c) => c.text).join(' ').replace(/\s+/g, ' ')).toContain('Water at 95 °C for the café crème — <never> boiling.');
    const [hit] = await find('unfurl');
    expect(hit).toMatchObject({ path: 'tea.html', heading: 'Brewing & steeping > Brewing > Oolong' });
    expect((await find('café'))[0]?.path).toBe('tea.html');
  });

  it('lists each document with its type, and opens the Word and HTML files it read', async () => {
    writeFixtures();
    await importNotes();
    const collectionId = db.prepare('SELECT id FROM collections').pluck().get() as string;
    const types = Object.fromEntries(libraryDocuments(db, collectionId).map((d) => [d.relPath, d.type]));
    expect(types).toEqual({ 'broken.docx': 'docx', 'handbook.docx': 'docx', 'plain.md': 'markdown', 'tea.html': 'html' });
    expect(openableSourceFile(notes.root, 'handbook.docx')).toBe(fs.realpathSync(notes.path('handbook.docx')));
    expect(openableSourceFile(notes.root, 'tea.html')).toBe(fs.realpathSync(notes.path('tea.html')));
  });
});
