import { QuireError } from '../../../../shared/errors';

/**
 * Bytes → text, refusing rather than guessing: a NUL byte means binary, and bytes that are not
 * valid UTF-8 are an error (a silent U+FFFD would put garbage in the index and in citations).
 * UTF-8 and UTF-16 byte-order marks are honoured; without one, the bytes are UTF-8 unless the
 * format itself declares another encoding (`declared`, an Encoding-standard name such as an HTML
 * page's <meta charset>). Line endings become '\n'.
 */
export function decodeText(bytes: Uint8Array, declared?: string): string {
  let text: string;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    text = strictDecode('utf-8', bytes.subarray(3));
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    text = strictDecode('utf-16le', bytes.subarray(2));
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    text = strictDecode('utf-16be', bytes.subarray(2));
  } else {
    if (bytes.includes(0)) {
      throw new QuireError('BINARY_FILE', 'The file contains NUL bytes, so it is binary, not text.');
    }
    text = strictDecode(declared ?? 'utf-8', bytes);
  }
  if (text.includes('\u0000')) {
    throw new QuireError('BINARY_FILE', 'The file contains NUL characters, so it is binary, not text.');
  }
  return text.replace(/\r\n?/g, '\n');
}

function strictDecode(encoding: string, bytes: Uint8Array): string {
  try {
    // ignoreBOM: the BOM was already consumed above; a second one is content.
    const text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
    return encoding === 'windows-1252' ? fixWindows1252(text) : text;
  } catch {
    const offset = firstInvalidUtf8Offset(encoding, bytes);
    throw new QuireError(
      'UNDECODABLE_TEXT',
      encoding === 'utf-8'
        ? `The file is not valid UTF-8${offset === null ? '' : ` (first bad byte at offset ${offset})`}; re-save it as UTF-8.`
        : encoding.startsWith('utf-16')
          ? `The file starts with a ${encoding.toUpperCase()} byte-order mark but its content is not valid ${encoding.toUpperCase()}.`
          : `The file declares the ${encoding} encoding but its bytes are not valid ${encoding}.`,
    );
  }
}

/** windows-1252's characters at 0x80–0x9F (the five it leaves undefined stay as they are), as the Encoding standard maps them. */
const WINDOWS_1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Node (20 and 22 at least) decodes windows-1252 as ISO-8859-1, turning curly quotes, dashes and €
 * into C1 control characters; they are mapped here. Harmless where Node decodes them correctly.
 */
function fixWindows1252(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]!);
}

/** Where the first malformed UTF-8 sequence starts, so the message can point at it. */
function firstInvalidUtf8Offset(encoding: string, bytes: Uint8Array): number | null {
  if (encoding !== 'utf-8') return null;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0 || i + len > bytes.length) return i;
    for (let j = 1; j < len; j++) if ((bytes[i + j]! & 0xc0) !== 0x80) return i;
    i += len;
  }
  return null;
}
