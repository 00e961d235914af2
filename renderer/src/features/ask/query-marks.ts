import { contentWords } from './highlight';

export interface Piece {
  text: string;
  mark: boolean;
}

/**
 * The text cut into pieces, the query's words marked, for React to render as text nodes and <mark>s
 * (never as HTML). A word matches a query word when equal ignoring case, or when they share a stem
 * roughly (one the other plus an ending of up to three letters, or a long common start: "rotate" and "rotation"), since keyword
 * search matched on stems and the snippet should show why it was found.
 */
export function markQueryWords(text: string, query: string): Piece[] {
  const wanted = [...contentWords(query)];
  if (wanted.length === 0) return text ? [{ text, mark: false }] : [];
  const pieces: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu)) {
    const word = m[0].toLowerCase().normalize('NFKC');
    if (!wanted.some((w) => sameStem(word, w))) continue;
    if (m.index > at) pieces.push({ text: text.slice(at, m.index), mark: false });
    const last = pieces[pieces.length - 1];
    // Neighbouring matches ("deploy keys") make one mark, their space included.
    if (last?.mark === false && /^\s+$/.test(last.text) && pieces[pieces.length - 2]?.mark) {
      pieces.pop();
      pieces[pieces.length - 1]!.text += last.text + m[0];
    } else pieces.push({ text: m[0], mark: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), mark: false });
  return pieces;
}

function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.length - short.length <= 3 && long.startsWith(short)) return true;
  let common = 0;
  while (common < short.length && short[common] === long[common]) common++;
  return common >= 5 && common >= short.length - 2;
}
