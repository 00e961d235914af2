// GPT-2's byte-level alphabet: each byte is written as one printable character in the vocabulary
// ("Ġ" for a space, "Ċ" for a newline), so byte-level BPE tokens are plain strings in GGUF files.
// Printable Latin-1 bytes stand for themselves; the others are moved to U+0100 onwards, in order.

function isPrintable(b: number): boolean {
  return (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
}

/** The character standing for each byte. */
export const BYTE_CHARS: readonly string[] = (() => {
  const out: string[] = [];
  let shifted = 0;
  for (let b = 0; b < 256; b++) out[b] = String.fromCharCode(isPrintable(b) ? b : 256 + shifted++);
  return out;
})();

/** A string's UTF-8 bytes in the byte-level alphabet. */
export function toByteChars(text: string): string {
  let out = '';
  for (const b of Buffer.from(text, 'utf8')) out += BYTE_CHARS[b];
  return out;
}
