import { QuireError } from '../../../../shared/errors';
import { headingKey, headingsBySize, headingsFromOutline, layLines, pageText, type LaidLine, type OutlineEntry, type TextPiece } from './pdf-layout';
import type { ReaderModule, ReadResult } from './types';
import { collapseWhitespace } from '../../text/normalise';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

// pdfjs is large and ESM-only: loaded on the first PDF, by dynamic import (which the CommonJS
// bundle of Electron's main keeps as an import). Its legacy build runs in Node without a worker
// thread (a "fake worker" in this thread).
let pdfjs: Promise<PdfJs> | null = null;
const loadPdfJs = () => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

export const pdfReader = {
  name: 'pdf',
  read: readPdf,
} satisfies ReaderModule;

/**
 * Text per page, lines rebuilt from positioned text, headings from the outline or else from font
 * sizes, and `pages`: where each page starts. A PDF Quire cannot read fails with a code saying why
 * (NO_TEXT_LAYER, PASSWORD_PROTECTED, CORRUPT_FILE), for that file alone.
 */
export async function readPdf(bytes: Uint8Array): Promise<ReadResult> {
  const lib = await loadPdfJs();
  const task = lib.getDocument({
    // A copy: pdfjs takes ownership of (and may detach) the buffer it is given.
    data: new Uint8Array(bytes),
    // Nothing a document carries may run or reach out: no eval of its functions, no font loading,
    // no system fonts, no fetches of font or CMap data, no XFA; errors stop the parse rather than
    // being patched over.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    enableXfa: false,
    stopAtErrors: true,
    verbosity: lib.VerbosityLevel.ERRORS,
  });
  try {
    const doc = await task.promise.catch((e: unknown) => {
      throw openError(e);
    });
    const pages: LaidLine[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(layLines(content.items.filter((i) => 'str' in i) as TextPiece[]));
      page.cleanup();
    }
    if (pages.every((p) => p.length === 0)) {
      throw new QuireError('NO_TEXT_LAYER', `None of its ${doc.numPages} page${doc.numPages === 1 ? ' has' : 's have'} a text layer (a scan or images only); Quire does not read text in images.`);
    }
    const fromOutline = headingsFromOutline(pages, await outlineOf(doc));
    const levels = fromOutline.size > 0 ? fromOutline : headingsBySize(pages);
    const { firstHeading, ...read } = assemble(pages, levels);
    return { ...read, title: (await metadataTitle(doc)) ?? firstHeading };
  } catch (e) {
    if (e instanceof QuireError) throw e;
    throw new QuireError('CORRUPT_FILE', `The PDF is damaged and cannot be read (${messageOf(e)}).`, { cause: e });
  } finally {
    await task.destroy();
  }
}

/** Joins the pages, each after a blank line, and records the line each one starts on. */
function assemble(pages: readonly LaidLine[][], levels: Map<string, number>): Omit<ReadResult, 'title'> & { firstHeading: string | null } {
  const lines: string[] = [];
  const starts: number[] = [];
  let firstHeading: string | null = null;
  pages.forEach((page, p) => {
    const text = pageText(page, (i) => levels.get(headingKey(p, i)));
    // An empty page starts where the next text would: a line reference then falls on the later page.
    starts.push(lines.length + (lines.length > 0 ? 2 : 1));
    if (text.length === 0) return;
    if (lines.length > 0) lines.push('');
    lines.push(...text);
    firstHeading ??= text.find((l) => l.startsWith('# '))?.slice(2) ?? null;
  });
  return { text: lines.join('\n'), firstLine: 1, pages: starts, firstHeading };
}

async function metadataTitle(doc: PdfDocument): Promise<string | null> {
  const { info } = await doc.getMetadata().catch(() => ({ info: null }));
  const title = (info as { Title?: unknown } | null)?.Title;
  return typeof title === 'string' && title.trim().length > 0 ? collapseWhitespace(title) : null;
}

/** The outline flattened in reading order, each entry's target resolved to a page index when it can be. */
async function outlineOf(doc: PdfDocument): Promise<OutlineEntry[]> {
  const outline = await doc.getOutline().catch(() => null);
  const entries: OutlineEntry[] = [];
  type Item = NonNullable<typeof outline>[number];
  const walk = async (items: readonly Item[], depth: number) => {
    for (const item of items) {
      entries.push({ title: item.title, depth, page: await pageOfDest(doc, item.dest) });
      // Deep outlines add nothing the three heading levels can show.
      if (depth < 2) await walk(item.items, depth + 1);
    }
  };
  await walk(outline ?? [], 0);
  return entries;
}

async function pageOfDest(doc: PdfDocument, dest: string | unknown[] | null): Promise<number | null> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    const ref = explicit?.[0];
    if (typeof ref === 'number') return ref;
    if (ref && typeof ref === 'object') return await doc.getPageIndex(ref as { num: number; gen: number });
  } catch {
    // An outline entry pointing nowhere is still a title; it is matched on any page.
  }
  return null;
}

/** pdfjs's exceptions by name: a password wanted (or wrong), or a file that is not a PDF at all. */
function openError(e: unknown): QuireError {
  const name = e instanceof Error ? e.name : '';
  if (name === 'PasswordException') return new QuireError('PASSWORD_PROTECTED', 'The PDF is protected by a password, so Quire cannot read its text. Save an unprotected copy to index it.', { cause: e });
  return new QuireError('CORRUPT_FILE', `The file is not a readable PDF (${messageOf(e).replace(/\.+$/, '')}).`, { cause: e });
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
