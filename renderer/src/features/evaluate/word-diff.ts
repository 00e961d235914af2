/**
 * A word-level diff by longest common subsequence: what a text keeps, adds and drops compared
 * with a baseline. Words are compared exactly; each word carries the whitespace that follows it,
 * so the same and added pieces joined give the text back exactly (whitespace and line breaks
 * included), and the same and removed pieces give the baseline's words in order.
 */

export type DiffOp = 'same' | 'added' | 'removed';

export interface DiffPiece {
  op: DiffOp;
  /** The word with its trailing whitespace (from the text for same/added, from the baseline for removed). */
  text: string;
}

/** Beyond this many word pairs the table would be too large to build; the texts are then shown as replaced wholesale. */
export const MAX_DIFF_CELLS = 4_000_000;

interface Token {
  word: string;
  raw: string;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const lead = /^\s+/.exec(text)?.[0] ?? '';
  const re = /(\S+)(\s*)/g;
  let m: RegExpExecArray | null;
  let first = true;
  while ((m = re.exec(text)) !== null) {
    out.push({ word: m[1] as string, raw: (first ? lead : '') + (m[0] as string) });
    first = false;
  }
  return out;
}

/** Merges neighbouring pieces with the same op, so the result renders as few elements. */
function merge(pieces: DiffPiece[]): DiffPiece[] {
  const out: DiffPiece[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if (last && last.op === p.op) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

/**
 * `text` against `baseline`: 'same' words appear in both in the same order, 'added' only in
 * `text`, 'removed' only in `baseline` (placed where they were dropped).
 */
export function wordDiff(baseline: string, text: string): DiffPiece[] {
  const a = tokenize(baseline);
  const b = tokenize(text);
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return [];
  if (n * m > MAX_DIFF_CELLS) {
    return merge([...(n > 0 ? [{ op: 'removed' as const, text: baseline }] : []), ...(m > 0 ? [{ op: 'added' as const, text }] : [])]);
  }
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], in one flat array.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = (a[i] as Token).word === (b[j] as Token).word ? (lcs[(i + 1) * w + j + 1] as number) + 1 : Math.max(lcs[(i + 1) * w + j] as number, lcs[i * w + j + 1] as number);
    }
  }
  const pieces: DiffPiece[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const x = a[i] as Token;
    const y = b[j] as Token;
    if (x.word === y.word) {
      pieces.push({ op: 'same', text: y.raw });
      i++;
      j++;
    } else if ((lcs[(i + 1) * w + j] as number) >= (lcs[i * w + j + 1] as number)) {
      pieces.push({ op: 'removed', text: x.raw });
      i++;
    } else {
      pieces.push({ op: 'added', text: y.raw });
      j++;
    }
  }
  for (; i < n; i++) pieces.push({ op: 'removed', text: (a[i] as Token).raw });
  for (; j < m; j++) pieces.push({ op: 'added', text: (b[j] as Token).raw });
  return merge(pieces);
}

/** How much of `text` differs from the baseline: words added plus words removed. */
export function changedWords(pieces: readonly DiffPiece[]): number {
  let n = 0;
  for (const p of pieces) if (p.op !== 'same') n += p.text.split(/\s+/).filter(Boolean).length;
  return n;
}
