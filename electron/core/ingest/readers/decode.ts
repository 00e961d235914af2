import { QuireError } from '../../../../shared/errors';

/**
 * Bytes → text, refusing rather than guessing: a NUL byte means binary, and bytes that are not
 * valid UTF-8 are an error (a silent U+FFFD would put garbage in the index and in citations).
 * UTF-8 and UTF-16 byte-order marks are honoured. Line endings become '\n'.
 */
export function decodeText(bytes: Uint8Array): string {
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
    text = strictDecode('utf-8', bytes);
  }
  if (text.includes('\u0000')) {
    throw new QuireError('BINARY_FILE', 'The file contains NUL characters, so it is binary, not text.');
  }
  return text.replace(/\r\n?/g, '\n');
}

function strictDecode(encoding: 'utf-8' | 'utf-16le' | 'utf-16be', bytes: Uint8Array): string {
  try {
    // ignoreBOM: the BOM was already consumed above; a second one is content.
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(encoding, bytes);
    throw new QuireError(
      'UNDECODABLE_TEXT',
      encoding === 'utf-8'
        ? `The file is not valid UTF-8${offset === null ? '' : ` (first bad byte at offset ${offset})`}; re-save it as UTF-8.`
        : `The file starts with a ${encoding.toUpperCase()} byte-order mark but its content is not valid ${encoding.toUpperCase()}.`,
    );
  }
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
