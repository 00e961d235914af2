/**
 * Text from notes (file names, headings, passages), from the model and from the person's own
 * arguments, made safe to print. A terminal obeys control characters whoever wrote them: ESC opens
 * sequences that recolour, retitle the window (OSC 0), set the clipboard (OSC 52) or hide text; the
 * C1 range (U+0080–U+009F) holds the same introducers in one character; CR and backspace overwrite
 * what was printed; bidi overrides reorder what is shown ("Trojan Source"). Line breaks and tabs
 * stay; everything else in those ranges becomes U+FFFD, so the name still shows where it was odd.
 */
const UNSAFE_FOR_TERMINAL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE_FOR_TERMINAL, '\uFFFD');
}

/**
 * JSON for stdout: JSON.stringify escapes C0 controls but leaves DEL, C1 and bidi controls raw;
 * those are written as \u escapes too, so the document means the same and prints harmlessly.
 */
export function terminalSafeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(/[\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
