// BPE token counting for chunk sizes and prompt budgets: OpenAI's cl100k_base vocabulary and
// pre-tokenisation regex, both taken from gpt-tokenizer.
//
// Why cl100k_base rather than o200k_base: its split regex never lets a pre-token run across a
// "\n" into non-space text, so count(prefix + "\n\n" + text) === count(prefix + "\n\n") +
// count(text) whenever text starts with a non-space; the chunkers rely on that to count the
// heading-path prefix once. (o200k's `[\r\n/]*` can swallow a leading "/".) It also loads faster.
// No local embedding model uses this exact vocabulary; it measures size consistently, that is all.
//
// Why our own merge loop over gpt-tokenizer's ranks: gpt-tokenizer merges each pre-token in
// O(n²) with a UTF-8 validation per lookup, so one long run of letters (a DNA sequence, a 50 MB
// line without spaces) costs seconds per few KB. Same ranks, the heap merge shared with the
// models' own tokenizers (bpe-merge.ts), O(n log n), and the output is identical to
// gpt-tokenizer's encoder (tokenizer.test.ts checks it).
//
// Special tokens such as "<|endoftext|>" are plain text here: notes may quote them, and that must
// neither throw nor count as one control token.
import { createRequire } from 'node:module';
import type bpeRanksImport from 'gpt-tokenizer/bpeRanks/cl100k_base';
import { PairMap, PieceCache, mergeSymbols, symbolBuffer } from './bpe-merge';

/**
 * gpt-tokenizer's ranks (a megabyte of script) and split regex are required on first use, not
 * imported with this module: every shell's engine imports the chunkers and the prompt budget, and
 * a command that counts no tokens (`quire search`, `quire status`) must not pay for them. Required
 * synchronously, since counting is; from this file in the CommonJS bundles (Electron's), else from its URL.
 */
function requireTokenizer(): { ranks: typeof bpeRanksImport; split: RegExp } {
  const requireHere = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
  const ranks = (requireHere('gpt-tokenizer/bpeRanks/cl100k_base') as { default: typeof bpeRanksImport }).default;
  const { CL100K_TOKEN_SPLIT_REGEX: split } = requireHere('gpt-tokenizer/encodingParams/constants') as { CL100K_TOKEN_SPLIT_REGEX: RegExp };
  return { ranks, split };
}

export const TOKENIZER_NAME = 'cl100k_base';

/**
 * Pre-tokens longer than this many characters are merged in slices of this size. Only absurd input
 * (64K letters without a space, digit or punctuation) is affected; it bounds the merge's memory.
 */
export const MAX_PIECE_CHARS = 65_536;

// Tokens as "byte strings": one char per byte (latin1), so ASCII text is its own key and any
// byte sequence, valid UTF-8 or not, has exactly one key.
interface Tables {
  rankByKey: Map<string, number>;
  keyByRank: string[];
  byteRank: Int32Array;
  /** Every way of writing each token as two shorter tokens; in cl100k a merge's rank is its token. */
  pairs: PairMap;
  /** cl100k's pre-tokenisation pattern (its source: each text gets a regex of its own). */
  split: string;
}
let tables: Tables | undefined;

const NON_ASCII = /[^\x00-\x7f]/;

function byteKey(s: string): string {
  return NON_ASCII.test(s) ? Buffer.from(s, 'utf8').toString('latin1') : s;
}

// Built on first use (~0.25 s, ~20 MB). Merging then works on token ids alone, with no substring
// or UTF-8 work per step.
function load(): Tables {
  if (tables) return tables;
  const rankByKey = new Map<string, number>();
  const keyByRank: string[] = [];
  const { ranks, split } = requireTokenizer();
  ranks.forEach((entry, rank) => {
    const key = typeof entry === 'string' ? byteKey(entry) : String.fromCharCode(...entry);
    rankByKey.set(key, rank);
    keyByRank[rank] = key;
  });
  const byteRank = new Int32Array(256);
  for (let b = 0; b < 256; b++) byteRank[b] = rankByKey.get(String.fromCharCode(b))!;
  const pairs = new PairMap(260_000);
  keyByRank.forEach((key, rank) => {
    for (let k = 1; k < key.length; k++) {
      const left = rankByKey.get(key.slice(0, k));
      const right = left === undefined ? undefined : rankByKey.get(key.slice(k));
      if (left === undefined || right === undefined) continue;
      pairs.set(left, right, rank, rank);
    }
  });
  tables = { rankByKey, keyByRank, byteRank, pairs, split: split.source };
  return tables;
}

/** Byte-pair merge of one pre-token (given as bytes, one char per byte), as tiktoken does. */
function merge(t: Tables, key: string, out: number[]): void {
  const n = key.length;
  const symbols = symbolBuffer(n);
  for (let i = 0; i < n; i++) symbols[i] = t.byteRank[key.charCodeAt(i)]!;
  mergeSymbols(t.pairs, n, out);
}

// Repeated pre-tokens are merged once.
const cache = new PieceCache(50_000, 8_000_000, MAX_PIECE_CHARS);

function encodeKey(key: string, t: Tables, out: number[]): void {
  const direct = t.rankByKey.get(key);
  if (direct !== undefined) {
    out.push(direct);
    return;
  }
  cache.encode(key, out, (k, tokens) => merge(t, k, tokens));
}

export interface Piece {
  /** Character offsets of the pre-token in the text passed in. */
  start: number;
  end: number;
  tokens: number[];
}

/** Pre-tokens of `text` with their tokens, lazily: lets callers stream over very long text. */
export function* encodePieces(text: string): Generator<Piece> {
  const t = load();
  const split = new RegExp(t.split, 'gu');
  for (let m = split.exec(text); m !== null; m = split.exec(text)) {
    const piece = m[0];
    for (let s = 0; s < piece.length; ) {
      let e = Math.min(piece.length, s + MAX_PIECE_CHARS);
      if (e < piece.length && isHighSurrogate(piece.charCodeAt(e - 1))) e--;
      const tokens: number[] = [];
      encodeKey(byteKey(e - s === piece.length ? piece : piece.slice(s, e)), t, tokens);
      yield { start: m.index + s, end: m.index + e, tokens };
      s = e;
    }
  }
}

export function encode(text: string): number[] {
  const out: number[] = [];
  for (const piece of encodePieces(text)) for (const t of piece.tokens) out.push(t);
  return out;
}

export function countTokens(text: string): number {
  let n = 0;
  for (const piece of encodePieces(text)) n += piece.tokens.length;
  return n;
}

export function decode(tokens: Iterable<number>): string {
  const { keyByRank } = load();
  let bytes = '';
  for (const token of tokens) {
    const key = keyByRank[token];
    if (key === undefined) throw new Error(`Unknown ${TOKENIZER_NAME} token: ${token}`);
    bytes += key;
  }
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** UTF-8 length of one token. */
export function tokenByteLength(token: number): number {
  const key = load().keyByRank[token];
  if (key === undefined) throw new Error(`Unknown ${TOKENIZER_NAME} token: ${token}`);
  return key.length;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Characters of `text` from `from` that fit in `bytes` UTF-8 bytes, never ending inside a
 * character: a token boundary can fall inside a multi-byte character, a substring cannot.
 */
export function charsWithinBytes(text: string, from: number, bytes: number): number {
  let i = from;
  let used = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const pair = isHighSurrogate(c) && i + 1 < text.length;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (used + size > bytes) break;
    used += size;
    i += pair ? 2 : 1;
  }
  return i - from;
}

/**
 * A prefix of `text` that encodes to at most `maxTokens` tokens: as far as the first maxTokens
 * tokens of `text` reach (whole characters only), re-counted on its own. Returns at least one
 * character when text is non-empty, even if that character needs more tokens (maxTokens < 4).
 */
export function fitPrefix(text: string, maxTokens: number): { chars: number; tokens: number } {
  let limit = maxTokens;
  for (;;) {
    let count = 0;
    let chars = text.length;
    for (const piece of encodePieces(text)) {
      if (count + piece.tokens.length <= limit) {
        count += piece.tokens.length;
        continue;
      }
      let bytes = 0;
      for (let i = 0; i < limit - count; i++) bytes += tokenByteLength(piece.tokens[i]!);
      chars = piece.start + charsWithinBytes(text, piece.start, bytes);
      break;
    }
    if (chars === text.length) return { chars, tokens: count };
    if (chars === 0) {
      const one = isHighSurrogate(text.charCodeAt(0)) && text.length > 1 ? 2 : 1;
      return { chars: one, tokens: countTokens(text.slice(0, one)) };
    }
    // Re-encoding a cut pre-token can merge differently; rare, and one retry with less room fixes it.
    const actual = countTokens(text.slice(0, chars));
    if (actual <= maxTokens) return { chars, tokens: actual };
    limit -= Math.max(1, actual - maxTokens);
    if (limit <= 0) limit = 0;
  }
}
