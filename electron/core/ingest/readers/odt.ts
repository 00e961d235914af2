import { QuireError } from '../../../../shared/errors';
import { collapseWhitespace } from '../../text/normalise';
import { atxHeading } from './markdown-lines';
import type { ReaderModule, ReadResult } from './types';
import { firstElementText, openZip, partText, walkXml } from './zip-parts';

export const odtReader = {
  name: 'odt',
  read(bytes) {
    return readOdt(bytes);
  },
} satisfies ReaderModule;

/**
 * An OpenDocument text (LibreOffice Writer, `.odt`) read from its content.xml into the Markdown the
 * chunkers know: headings (`text:h`, by outline level) as `#` lines, paragraphs apart, list items as
 * `- ` lines, table rows one line each with cells joined by ` | `, as Word documents are read.
 * Comments (`office:annotation`), tracked deletions, drawings' frames and the generated table of
 * contents (the headings again) are left out;
 * footnotes stay where they are cited. The title is meta.xml's `dc:title`, else the first heading.
 * Lines count lines of this text, not of the file.
 */
export async function readOdt(bytes: Uint8Array): Promise<ReadResult> {
  const zip = await openZip(bytes, { a: 'an OpenDocument text', this: 'This OpenDocument text' });
  const content = await partText(zip, 'content.xml');
  if (content === null) throw new QuireError('CORRUPT_FILE', 'The OpenDocument file has no content.xml, so it holds no text Quire can read.');

  const lines: string[] = [];
  let current: string[] | null = null;
  let prefix = '';
  let heading = 0;
  let skip = 0;
  let lists = 0;
  const row: string[][] = [];
  let firstHeading: string | null = null;
  const flush = () => {
    if (current === null) return;
    const text = collapseWhitespace(current.join(''));
    current = null;
    const cells = row.at(-1);
    if (cells !== undefined) {
      // A cell's paragraphs are one cell.
      if (cells.length > 0 && text !== '') cells[cells.length - 1] = collapseWhitespace(`${cells.at(-1)} ${text}`);
      return;
    }
    if (text === '') return;
    const line = heading > 0 ? atxHeading(heading, text) : `${prefix}${text}`;
    if (heading > 0) firstHeading ??= text;
    // Paragraphs and headings stand apart; items of one list stay together.
    if (lines.length > 0 && !(prefix !== '' && lines.at(-1)!.startsWith('- '))) lines.push('');
    lines.push(line);
  };

  walkXml(content, {
    open: (name, attrs) => {
      if (skip > 0 || SKIPPED.has(name)) return void skip++;
      if (name === 'text:h' || name === 'text:p') {
        flush();
        current = [];
        heading = name === 'text:h' ? Number(attrs['text:outline-level'] ?? 1) || 1 : 0;
      } else if (name === 'text:list') lists++;
      else if (name === 'text:list-item') prefix = '- ';
      else if (name === 'table:table-row') row.push([]);
      else if (name === 'table:table-cell') row.at(-1)?.push('');
      else if (current !== null && name === 'text:s') current.push(' '.repeat(Math.min(Number(attrs['text:c'] ?? 1) || 1, 100)));
      else if (current !== null && (name === 'text:tab' || name === 'text:line-break')) current.push(' ');
    },
    close: (name) => {
      if (skip > 0) return void skip--;
      if (name === 'text:h' || name === 'text:p') {
        flush();
        heading = 0;
      } else if (name === 'text:list' && --lists === 0) prefix = '';
      else if (name === 'text:list-item') prefix = lists > 0 ? '- ' : '';
      else if (name === 'table:table-row') {
        const cells = row.pop() ?? [];
        if (cells.some((c) => c !== '')) {
          if (lines.length > 0) lines.push('');
          lines.push(cells.join(' | '));
        }
      }
    },
    text: (t) => void (skip === 0 ? current?.push(t) : null),
  });
  flush();
  if (lines.length === 0) throw new QuireError('CORRUPT_FILE', 'The OpenDocument file holds no text.');

  const meta = await partText(zip, 'meta.xml');
  const title = meta !== null ? firstElementText(meta, 'dc:title') : '';
  return { text: lines.join('\n'), title: title || firstHeading, firstLine: 1 };
}

/** Elements whose text a reader of the document does not see as its text. */
const SKIPPED = new Set(['office:annotation', 'text:tracked-changes', 'draw:frame', 'text:table-of-content']);
