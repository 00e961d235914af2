/**
 * The one text normalisation for comparing what a model or a question set says with what the
 * notes say: citation checks (answer/) and fact matching in evaluations (eval/) both use it, so a
 * fact found by one is found by the other.
 *
 * NFKC rather than NFC: notes pasted from PDFs and web pages carry compatibility characters —
 * ligatures ("ﬁ"), fullwidth digits ("９０"), superscripts, no-break spaces — that a model
 * usually writes back in their plain form. NFC keeps them apart from the plain letters, so
 * "every ９０ days" would never contain "every 90 days".
 */

/** Escapes every RegExp metacharacter so the pattern matches `text` literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Collapses every whitespace run (line breaks included) to one space, trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// Format characters that can hide inside a word; invisible, so they never matter for comparison.
const HIDDEN = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/**
 * NFKC, lower case, straight quotes, no hidden characters, no thousands separators, whitespace
 * collapsed to single spaces and trimmed.
 */
export function normaliseText(s: string): string {
  return collapseWhitespace(
    s
      // "1 000" with a no-break or thin space; NFKC would turn those into plain spaces first.
      .replace(/(\d)[\u00A0\u2009\u202F](?=\d{3}(?!\d))/g, '$1')
      .normalize('NFKC')
      .replace(HIDDEN, '')
      .toLowerCase()
      .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
      .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
      // "1,000,000" -> "1000000", but "1,2,3" stays a list.
      .replace(/(\d),(?=\d{3}(?!\d))/g, '$1'),
  );
}
