import { analyse } from 'chardet';
import { isQuireError, QuireError } from '../../../../shared/errors';

/**
 * Bytes → text, refusing rather than guessing: a NUL byte means binary, and bytes that are not
 * valid UTF-8 are an error (a silent U+FFFD would put garbage in the index and in citations).
 * UTF-8 and UTF-16 byte-order marks are honoured; without one, the bytes are UTF-8 unless the
 * format itself declares another encoding (`declared`, an Encoding-standard name such as an HTML
 * page's <meta charset>). Line endings become '\n'.
 */
/** How the refusal of bytes that are not UTF-8 (and declare no other encoding) begins: the one guessEncoding may answer. */
const NOT_UTF8 = 'The file is not valid UTF-8';

/** Whether an error is decodeText refusing bytes as not UTF-8, the case a guessed legacy encoding can read. */
export function isNotUtf8Refusal(e: unknown): e is QuireError {
  return isQuireError(e) && e.code === 'UNDECODABLE_TEXT' && e.message.startsWith(NOT_UTF8);
}

/** The refusal again, saying why no legacy encoding could be trusted either. */
export function notUtf8Nor(e: QuireError, why: string): QuireError {
  return new QuireError('UNDECODABLE_TEXT', e.message.replace(RESAVE, `, and ${why}${RESAVE}`));
}

const RESAVE = '; re-save it as UTF-8.';

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
        ? `${NOT_UTF8}${offset === null ? '' : ` (first bad byte at offset ${offset})`}${RESAVE}`
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
  for (let i = 0; i < bytes.length; ) {
    const len = bytes[i]! < 0x80 ? 1 : utf8SequenceAt(bytes, i);
    if (len === 0) return i;
    i += len;
  }
  return null;
}

/** The length of the well-formed multi-byte UTF-8 sequence starting at `i` (lead byte and continuation bytes only), or 0. */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (len === 0 || i + len > bytes.length) return 0;
  for (let j = 1; j < len; j++) if ((bytes[i + j]! & 0xc0) !== 0x80) return 0;
  return len;
}

/** What guessEncoding found: the text and the encoding it was read in, or why no encoding can be trusted. */
export type EncodingGuess = { encoding: string; text: string } | { encoding: null; why: string };

/** Detectors' names for encodings that are no legacy encoding to guess. */
const NOT_A_GUESS = /^(?:utf-|ascii$)/i;
/** chardet's confidence (of 100) from which its best reading is taken as recognised. */
const RECOGNISED = 40;
/** A rival this close to the best reading, reading the bytes as other text, makes it a coin toss. */
const RIVAL_MARGIN = 10;
/** Bytes the detector reads: its statistics settle long before, and a whole 20 MB file took it 15 s. */
const DETECTION_SAMPLE = 64 * 1024;
/** Western European text has few letters beyond ASCII; text in another script read as windows-1252 has mostly such letters. */
const WESTERN_MAX_SHARE = 0.3;

/** Encodings whose characters take more than one byte: UTF-8's byte pairs occur in them by chance. */
const MULTI_BYTE: ReadonlySet<string> = new Set(['shift_jis', 'euc-jp', 'iso-2022-jp', 'gbk', 'gb18030', 'big5', 'euc-kr']);

/** A detector cannot tell these apart when the bytes avoid 0x80–0x9F: each is weighed as the other's rival. */
const TWINS: Readonly<Record<string, string>> = { 'iso-8859-2': 'windows-1250', 'windows-1250': 'iso-8859-2', 'iso-8859-7': 'windows-1253', 'windows-1253': 'iso-8859-7' };
/** From this confidence a reading in another encoding than windows-1252, ahead of it, rules out the fallback. */
const AHEAD = 15;

/**
 * The legacy encoding a text file that is not UTF-8 was most likely saved in (old notes saved by
 * Windows Notepad as "ANSI": windows-1252 for Spanish or Portuguese, windows-1251 for Russian,
 * Shift_JIS for Japanese). chardet's statistics of the bytes decide when they recognise one encoding
 * and no other likely encoding would read the bytes as different text (ISO-8859-1 and -2 agree on
 * "canción"; ISO-8859-2 and windows-1250 do not on "piątek"). Otherwise windows-1252, the commonest
 * legacy encoding and the Encoding standard's fallback, when no reading in another encoding is ahead
 * of it and it reads the bytes as Western text (few letters beyond ASCII, no word made of signs).
 * Whatever the path, a windows-1252 reading with the marks of another script (Łódź read as £ódŸ,
 * Иван as Èâàí) or of UTF-8 (Ã©, â€™) is refused: a refusal says why, where mojibake would be
 * indexed in silence. A file that starts with UTF-8's byte-order mark, or is mostly well-formed
 * UTF-8, is damaged UTF-8 and is refused too.
 */
export function guessEncoding(bytes: Uint8Array): EncodingGuess {
  if (bytes.includes(0)) return { encoding: null, why: 'it holds NUL bytes, so it is binary or UTF-16 without a byte-order mark' };
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: null, why: 'it starts with the UTF-8 byte-order mark, so it is UTF-8 with damaged bytes' };
  if (mostlyUtf8(bytes)) return { encoding: null, why: 'it is UTF-8 in places, so it looks damaged rather than saved in another encoding' };
  const utf8Pasted = hasUtf8Marks(bytes);
  // Readings are compared on the sample the detector read; only the one taken reads the whole file.
  const sample = sampleOf(bytes);
  const readings: Array<{ encoding: string; confidence: number; text: string }> = [];
  const add = (label: string, confidence: number) => {
    const reading = readAs(label, sample);
    if (reading && !readings.some((r) => r.encoding === reading.encoding)) readings.push({ ...reading, confidence });
  };
  for (const match of analyse(sample)) {
    if (NOT_A_GUESS.test(match.name)) continue;
    add(match.name, match.confidence);
    const twin = TWINS[match.name.toLowerCase()];
    if (twin) add(twin, match.confidence);
  }
  readings.sort((a, b) => b.confidence - a.confidence);
  const best = readings[0];
  // UTF-8's é or ’ inside a single-byte reading is UTF-8 pasted into it: whichever way it is read, part of it is mojibake.
  const taken = (r: { encoding: string; text: string }) => (MULTI_BYTE.has(r.encoding) || !utf8Pasted) && (r.encoding !== 'windows-1252' || plausiblyWestern(r.text));
  if (best && best.confidence >= RECOGNISED && !readings.some((r) => r !== best && r.confidence >= best.confidence - RIVAL_MARGIN && r.text !== best.text)) {
    const whole = readAs(best.encoding, bytes);
    if (whole && taken(whole)) return whole;
    if (whole) return { encoding: null, why: `read as ${whole.encoding} it would hold words of another script or of UTF-8` };
  }
  const westernSample = readAs('windows-1252', sample);
  const westernConfidence = readings.find((r) => r.encoding === 'windows-1252')?.confidence ?? 0;
  const otherAhead = readings.some((r) => r.encoding !== 'windows-1252' && r.confidence >= AHEAD && r.confidence > westernConfidence && r.text !== westernSample?.text);
  if (westernSample && !otherAhead && westernShare(westernSample.text) <= WESTERN_MAX_SHARE && plausiblyWestern(westernSample.text)) {
    const western = readAs('windows-1252', bytes);
    if (western && taken(western)) return western;
  }
  return { encoding: null, why: best ? 'its encoding could not be told for sure' : 'its encoding could not be recognised' };
}

/**
 * Whether a windows-1252 reading looks like Western text: no sign glued between letters (pi¹tek, a
 * Polish ą read wrong; but Catalan's l·l, ordinals and ´ typed as an apostrophe are Western), no
 * sign before a letter (£ódŸ), no run of three characters beyond ASCII (Èâàí, “Œ‹ž), and none of
 * and no ¤, which nobody
 * types and which is where ISO-8859-15 keeps €.
 */
function plausiblyWestern(text: string): boolean {
  return !(
    text.includes('\u00a4') ||
    /\p{L}[\u00a1-\u00a9\u00ab-\u00b3\u00b5\u00b6\u00b8\u00b9\u00bb-\u00bf\u0160\u0161\u0178\u017d\u017e\u201a\u201e\u2020-\u2022\u2030\u2039\u203a\u2122]\p{L}/u.test(text) ||
    /[\u00a3-\u00a6\u00a8\u00a9\u00ac\u00ae\u00af\u00b1-\u00b3\u00b6\u00b8\u00b9\u00bc-\u00be]\p{L}/u.test(text) ||
    /[^\x00-\x7f\s\u00ab\u00bb\u2013\u2014\u2026\u201c\u201d\u2018\u2019]{3,}/u.test(text)
  );
}

/**
 * The file's start, up to DETECTION_SAMPLE bytes, ending at a line break: no legacy encoding uses
 * 0x0A inside a character, so a multi-byte character is never cut in two.
 */
function sampleOf(bytes: Uint8Array): Uint8Array {
  if (bytes.length <= DETECTION_SAMPLE) return bytes;
  const end = bytes.lastIndexOf(0x0a, DETECTION_SAMPLE - 1);
  return bytes.subarray(0, end > 0 ? end + 1 : DETECTION_SAMPLE);
}

/** The bytes read in an encoding, under its standard name; null when this runtime lacks it or the bytes break it. */
function readAs(label: string, bytes: Uint8Array): { encoding: string; text: string } | null {
  let encoding: string;
  try {
    encoding = new TextDecoder(label).encoding; // WHATWG names: ISO-8859-1 is read as windows-1252
  } catch {
    return null;
  }
  try {
    const text = strictDecode(encoding, bytes);
    // windows-1252 leaves five bytes undefined, and other encodings' C1 range is control characters: text holding one was not written in it.
    return /[\u0080-\u009f]/.test(text) ? null : { encoding, text };
  } catch {
    return null;
  }
}

/** The share of a text's letters that are beyond ASCII. */
function westernShare(text: string): number {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const beyond = text.match(/[^\x00-\x7f]/gu)?.filter((c) => /\p{L}/u.test(c)).length ?? 0;
  return letters === 0 ? 1 : beyond / letters;
}

/** Whether the bytes hold UTF-8's Latin-1 letters (C3 xx), no-break space and signs (C2 xx) or punctuation and € (E2 80 xx, E2 82 AC). */
function hasUtf8Marks(bytes: Uint8Array): boolean {
  return /\xc3[\x80-\xbf]|\xc2[\xa0-\xbf]|\xe2\x80[\x80-\xbf]|\xe2\x82\xac/.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
}

/**
 * Whether the bytes are UTF-8 more than they are not: at least as many well-formed multi-byte
 * sequences as bytes outside one. A legacy multi-byte encoding (Shift_JIS, GBK) forms such
 * sequences by chance now and then; a damaged UTF-8 file is mostly made of them.
 */
function mostlyUtf8(bytes: Uint8Array): boolean {
  let sequences = 0;
  let strays = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! < 0x80) continue;
    const len = utf8SequenceAt(bytes, i);
    if (len > 0) {
      sequences++;
      i += len - 1;
    } else strays++;
  }
  return sequences > 0 && sequences >= strays;
}
