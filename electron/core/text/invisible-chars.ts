/**
 * Invisible characters that can hide text from a person reading a note while the model still reads
 * it ("ig\u200Bnore", Unicode tag-character smuggling, "Trojan Source" bidi overrides).
 * Some of the same characters are legitimate, and those are not reported or removed:
 *  - ZWJ inside emoji sequences (👩‍💻) and ZWJ/ZWNJ between letters of non-Latin scripts (Persian, Indic);
 *  - LRM/RLM in text that contains right-to-left script;
 *  - tag characters inside a flag emoji sequence (🏴 + tags + cancel tag);
 *  - a byte-order mark at the very start; single soft hyphens (hyphenation hints).
 */

// Flag sequences such as England's: black flag, tag letters, cancel tag.
const FLAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
const RTL_SCRIPT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]|[\u{10800}-\u{10FFF}]|[\u{1E800}-\u{1EFFF}]/u;
const PICTOGRAPHIC = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const NON_LATIN_LETTER = /(?![\p{Script=Latin}\p{Script=Common}])[\p{L}\p{M}]/u;

function isBidiControl(cp: number): boolean {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

function isAlwaysHidden(cp: number): boolean {
  return cp === 0x200b || cp === 0x180e || (cp >= 0x2060 && cp <= 0x2064) || isBidiControl(cp) || (cp >= 0xe0000 && cp <= 0xe007f);
}

/**
 * Start/end offsets (UTF-16) of suspicious invisible characters. Soft hyphens count only in runs
 * of two or more.
 */
export function suspiciousInvisibles(text: string): Array<[number, number]> {
  // Blank out legitimate flag sequences (same length) so their tag characters are not reported.
  const scan = text.replace(FLAG_SEQUENCE, (m) => 'x'.repeat(m.length));
  const hasRtl = RTL_SCRIPT.test(text);
  const cps = Array.from(scan);
  const out: Array<[number, number]> = [];
  let offset = 0;
  for (let i = 0; i < cps.length; i++) {
    const ch = cps[i] ?? '';
    const cp = ch.codePointAt(0) ?? 0;
    const prev = cps[i - 1] ?? '';
    const next = cps[i + 1] ?? '';
    let hidden = isAlwaysHidden(cp);
    if (cp === 0xfeff) hidden = offset !== 0;
    if (cp === 0x200c || cp === 0x200d) {
      const emoji = cp === 0x200d && PICTOGRAPHIC.test(prev) && PICTOGRAPHIC.test(next);
      const script = NON_LATIN_LETTER.test(prev) && NON_LATIN_LETTER.test(next);
      hidden = !emoji && !script;
    }
    if (cp === 0x200e || cp === 0x200f) hidden = !hasRtl;
    if (cp === 0x00ad) hidden = prev === '\u00AD' || next === '\u00AD';
    if (hidden) out.push([offset, offset + ch.length]);
    offset += ch.length;
  }
  return out;
}

/** The text without suspicious invisible characters, soft hyphens or a leading byte-order mark. */
export function removeInvisibles(text: string): string {
  let out = '';
  let from = 0;
  for (const [s, e] of suspiciousInvisibles(text)) {
    out += text.slice(from, s);
    from = e;
  }
  return (out + text.slice(from)).replace(/\u00AD/g, '').replace(/^\uFEFF/, '');
}

/** Every invisible/format character gone, legitimate or not: for matching phrases only. */
export function removeAllInvisibles(text: string): string {
  return text.replace(/[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/gu, '');
}
