import { describe, expect, it } from 'vitest';
import { QuireError } from '../../../../shared/errors';
import { decodeText } from './decode';
import { DOCUMENT_TYPES } from '../../../../shared/contract';
import { skipReason } from '../../../../shared/skip-reasons';
import { readerFor, supportedExtensions } from './index';
import { markdownReader, parseMarkdown } from './markdown';
import { textReader } from './text';
import { chunkDocument } from '../chunkers/index';
import { parseOutline } from '../chunkers/markdown';

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
    ['c.pdf', 'pdf'],
    ['Scan.PDF', 'pdf'],
    ['image.svg', null],
    ['Makefile', null],
  ])('%s → %s', (file, reader) => {
    expect(readerFor(file)?.name ?? null).toBe(reader);
  });

  it('names each type the contract lists, and the skip reason names each extension read', () => {
    const names = new Set(supportedExtensions().map((ext) => readerFor(`x${ext}`)!.name));
    expect([...names].sort()).toEqual([...DOCUMENT_TYPES].sort());
    for (const ext of supportedExtensions()) expect(skipReason('unsupported-type')).toMatch(new RegExp(`\\${ext}[,)]`));
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
    const r = parseMarkdown('---\ntitle: "Key rotation"\ndate: 2026-01-02\n---\n# Something else\nBody line\n');
    expect(r.title).toBe('Key rotation');
    expect(r.firstLine).toBe(5);
    expect(r.text.split('\n')[0]).toBe('# Something else');
  });

  it("reads front matter's aliases and tags as text on their own lines, in every form YAML and Obsidian write them", () => {
    const source = [
      '---',
      'title: October budget meeting',
      'date: 2026-10-14',
      'aliases: [Q4 Budget Review, "budget, oct"]',
      'attendees: [Marta, Jonas]',
      'tags:',
      '  - meeting',
      '  - "#finance/q4"',
      'cssclass: wide',
      '---',
      '## Decisions',
      'Cut travel by 30%.',
    ].join('\n');
    const r = parseMarkdown(source);
    expect(r.title).toBe('October budget meeting');
    expect(r.firstLine).toBe(4);
    const lines = r.text.split('\n');
    expect(lines).toEqual(['Aliases: Q4 Budget Review, budget, oct', '', 'Tags: meeting, finance/q4', '', '', '', '', '## Decisions', 'Cut travel by 30%.']);
    // Each line stays where it is in the file: line firstLine + i of the text is line firstLine + i of the file.
    expect(lines.indexOf('## Decisions') + r.firstLine).toBe(11);
    expect(r.text).not.toMatch(/Marta|2026-10-14|wide/);
    expect(parseMarkdown('---\nalias: Atlas\ntag: project, #active\n---\nBody').text).toBe('Aliases: Atlas\nTags: project, active\n\nBody');
    expect(parseMarkdown('+++\ntags = ["ops", "k8s"]\n+++\nbody').text).toBe('Tags: ops, k8s\n\nbody');
    // Hugo's aliases are the page's old addresses: not words to find it by.
    expect(parseMarkdown('---\naliases: ["/posts/old-name/", "https://x.org/a"]\n---\nBody').text).toBe('Body');
  });

  it("takes a Logseq page's title:: property, among the properties at its top, for its title", () => {
    expect(parseMarkdown('title:: Project/Atlas\nalias:: Atlas\n\n- First block\n').title).toBe('Project/Atlas');
    expect(parseMarkdown('tags:: home\ntitle:: Kitchen tap\n- Plumber comes Tuesday\n').title).toBe('Kitchen tap');
    // Only at the top: a title:: further down is a block's property, and a heading still names the page.
    expect(parseMarkdown('# Repairs\n\n- fix it\n  title:: not the page\n').title).toBe('Repairs');
  });

  it('gives a note of front matter alone its aliases and tags to find it by', () => {
    const r = parseMarkdown("---\ntitle: Ideas for Marta's farewell\ntags: [todo, gifts]\ncreated: 2026-11-01\n---\n");
    expect(r.title).toBe("Ideas for Marta's farewell");
    expect(r.text.trim()).toBe('Tags: todo, gifts');
    expect(r.firstLine).toBe(3);
    expect(parseMarkdown('---\ntags: []\naliases:\n---\nBody').text).toBe('Body');
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

  it('reads as CommonMark: setext headings become ATX, an indented `#` line stays code, and every line keeps its number', () => {
    const source = 'Overview\n========\n\nIntro text.\n\nDetails\n-------\n\n    # not a heading, code\n\n~~~\n# nor this\n~~~\n';
    const r = parseMarkdown(source);
    expect(r.text.split('\n')).toHaveLength(source.split('\n').length);
    expect(r.text.split('\n').slice(0, 2)).toEqual(['# Overview', '']);
    expect(r.text.split('\n').slice(5, 7)).toEqual(['## Details', '']);
    expect(r.text).toContain('    # not a heading, code');
    expect(r.title).toBe('Overview');
    expect(parseOutline(r.text, r.title!).headings.map((h) => h.path.join(' > '))).toEqual(['Overview', 'Overview > Details']);
    const chunks = chunkDocument({ text: r.text, title: r.title!, firstLine: r.firstLine }, { kind: 'heading', maxTokens: 16 });
    const code = chunks.find((c) => c.text.includes('not a heading'))!;
    expect(code.startLine).toBeLessThanOrEqual(9);
    expect(code.endLine).toBeGreaterThanOrEqual(9);
    expect(chunks.find((c) => c.text.startsWith('## Details'))!.startLine).toBe(6);
  });

  it('removes HTML comments, anchors and wrappers from the text, keeps their words and code spans, and keeps line numbers', () => {
    const source = [
      'See the [Data Types][types]<!-- ignore --> section and [Methods][m]<!--',
      'ignore --> too.',
      '',
      '<!-- Old headings. Do not remove or links may break. -->',
      '<a id="ways-variables-and-data-interact-move"></a>',
      '',
      '<span class="caption">Figure 4-1: A `String` holding `"hello"`</span>',
      '',
      'Write `<span>` or `Box<T>` in code; <kbd>Ctrl</kbd>-<kbd>C</kbd> stops it.',
      '',
      '<Listing number="4-1" caption="A variable and the scope in which it is valid">',
      '',
      '```rust',
      'let s = "<b>not html</b>"; // <!-- not a comment -->',
      '```',
      '',
      '</Listing>',
      '',
      '| Key | Meaning |',
      '|-----|---------|',
      '| <kbd>q</kbd> | quit |',
      '',
    ].join('\n');
    const r = parseMarkdown(source);
    const lines = r.text.split('\n');
    expect(lines).toHaveLength(source.split('\n').length);
    expect(lines[0]).toBe('See the [Data Types][types] section and [Methods][m]');
    expect(lines[1]).toBe(' too.');
    expect(lines[3]!.trim()).toBe('');
    expect(lines[4]!.trim()).toBe('');
    expect(lines[6]).toBe('Figure 4-1: A `String` holding `"hello"`');
    expect(lines[8]).toBe('Write `<span>` or `Box<T>` in code; Ctrl-C stops it.');
    expect(lines[10]).toBe('A variable and the scope in which it is valid');
    expect(lines[13]).toBe('let s = "<b>not html</b>"; // <!-- not a comment -->');
    expect(lines[16]!.trim()).toBe('');
    expect(lines[20]).toBe('| q | quit |');
    expect(r.text).not.toMatch(/<!--(?! not a comment)|<a id|<span class|<kbd>|<Listing|<\/Listing>/);
  });

  it('falls back to the first heading of any level for the title, and does not repeat it in heading paths', () => {
    const r = parseMarkdown('## What Is `Ownership`?\n\nOwnership rules.\n\n### The Stack\n\nPushing and popping.\n');
    expect(r.title).toBe('What Is Ownership?');
    expect(parseOutline(r.text, r.title!).headings.map((h) => h.path.join(' > '))).toEqual(['What Is Ownership?', 'What Is Ownership? > The Stack']);
    // No heading at all: the pipeline falls back to the file name.
    expect(parseMarkdown('Just text.\n').title).toBeNull();
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
