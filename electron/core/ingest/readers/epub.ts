import path from 'node:path';
import { QuireError } from '../../../../shared/errors';
import { htmlToText } from './html-text';
import type { ReaderModule, ReadResult } from './types';
import { firstElementText, openZip, partText, walkXml } from './zip-parts';

export const epubReader = {
  name: 'epub',
  read(bytes) {
    return readEpub(bytes);
  },
} satisfies ReaderModule;

/**
 * An EPUB book read in its reading order: the package file (named by META-INF/container.xml) lists
 * the chapters (its spine), each an XHTML page that goes through the one HTML→text conversion
 * (html-text.ts), so chapter headings make the heading path. The title is the book's `dc:title`.
 * Images, styles and fonts are never read. Lines, as for Word and HTML, count lines of the text.
 */
export async function readEpub(bytes: Uint8Array): Promise<ReadResult> {
  const zip = await openZip(bytes, { a: 'an EPUB book', this: 'This EPUB book' });
  const container = await partText(zip, 'META-INF/container.xml');
  let opfPath: string | null = null;
  if (container !== null) walkXml(container, { open: (name, attrs) => void (name === 'rootfile' && attrs['full-path'] ? (opfPath ??= attrs['full-path']) : null) });
  const opf = opfPath ? await partText(zip, opfPath) : null;
  if (opfPath === null || opf === null) throw new QuireError('CORRUPT_FILE', 'The EPUB book has no package file (META-INF/container.xml names none that exists), so its chapters cannot be found.');

  const manifest = new Map<string, { href: string; type: string }>();
  const spine: string[] = [];
  walkXml(opf, {
    open: (name, attrs) => {
      if (name === 'item' && attrs.id && attrs.href) manifest.set(attrs.id, { href: attrs.href, type: attrs['media-type'] ?? '' });
      else if (name === 'itemref' && attrs.idref && attrs.linear !== 'no') spine.push(attrs.idref);
    },
  });

  const base = path.posix.dirname(opfPath);
  const chapters: string[] = [];
  let firstTitle: string | null = null;
  for (const id of spine) {
    const item = manifest.get(id);
    if (!item || !/html/i.test(item.type)) continue;
    const href = decodeURIComponent(item.href.split('#')[0]!);
    const page = await partText(zip, path.posix.normalize(path.posix.join(base, href)));
    if (page === null) continue;
    const read = htmlToText(page);
    firstTitle ??= read.title;
    if (read.text.trim() !== '') chapters.push(read.text.trim());
  }
  if (chapters.length === 0) throw new QuireError('CORRUPT_FILE', 'The EPUB book has no chapter with text in its reading order.');
  return { text: chapters.join('\n\n'), title: firstElementText(opf, 'dc:title') || firstTitle, firstLine: 1 };
}
