import { describe, expect, it } from 'vitest';
import { QuireError } from '../../../../shared/errors';
import { makePdf, truncatedPdf, type PdfSpec } from '../../../../test/support/pdf';
import { chunkDocument } from '../chunkers/index';
import { pagesOfLines } from '../pages';
import { layLines, type TextPiece } from './pdf-layout';
import { readPdf } from './pdf';

const GUIDE: PdfSpec = {
  title: 'Field guide',
  pages: [
    [{ text: 'Herons', size: 20 }, 'The grey heron stands still in the reeds.', 'It waits for fish at dawn.', { text: 'Nesting', size: 15 }, 'Herons nest in colonies called heronries.'],
    [{ text: 'Ferns', size: 20 }, '# Bracken is not a heading here.', 'Bracken spreads by rhizomes (underground stems).'],
    [],
    ['Index of plates, last page.'],
  ],
};

async function codeOf(bytes: Uint8Array): Promise<string | null> {
  try {
    await readPdf(bytes);
    return null;
  } catch (e) {
    return e instanceof QuireError ? e.code : `not a QuireError: ${String(e)}`;
  }
}

describe('pdf reader', () => {
  it('reads the text of each page, in order, and where each page starts', async () => {
    const r = await readPdf(makePdf(GUIDE));
    const lines = r.text.split('\n');
    const pageOf = (needle: string) => pagesOfLines(r.pages, lines.findIndex((l) => l.includes(needle)) + 1, 1)![0];
    expect(r.firstLine).toBe(1);
    expect(r.pages).toHaveLength(4);
    expect(pageOf('grey heron')).toBe(1);
    expect(pageOf('heronries')).toBe(1);
    expect(pageOf('rhizomes')).toBe(2);
    // Page 3 is empty: it starts where page 4 does, and every line goes to page 4.
    expect(r.pages![2]).toBe(r.pages![3]);
    expect(pageOf('Index of plates')).toBe(4);
    expect(r.text).toContain('Bracken spreads by rhizomes (underground stems).');
  });

  it('takes the title from the metadata, else the first top-level heading', async () => {
    expect((await readPdf(makePdf(GUIDE))).title).toBe('Field guide');
    expect((await readPdf(makePdf({ pages: GUIDE.pages }))).title).toBe('Herons');
    expect((await readPdf(makePdf({ pages: [['Only body text here.']] }))).title).toBeNull();
  });

  it('makes headings of lines set larger than the body, largest first; escapes a body line that looks like one', async () => {
    const lines = (await readPdf(makePdf(GUIDE))).text.split('\n');
    expect(lines).toContain('# Herons');
    expect(lines).toContain('## Nesting');
    expect(lines).toContain('# Ferns');
    expect(lines).toContain('\\# Bracken is not a heading here.');
    expect(lines.filter((l) => /^#/.test(l))).toHaveLength(3);
  });

  it('prefers the outline, when its titles name lines, to font sizes', async () => {
    const r = await readPdf(makePdf({ ...GUIDE, outline: [{ title: 'Ferns', page: 2 }, { title: 'Nesting', page: 1 }] }));
    const headings = r.text.split('\n').filter((l) => /^#/.test(l));
    expect(headings).toEqual(['# Nesting', '# Ferns']);
  });

  it('gives chunks the pages their lines fall on', async () => {
    const r = await readPdf(makePdf(GUIDE));
    const chunks = chunkDocument({ text: r.text, title: r.title!, firstLine: r.firstLine }, { kind: 'heading', maxTokens: 24 });
    const withPages = chunks.map((c) => ({ text: c.text.split('\n')[0], pages: pagesOfLines(r.pages, c.startLine, c.endLine) }));
    expect(withPages).toContainEqual({ text: '# Herons', pages: [1, 1] });
    expect(withPages).toContainEqual({ text: '# Ferns', pages: [2, 2] });
    expect(withPages.at(-1)).toMatchObject({ pages: [4, 4] });
    expect(pagesOfLines(undefined, 1, 5)).toBeNull();
  });

  it('reports a PDF without any text as no-text-layer, a locked one as password-protected, a broken one as corrupt', async () => {
    expect(await codeOf(makePdf({ pages: [[], []] }))).toBe('NO_TEXT_LAYER');
    expect(await codeOf(makePdf({ ...GUIDE, userPassword: 'heron' }))).toBe('PASSWORD_PROTECTED');
    expect(await codeOf(truncatedPdf(GUIDE))).toBe('CORRUPT_FILE');
    expect(await codeOf(new TextEncoder().encode('%PDF-1.4\nnot really\n'))).toBe('CORRUPT_FILE');
    expect(await codeOf(new Uint8Array())).toBe('CORRUPT_FILE');
  });

  it("words a broken PDF's reason as one sentence: pdfjs's own full stop is not kept inside the brackets", async () => {
    const error = await readPdf(new TextEncoder().encode('%PDF-1.4 garbage')).then(
      () => null,
      (e: unknown) => e as QuireError,
    );
    expect(error?.code).toBe('CORRUPT_FILE');
    expect(error?.message).toMatch(/^The file is not a readable PDF \([^)]*[^.]\)\.$/);
  });

  it('leaves the bytes it was given intact (pdfjs detaches what it is handed)', async () => {
    const bytes = makePdf(GUIDE);
    const before = bytes.length;
    await readPdf(bytes);
    expect(bytes.length).toBe(before);
  });
});

describe('pdf line layout', () => {
  const piece = (str: string, x: number, y: number, over: Partial<TextPiece> = {}): TextPiece => ({ str, transform: [11, 0, 0, 11, x, y], width: str.length * 5, height: 11, hasEOL: false, ...over });

  it('joins pieces on one baseline, with a space only where the page leaves a gap', () => {
    const lines = layLines([piece('The', 72, 700), piece('heron', 100, 700), piece('s', 125, 700), piece('next line', 72, 685)]);
    expect(lines.map((l) => l.text)).toEqual(['The herons', 'next line']);
  });

  it('breaks after an end-of-line mark, marks a paragraph gap, and drops control characters', () => {
    const lines = layLines([piece('one', 72, 700, { hasEOL: true }), piece('two', 90, 700), piece('thr\u0000ee', 72, 650)]);
    expect(lines).toEqual([
      { text: 'one', size: 11, gapBefore: false },
      { text: 'two', size: 11, gapBefore: false },
      { text: 'thr ee', size: 11, gapBefore: true },
    ]);
  });
});
