import { describe, expect, it } from 'vitest';
import { QuireError } from '../../../../shared/errors';
import { decodeText } from './decode';
import { readerFor } from './index';
import { markdownReader, parseMarkdown } from './markdown';
import { textReader } from './text';

const utf8 = (s: string) => new TextEncoder().encode(s);

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof QuireError ? e.code : `not a QuireError: ${String(e)}`;
  }
}

describe('reader registry', () => {
  it.each([
    ['notes/a.md', 'markdown'],
    ['A.MARKDOWN', 'markdown'],
    ['b.txt', 'text'],
    ['c.pdf', null],
    ['image.svg', null],
    ['Makefile', null],
  ])('%s → %s', (file, reader) => {
    expect(readerFor(file)?.name ?? null).toBe(reader);
  });
});

describe('decodeText', () => {
  it('strips a UTF-8 BOM', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('héllo')]))).toBe('héllo');
  });

  it('decodes UTF-16 LE and BE with BOMs', () => {
    const le = Buffer.from('\ufeffzwölf\nlines', 'utf16le');
    expect(decodeText(le)).toBe('zwölf\nlines');
    const be = Buffer.from(le).swap16();
    expect(decodeText(be)).toBe('zwölf\nlines');
  });

  it('normalises CRLF and lone CR to LF', () => {
    expect(decodeText(utf8('a\r\nb\rc\n'))).toBe('a\nb\nc\n');
  });

  it('refuses NUL bytes as binary', () => {
    expect(codeOf(() => decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0])))).toBe('BINARY_FILE');
    expect(codeOf(() => decodeText(utf8('text\u0000more')))).toBe('BINARY_FILE');
  });

  it('refuses invalid UTF-8 instead of inserting U+FFFD, and says where', () => {
    const bytes = new Uint8Array([...utf8('caf'), 0xe9, ...utf8(' au lait')]); // Latin-1 é
    expect(codeOf(() => decodeText(bytes))).toBe('UNDECODABLE_TEXT');
    expect(() => decodeText(bytes)).toThrow(/offset 3/);
  });

  it('refuses a UTF-16 BOM followed by an odd number of bytes', () => {
    expect(codeOf(() => decodeText(new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x42])))).toBe('UNDECODABLE_TEXT');
  });
});

describe('markdown reader', () => {
  it('strips YAML front matter, uses its title, and keeps the body line offset', () => {
    const r = parseMarkdown('---\ntitle: "Key rotation"\ntags: [ops]\n---\n# Something else\nBody line\n');
    expect(r.title).toBe('Key rotation');
    expect(r.firstLine).toBe(5);
    expect(r.text.split('\n')[0]).toBe('# Something else');
  });

  it('handles TOML front matter and single-quoted titles', () => {
    const r = parseMarkdown("+++\ntitle = 'It''s here'\n+++\nbody");
    expect(r.title).toBe("It's here");
    expect(r.text).toBe('body');
    expect(r.firstLine).toBe(4);
  });

  it('takes the first H1 outside code fences when there is no front matter title', () => {
    const r = parseMarkdown('```\n# not a title\n```\n\n# Real *Title*\n');
    expect(r.title).toBe('Real Title');
    expect(r.firstLine).toBe(1);
  });

  it('leaves an unclosed front matter block as body text', () => {
    const r = parseMarkdown('---\ntitle: x\nno end');
    expect(r.title).toBeNull();
    expect(r.text).toBe('---\ntitle: x\nno end');
  });

  it('reads bytes through the strict decoder', () => {
    expect(markdownReader.read(utf8('\ufeff# T\r\nx')).text).toBe('# T\nx');
    expect(codeOf(() => markdownReader.read(new Uint8Array([0x23, 0x20, 0xff])))).toBe('UNDECODABLE_TEXT');
  });
});

describe('text reader', () => {
  it('has no title of its own', () => {
    expect(textReader.read(utf8('hello'))).toEqual({ text: 'hello', title: null, firstLine: 1 });
  });
});
