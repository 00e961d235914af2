/** A piece of one of shared/setup-sentences.ts's sentences, as the interface shows it. */
export type SentencePart = { kind: 'text'; text: string } | { kind: 'command'; text: string } | { kind: 'link'; text: string; href: string };

/**
 * A command in those sentences follows a colon ("Install it with: curl … | sh — then start it
 * with: ollama serve") and runs to a dash, comma, closing parenthesis or the end. Only the install
 * steps are read this way: after other sentences' colons come error messages, and their addresses
 * are Ollama's host, not pages to open.
 */
const COMMAND = /: ([^\s—,()][^—,()]*?)(?=\s+—|,|\)|\.?$)/g;
/** An address; a full stop after it ends the sentence, not the address. */
const URL = /https?:\/\/[^\s),;]+/g;

/** Splits an install step into plain text, links and commands to copy. */
export function sentenceParts(text: string): SentencePart[] {
  const marks: Array<{ start: number; end: number; part: SentencePart }> = [];
  for (const m of text.matchAll(COMMAND)) {
    const start = m.index + 2;
    marks.push({ start, end: start + m[1]!.length, part: { kind: 'command', text: m[1]! } });
  }
  for (const m of text.matchAll(URL)) {
    const href = m[0].replace(/\.$/, '');
    const inCommand = marks.some((k) => m.index >= k.start && m.index < k.end);
    if (!inCommand) marks.push({ start: m.index, end: m.index + href.length, part: { kind: 'link', text: href.replace(/^https?:\/\//, ''), href } });
  }
  marks.sort((a, b) => a.start - b.start);
  const parts: SentencePart[] = [];
  let at = 0;
  for (const k of marks) {
    if (k.start > at) parts.push({ kind: 'text', text: text.slice(at, k.start) });
    parts.push(k.part);
    at = k.end;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}
