import { describe, expect, it } from 'vitest';
import { QuireError } from '../../../../shared/errors';
import { docx } from '../../../../test/support/docx';
import { crc32, zip } from '../../../../test/support/zip';
import { docxReader } from './docx';
import { htmlReader } from './html';
import { readerFor } from './index';

async function codeOf(fn: () => unknown): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (e) {
    return e instanceof QuireError ? e.code : `not a QuireError: ${String(e)}`;
  }
}

describe('reader registry', () => {
  it.each([
    ['report.docx', 'docx'],
    ['REPORT.DOCX', 'docx'],
    ['page.html', 'html'],
    ['page.HTM', 'html'],
    ['old.doc', null],
  ])('%s → %s', (file, reader) => {
    expect(readerFor(file)?.name ?? null).toBe(reader);
  });
});

describe('test zip writer', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });
});

describe('docx reader', () => {
  it('keeps headings as the heading path, the table as rows, the list as lines, and skips images', async () => {
    const r = await docxReader.read(
      docx([
        { heading: 1, text: 'Key rotation' },
        { text: 'Keys rotate every quarter & on demand.' },
        { image: 'diagram of zebrafish' },
        { heading: 2, text: 'Schedule' },
        { table: [['Key', 'Period'], ['signing', 'quarterly']] },
        { bullet: 'first step' },
        { bullet: 'second step' },
      ]),
    );
    expect(r.title).toBe('Key rotation');
    expect(r.firstLine).toBe(1);
    expect(r.text).toBe('# Key rotation\n\nKeys rotate every quarter & on demand.\n\n## Schedule\n\nKey | Period\nsigning | quarterly\n\n- first step\n- second step');
    expect(r.text).not.toMatch(/zebrafish|data:|base64/);
  });

  it("takes Word's Title paragraph as the title, and has none without a heading", async () => {
    expect((await docxReader.read(docx([{ title: 'Handbook' }, { heading: 1, text: 'Intro' }]))).title).toBe('Handbook');
    expect((await docxReader.read(docx([{ text: 'Just text.' }]))).title).toBeNull();
  });

  it('reports a damaged file as CORRUPT_FILE, whatever is wrong with it', async () => {
    const valid = docx([{ text: 'Hello' }]);
    expect(await codeOf(() => docxReader.read(new TextEncoder().encode('plain text named .docx')))).toBe('CORRUPT_FILE');
    expect(await codeOf(() => docxReader.read(valid.subarray(0, valid.length / 2)))).toBe('CORRUPT_FILE'); // truncated
    expect(await codeOf(() => docxReader.read(zip({ 'hello.txt': 'no word/document.xml here' })))).toBe('CORRUPT_FILE');
    expect(await codeOf(() => docxReader.read(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])))).toBe('CORRUPT_FILE'); // .doc / encrypted
    await expect(docxReader.read(zip({ 'hello.txt': 'x' }))).rejects.toThrow(/main document part/);
  });
});

describe('html reader', () => {
  const utf8 = (s: string) => new TextEncoder().encode(s);

  it('reads a page: title, headings, entities; scripts and navigation gone', () => {
    const r = htmlReader.read(utf8('<!doctype html><title>Tea</title><script>let zq = 1</script><nav>Menu</nav><h1>Tea</h1><p>Caf&eacute; &amp; tea</p>'));
    expect(r).toEqual({ text: '# Tea\n\nCafé & tea', title: 'Tea', firstLine: 1 });
  });

  it('decodes a page in the charset its <meta> declares', () => {
    const latin1 = Buffer.from('<meta charset="windows-1252"><p>Caf\xe9 cr\xe8me \x80 \x93quoted\x94</p>', 'latin1');
    expect(htmlReader.read(latin1).text).toBe('Café crème € “quoted”');
    const httpEquiv = Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><p>na\xefve</p>', 'latin1');
    expect(htmlReader.read(httpEquiv).text).toBe('naïve');
  });

  it('refuses undeclared non-UTF-8 bytes and binary content, as for other text', async () => {
    expect(await codeOf(() => htmlReader.read(Buffer.from('<p>Caf\xe9</p>', 'latin1')))).toBe('UNDECODABLE_TEXT');
    expect(await codeOf(() => htmlReader.read(new Uint8Array([0x3c, 0x70, 0x3e, 0, 0])))).toBe('BINARY_FILE');
  });
});
