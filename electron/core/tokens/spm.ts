// SentencePiece ("llama" in GGUF) the way llama.cpp runs it: spaces become "▁" (with one put in
// front when the vocabulary asks), the text starts as one symbol per character, and adjacent
// symbols whose concatenation is a piece are merged, highest-scoring piece first, leftmost among
// equals. A character the vocabulary lacks is written as its UTF-8 bytes ("<0xE2>"), or as the
// unknown token when there are no byte pieces.
import { PairMap, PieceCache, MAX_SYMBOLS, mergeSymbols, symbolBuffer } from '../text/bpe-merge';
import { SpecialTokens } from './special-tokens';
import type { ModelTokenizer } from './tokenizer';
import { TokenType, type Vocabulary } from './vocabulary';

const SPACE = '▁';

export class SentencePiece implements ModelTokenizer {
  readonly kind = 'llama' as const;
  readonly bos: number | null;
  readonly addBos: boolean;
  private readonly addSpacePrefix: boolean;
  private readonly ids = new Map<string, number>();
  private readonly byteIds = new Int32Array(256).fill(-1);
  private readonly unknown: number;
  private readonly pairs: ScoredPairs;
  private readonly special: SpecialTokens;
  /**
   * Pieces that hold "▁" after another character (Gemma has one, ">▁</"). Without any, no merge can
   * cross the start of a word (a run of "▁" and what follows), so each word can be merged alone
   * and its tokens reused: the same result, and fast on long prompts. Null: too many to work around.
   */
  private readonly innerSpace: string[] | null;
  private readonly cache = new PieceCache();

  constructor(v: Vocabulary) {
    this.bos = v.bos;
    this.addBos = v.addBos;
    this.addSpacePrefix = v.addSpacePrefix;
    let unknown = -1;
    v.tokens.forEach((t, id) => {
      const type = v.types[id];
      if (type === TokenType.byte) {
        const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(t);
        if (m) this.byteIds[parseInt(m[1]!, 16)] = id;
        return;
      }
      if (type === TokenType.unknown && unknown < 0) unknown = id;
      // User-defined pieces merge like normal ones: Gemma's runs of "▁" are user-defined.
      if ((type === TokenType.normal || type === TokenType.userDefined) && !this.ids.has(t)) this.ids.set(t, id);
    });
    this.unknown = unknown;
    // Scores become ranks (0 = highest) so the shared merge loop, which takes the lowest rank
    // first, takes the highest score first; equal scores share a rank, leaving position to decide.
    const order = [...this.ids.values()].sort((a, b) => v.scores[b]! - v.scores[a]!);
    const rank = new Int32Array(v.tokens.length);
    let r = 0;
    order.forEach((id, i) => {
      if (i > 0 && v.scores[id] !== v.scores[order[i - 1]!]) r++;
      rank[id] = r;
    });
    // Pairs are looked up as merging meets them (is their concatenation a piece?) and remembered:
    // building every split of 262,144 Gemma pieces up front took seconds before the first count.
    this.pairs = new ScoredPairs(v.tokens, this.ids, rank);
    this.special = new SpecialTokens(v.tokens, v.types);
    const inner = [...this.ids.keys()].filter((t) => /[^▁]▁/.test(t));
    this.innerSpace = inner.length <= 64 ? inner : null;
  }

  encode(text: string): number[] {
    const out: number[] = [];
    let first = true;
    for (const seg of this.special.split(text)) {
      if ('special' in seg) out.push(seg.special);
      else this.encodeOrdinary(first && this.addSpacePrefix ? ` ${seg.text}` : seg.text, out);
      first = false;
    }
    return out;
  }

  count(text: string): number {
    return this.encode(text).length;
  }

  private encodeOrdinary(raw: string, out: number[]): void {
    const text = raw.replaceAll(' ', SPACE);
    if (this.innerSpace === null) {
      this.encodeRun(text, out);
      return;
    }
    let from = 0;
    for (const at of this.wordStarts(text)) {
      this.encodeWord(text.slice(from, at), out);
      from = at;
    }
    this.encodeWord(text.slice(from), out);
  }

  /** Where a run of "▁" follows another character, except inside a piece that spans such a place. */
  private wordStarts(text: string): number[] {
    const blocked = new Set<number>();
    for (const piece of this.innerSpace ?? []) {
      for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + 1)) {
        for (let i = at + 1; i < at + piece.length; i++) blocked.add(i);
      }
    }
    const starts: number[] = [];
    for (let i = text.indexOf(SPACE, 1); i > 0; i = text.indexOf(SPACE, i + 1)) {
      if (text[i - 1] !== SPACE && !blocked.has(i)) starts.push(i);
    }
    return starts;
  }

  private encodeWord(word: string, out: number[]): void {
    if (word === '') return;
    this.cache.encode(word, out, (w, tokens) => this.encodeRun(w, tokens));
  }

  private encodeRun(text: string, out: number[]): void {
    const chars = Array.from(text);
    for (let s = 0; s < chars.length; s += MAX_SYMBOLS) this.mergeRun(chars.slice(s, s + MAX_SYMBOLS), out);
  }

  private mergeRun(chars: readonly string[], out: number[]): void {
    const n = chars.length;
    const symbols = symbolBuffer(n);
    // A character outside the vocabulary is a negative symbol (never paired): -1 - its index.
    for (let i = 0; i < n; i++) symbols[i] = this.ids.get(chars[i]!) ?? -1 - i;
    const merged: number[] = [];
    mergeSymbols(this.pairs, n, merged);
    for (const t of merged) {
      if (t >= 0) out.push(t);
      else this.fallback(chars[-1 - t]!, out);
    }
  }

  private fallback(char: string, out: number[]): void {
    const bytes = Buffer.from(char, 'utf8');
    if (bytes.every((b) => this.byteIds[b]! >= 0)) for (const b of bytes) out.push(this.byteIds[b]!);
    else if (this.unknown >= 0) out.push(this.unknown);
  }
}

/** Merges met so far, each (left, right) with its piece's rank, or remembered as no piece. */
class ScoredPairs extends PairMap {
  private static readonly MAX_PAIRS = 1 << 22;

  constructor(
    private readonly texts: readonly string[],
    private readonly ids: ReadonlyMap<string, number>,
    private readonly rank: Int32Array,
  ) {
    super(1 << 16);
  }

  override find(left: number, right: number): number {
    if (left < 0 || right < 0) return -1;
    let slot = super.find(left, right);
    if (slot < 0) {
      if (this.size >= ScoredPairs.MAX_PAIRS) this.clear();
      const id = this.ids.get(this.texts[left]! + this.texts[right]!);
      this.set(left, right, id === undefined ? -1 : this.rank[id]!, id ?? -1);
      slot = super.find(left, right);
    }
    return this.rankAt(slot) < 0 ? -1 : slot;
  }
}
