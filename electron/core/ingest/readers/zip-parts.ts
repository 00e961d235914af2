import JSZip from 'jszip';
import { Parser } from 'htmlparser2';
import { QuireError } from '../../../../shared/errors';
import { collapseWhitespace } from '../../text/normalise';

/** How a format is named in its errors: "an EPUB book", "This EPUB book". */
export interface ZipFormat {
  a: string;
  this: string;
}

/**
 * An EPUB or OpenDocument file is a zip of XML parts. Opens it, failing as CORRUPT_FILE with a
 * sentence naming the format when it is no zip or a damaged one.
 */
export async function openZip(bytes: Uint8Array, format: ZipFormat): Promise<JSZip> {
  if (!(bytes[0] === 0x50 && bytes[1] === 0x4b)) {
    throw new QuireError('CORRUPT_FILE', `The file is not ${format.a} (it is not a zip archive); it may be damaged or misnamed.`);
  }
  try {
    return await JSZip.loadAsync(bytes);
  } catch (e) {
    // JSZip's reasons end in a pointer to its own documentation, which is no help to a reader of notes.
    const reason = (e instanceof Error ? e.message : String(e)).replace(/\s*If it is, see https?:\S+/, '').replace(/\s+:\s+/, ': ');
    throw new QuireError('CORRUPT_FILE', `${format.this} is damaged or incomplete (${reason.trim()}).`);
  }
}

/** A part's text, or null when the archive has no such part. */
export async function partText(zip: JSZip, name: string): Promise<string | null> {
  const file = zip.file(name);
  return file ? file.async('string') : null;
}

export interface XmlHandlers {
  open?: (name: string, attrs: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
}

/** Streams an XML part through handlers; element and attribute names are lower-cased, prefixes kept (`text:p`). */
export function walkXml(xml: string, handlers: XmlHandlers): void {
  const parser = new Parser(
    {
      onopentag: (name, attrs) => handlers.open?.(name, attrs),
      onclosetag: (name) => handlers.close?.(name),
      ontext: (text) => handlers.text?.(text),
    },
    { xmlMode: true, decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(xml);
  parser.end();
}

/** The text of the first `name` element of an XML part (`dc:title` of a book or a document), whitespace collapsed; '' when none. */
export function firstElementText(xml: string, name: string): string {
  let text = '';
  let depth = 0;
  let done = false;
  walkXml(xml, {
    open: (n) => void (n === name && !done ? depth++ : null),
    close: (n) => void (n === name && depth > 0 && --depth === 0 ? (done = true) : null),
    text: (t) => void (depth > 0 ? (text += t) : null),
  });
  return collapseWhitespace(text);
}
