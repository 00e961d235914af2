import { decodeText } from './decode';
import { htmlToText } from './html-text';
import type { ReaderModule } from './types';

export const htmlReader = {
  name: 'html',
  read(bytes) {
    const { text, title } = htmlToText(decodeText(bytes, declaredEncoding(bytes)), { promoteHeadings: true });
    // The text's lines are not the file's (see html-text.ts): they count from the extracted text.
    return { text, title, firstLine: 1 };
  },
} satisfies ReaderModule;

/**
 * A saved web page is often in the charset its <meta> declares (windows-1252 for many older
 * pages), which UTF-8 decoding would refuse. Returns that encoding when it is one TextDecoder
 * knows other than UTF-8 or UTF-16 (which a <meta> cannot declare); a byte-order mark still wins.
 */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  const label = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  if (!label) return undefined;
  let encoding: string;
  try {
    encoding = new TextDecoder(label).encoding;
  } catch {
    return undefined; // an unknown label: as if none were declared
  }
  return encoding === 'utf-8' || encoding.startsWith('utf-16') ? undefined : encoding;
}
