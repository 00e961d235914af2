import { describe, expect, it } from 'vitest';
import { QuireError } from '../../../../shared/errors';
import { zip } from '../../../../test/support/zip';
import { parseOutline } from '../chunkers/markdown';
import { readEpub } from './epub';
import { readerFor } from './index';
import { readOdt } from './odt';

async function codeOf(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    return e instanceof QuireError ? e.code : `not a QuireError: ${String(e)}`;
  }
}

const chapter = (title: string, body: string) => `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body>${body}</body></html>`;

const epub = () =>
  zip({
    mimetype: 'application/epub+zip',
    'META-INF/container.xml': '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    'OEBPS/content.opf': `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Field Guide</dc:title></metadata>
      <manifest><item id="c2" href="text/ch%202.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/><item id="cover" href="cover.jpg" media-type="image/jpeg"/><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/></manifest>
      <spine><itemref idref="c1"/><itemref idref="cover"/><itemref idref="c2"/><itemref idref="nav" linear="no"/></spine></package>`,
    'OEBPS/text/ch1.xhtml': chapter('Chapter 1', '<h1>Birds</h1><p>Herons nest in colonies.</p><h2>Waders</h2><p>Avocets sweep their bills.</p>'),
    'OEBPS/text/ch 2.xhtml': chapter('Chapter 2', '<h1>Trees</h1><p>Alders grow by water.</p>'),
    'OEBPS/nav.xhtml': chapter('Contents', '<nav><ol><li>Birds</li><li>Trees</li></ol></nav><p>NAVIGATION ONLY</p>'),
  });

describe('epub reader', () => {
  it('is the reader for .epub files', () => {
    expect(readerFor('books/Guide.EPUB')?.name).toBe('epub');
  });

  it('reads the chapters in their reading order, with their headings, under the book title', async () => {
    const read = await readEpub(epub());
    expect(read.title).toBe('The Field Guide');
    expect(read.text.indexOf('Herons nest')).toBeLessThan(read.text.indexOf('Alders grow'));
    expect(read.text).not.toContain('NAVIGATION ONLY');
    expect(parseOutline(read.text, read.title!).headings.map((h) => h.path.join(' > '))).toEqual(['The Field Guide > Birds', 'The Field Guide > Birds > Waders', 'The Field Guide > Trees']);
  });

  it('fails as a damaged file, with a sentence, when it is no zip or has no package file', async () => {
    expect(await codeOf(readEpub(new TextEncoder().encode('not a zip')))).toBe('CORRUPT_FILE');
    await expect(readEpub(new TextEncoder().encode('PK but no archive'))).rejects.toThrow(/^This EPUB book is damaged or incomplete \([^)]*\)\.$/);
    expect(await codeOf(readEpub(zip({ mimetype: 'application/epub+zip' })))).toBe('CORRUPT_FILE');
    await expect(readEpub(zip({ mimetype: 'application/epub+zip' }))).rejects.toThrow(/package file/);
  });
});

const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"><office:body><office:text>
<text:table-of-content><text:p>Budget ........ 1</text:p></text:table-of-content>
<text:h text:outline-level="1">Budget</text:h>
<text:p>Rent is due on the<text:s text:c="2"/>first.<office:annotation><text:p>check this</text:p></office:annotation></text:p>
<text:list><text:list-item><text:p>Water</text:p></text:list-item><text:list-item><text:p>Power</text:p></text:list-item></text:list>
<text:h text:outline-level="2">Costs</text:h>
<table:table><table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell><table:table-cell><text:p>Euro</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell><text:p>Rent</text:p><text:p>(monthly)</text:p></table:table-cell><table:table-cell><text:p>900</text:p></table:table-cell></table:table-row></table:table>
<text:p>Saved <draw:frame><draw:text-box><text:p>CHART LABEL</text:p></draw:text-box></draw:frame>every month.</text:p>
</office:text></office:body></office:document-content>`;

describe('odt reader', () => {
  it('is the reader for .odt files', () => {
    expect(readerFor('letters/Budget.ODT')?.name).toBe('odt');
  });

  it('reads headings, paragraphs, lists and tables as Markdown lines, without comments, frames or the table of contents', async () => {
    const read = await readOdt(zip({ mimetype: 'application/vnd.oasis.opendocument.text', 'content.xml': content, 'meta.xml': '<office:document-meta xmlns:office="o" xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta><dc:title>Household</dc:title></office:meta></office:document-meta>' }));
    expect(read.title).toBe('Household');
    expect(read.text.split('\n')).toEqual(['# Budget', '', 'Rent is due on the first.', '', '- Water', '- Power', '', '## Costs', '', 'Item | Euro', '', 'Rent (monthly) | 900', '', 'Saved every month.']);
  });

  it('takes the first heading for a title without metadata, and fails as a damaged file without content', async () => {
    const read = await readOdt(zip({ 'content.xml': content }));
    expect(read.title).toBe('Budget');
    expect(await codeOf(readOdt(zip({ 'styles.xml': '<x/>' })))).toBe('CORRUPT_FILE');
    expect(await codeOf(readOdt(new Uint8Array([1, 2, 3])))).toBe('CORRUPT_FILE');
  });
});
