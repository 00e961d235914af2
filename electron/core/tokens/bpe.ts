// Byte-level BPE ("gpt2" in GGUF): split by the pre-tokenizer, write each piece's UTF-8 bytes in
// GPT-2's byte alphabet, then merge adjacent tokens by the rank of their merge (lowest first,
// leftmost among equals) with the heap shared with Quire's cl100k counter (text/bpe-merge.ts).
import { PairMap, PieceCache, MAX_SYMBOLS, mergeSymbols, symbolBuffer } from '../text/bpe-merge';
import { BYTE_CHARS, toByteChars } from './byte-level';
import { ignoresMerges, splitter, type Splitter } from './pretokenize';
import { SpecialTokens } from './special-tokens';
import type { ModelTokenizer } from './tokenizer';
import type { Vocabulary } from './vocabulary';

/** Pieces longer than this (in byte characters) are merged in slices: only absurd input has them. */
const MAX_PIECE = Math.min(MAX_SYMBOLS, 65_536);

export class ByteLevelBpe implements ModelTokenizer {
  readonly kind = 'gpt2' as const;
  readonly bos: number | null;
  readonly addBos: boolean;
  private readonly ids = new Map<string, number>();
  /** Token of each byte character (by its char code in the byte alphabet). */
  private readonly charIds = new Int32Array(512).fill(-1);
  private readonly pairs: PairMap;
  private readonly special: SpecialTokens;
  private readonly split: Splitter;
  private readonly wholePieces: boolean;
  private readonly cache = new PieceCache();

  constructor(v: Vocabulary) {
    this.bos = v.bos;
    this.addBos = v.addBos;
    v.tokens.forEach((t, id) => {
      if (!this.ids.has(t)) this.ids.set(t, id);
    });
    for (const c of BYTE_CHARS) this.charIds[c.charCodeAt(0)] = this.ids.get(c) ?? -1;
    this.pairs = new PairMap(v.merges.length);
    v.merges.forEach((m, rank) => {
      // "left right": spaces inside tokens are written "Ġ", so the one space separates the halves.
      const at = m.indexOf(' ', 1);
      const left = this.ids.get(m.slice(0, at));
      const right = this.ids.get(m.slice(at + 1));
      const result = this.ids.get(m.slice(0, at) + m.slice(at + 1));
      if (left !== undefined && right !== undefined && result !== undefined) this.pairs.set(left, right, rank, result);
    });
    this.special = new SpecialTokens(v.tokens, v.types);
    this.split = splitter(v.pre);
    this.wholePieces = ignoresMerges(v.pre);
  }

  encode(text: string): number[] {
    const out: number[] = [];
    for (const seg of this.special.split(text)) {
      if ('special' in seg) out.push(seg.special);
      else this.encodeOrdinary(seg.text, out);
    }
    return out;
  }

  count(text: string): number {
    return this.encode(text).length;
  }

  private encodeOrdinary(text: string, out: number[]): void {
    for (const piece of this.split(text)) this.encodePiece(toByteChars(piece), out);
  }

  private encodePiece(piece: string, out: number[]): void {
    this.cache.encode(piece, out, (p, tokens) => {
      const whole = this.wholePieces ? this.ids.get(p) : undefined;
      if (whole !== undefined) tokens.push(whole);
      else for (let s = 0; s < p.length; s += MAX_PIECE) this.merge(p.slice(s, s + MAX_PIECE), tokens);
    });
  }

  private merge(piece: string, out: number[]): void {
    const n = piece.length;
    const symbols = symbolBuffer(n);
    for (let i = 0; i < n; i++) symbols[i] = this.charIds[piece.charCodeAt(i)]!;
    mergeSymbols(this.pairs, n, out);
  }
}
