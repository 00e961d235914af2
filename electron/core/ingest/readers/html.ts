import { QuireError } from '../../../../shared/errors';
import { decodeText } from './decode';
import { htmlToText } from './html-text';
import type { Reader } from './types';

export const htmlReader = {
  name: 'html',
  version: 1,
  extensions: ['.html', '.htm'],
  read(bytes) {
    const { text, title } = htmlToText(decodeHtml(bytes));
    // The text's lines are not the file's (see html-text.ts): they count from the extracted text.
    return { text, title, firstLine: 1 };
  },
} satisfies Reader;

/**
 * A saved web page is often in the charset its <meta> declares (windows-1252 for many older
 * pages), which UTF-8 decoding would refuse. A byte-order mark wins, as in browsers; a declared
 * charset other than UTF-8 is decoded strictly; everything else goes through decodeText.
 */
function decodeHtml(bytes: Uint8Array): string {
  const hasBom = (bytes[0] === 0xef && bytes[1] === 0xbb) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  const declared = hasBom ? null : declaredEncoding(bytes);
  if (declared === null) return decodeText(bytes);
  if (bytes.includes(0)) throw new QuireError('BINARY_FILE', 'The file contains NUL bytes, so it is binary, not text.');
  try {
    const text = new TextDecoder(declared, { fatal: true }).decode(bytes);
    return (declared === 'windows-1252' ? fixWindows1252(text) : text).replace(/\r\n?/g, '\n');
  } catch {
    throw new QuireError('UNDECODABLE_TEXT', `The page declares the ${declared} charset but its bytes are not valid ${declared}.`);
  }
}

/** The encoding a <meta> in the first 1024 bytes declares, when it is one TextDecoder knows other than UTF-8 or UTF-16 (which a <meta> cannot declare). */
function declaredEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  const label = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  if (!label) return null;
  let encoding: string;
  try {
    encoding = new TextDecoder(label).encoding;
  } catch {
    return null; // an unknown label: as if none were declared
  }
  return encoding === 'utf-8' || encoding.startsWith('utf-16') ? null : encoding;
}

/** windows-1252's characters at 0x80–0x9F (undefined ones stay as they are), as the WHATWG Encoding standard maps them. */
const WINDOWS_1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Node (20 and 22 at least) decodes windows-1252 as ISO-8859-1, turning curly quotes, dashes and €
 * into C1 control characters; they are mapped here. Harmless where Node decodes them correctly.
 */
function fixWindows1252(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]!);
}
