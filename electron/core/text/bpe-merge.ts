// The merge loop every BPE-style tokenizer in Quire shares: cl100k for chunk sizes
// (text/tokenizer.ts) and each model's own vocabulary for prompt budgets (core/tokens/), both
// byte-level BPE with ranked merges and SentencePiece with scored pieces.
//
// A sequence of symbols (token ids) is merged pair by pair, always the pair of lowest rank first,
// leftmost among equals. A heap keyed on rank and position makes that O(n log n) where the naive
// rescan is O(n²): one long run of letters (a DNA sequence, a line of base64) would otherwise cost
// seconds. Stale heap entries are skipped: the pair starting at a position only ever grows, and an
// entry is acted on only if that position's pair still has the entry's rank.

/**
 * (left, right) -> the rank of merging them and the token it makes. Open addressing over typed
 * arrays: a probe is one float compare, and building it allocates nothing per entry.
 */
export class PairMap {
  private keys: Float64Array;
  private ranks: Int32Array;
  private results: Int32Array;
  private mask: number;
  size = 0;

  constructor(expected: number) {
    let slots = 1024;
    while (slots < expected * 2) slots *= 2;
    this.keys = new Float64Array(slots).fill(-1);
    this.ranks = new Int32Array(slots);
    this.results = new Int32Array(slots);
    this.mask = slots - 1;
  }

  private slotOf(left: number, right: number): number {
    return (Math.imul(left, 0x9e3779b1) ^ Math.imul(right, 0x85ebca77)) & this.mask;
  }

  /** Keeps the first (lowest-ranked) entry for a pair: later duplicates change nothing. */
  set(left: number, right: number, rank: number, result: number): void {
    if ((this.size + 1) * 2 > this.mask) this.grow();
    const key = left * KEY_SPAN + right;
    let slot = this.slotOf(left, right);
    while (this.keys[slot] !== -1) {
      if (this.keys[slot] === key) return;
      slot = (slot + 1) & this.mask;
    }
    this.keys[slot] = key;
    this.ranks[slot] = rank;
    this.results[slot] = result;
    this.size++;
  }

  /** Twice the slots, every entry placed again. */
  private grow(): void {
    const { keys, ranks, results } = this;
    const slots = keys.length * 2;
    this.keys = new Float64Array(slots).fill(-1);
    this.ranks = new Int32Array(slots);
    this.results = new Int32Array(slots);
    this.mask = slots - 1;
    this.size = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === -1) continue;
      const right = key % KEY_SPAN;
      this.set((key - right) / KEY_SPAN, right, ranks[i]!, results[i]!);
    }
  }

  /** Forgets every pair (a table filled lazily can be emptied when it grows too large). */
  clear(): void {
    this.keys.fill(-1);
    this.size = 0;
  }

  /** The slot holding (left, right), or -1. Negative ids (symbols outside the vocabulary) never pair. */
  find(left: number, right: number): number {
    if (left < 0 || right < 0) return -1;
    const key = left * KEY_SPAN + right;
    for (let slot = this.slotOf(left, right); ; slot = (slot + 1) & this.mask) {
      const k = this.keys[slot]!;
      if (k === key) return slot;
      if (k === -1) return -1;
    }
  }

  rankAt(slot: number): number {
    return this.ranks[slot]!;
  }

  resultAt(slot: number): number {
    return this.results[slot]!;
  }
}

/** Larger than any vocabulary's id: (left, right) packs exactly into one double. */
const KEY_SPAN = 1 << 22;

// Scratch arrays, grown on demand and reused: merging is synchronous and never re-entered, and
// allocating per pre-token would dominate for short ones.
let tok = new Int32Array(256);
let next = new Int32Array(256);
let prev = new Int32Array(256);
let pairRank = new Int32Array(256);
let pairResult = new Int32Array(256);
// Heap entries are rank * POS_SPAN + position in one double: one load and one compare per step.
const POS_SPAN = 1 << 20;
let heap = new Float64Array(768);
let heapSize = 0;

/** Symbols longer than this are merged in slices by the callers; bounds positions in the heap key. */
export const MAX_SYMBOLS = POS_SPAN - 1;

/** The array to write a sequence's n initial symbols into before mergeSymbols(pairs, n, out). */
export function symbolBuffer(n: number): Int32Array {
  if (n > MAX_SYMBOLS) throw new Error(`bpe-merge: ${n} symbols in one piece`);
  if (tok.length < n + 1) {
    const size = 2 * n + 2;
    tok = new Int32Array(size);
    next = new Int32Array(size);
    prev = new Int32Array(size);
    pairRank = new Int32Array(size);
    pairResult = new Int32Array(size);
    heap = new Float64Array(3 * size);
  }
  return tok;
}

function heapPush(rank: number, pos: number): void {
  const key = rank * POS_SPAN + pos;
  let i = heapSize++;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const above = heap[parent]!;
    if (above <= key) break;
    heap[i] = above;
    i = parent;
  }
  heap[i] = key;
}

function heapPop(): void {
  const key = heap[--heapSize]!;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= heapSize) break;
    const r = l + 1;
    const c = r < heapSize && heap[r]! < heap[l]! ? r : l;
    if (heap[c]! >= key) break;
    heap[i] = heap[c]!;
    i = c;
  }
  heap[i] = key;
}

const DEAD = -2;

function updatePair(pairs: PairMap, i: number, n: number): void {
  const j = next[i]!;
  const slot = j < n ? pairs.find(tok[i]!, tok[j]!) : -1;
  if (slot < 0) {
    pairRank[i] = -1;
    return;
  }
  const rank = pairs.rankAt(slot);
  pairRank[i] = rank;
  pairResult[i] = pairs.resultAt(slot);
  if (heapSize + 1 >= heap.length) growHeap();
  heapPush(rank, i);
}

function growHeap(): void {
  const bigger = new Float64Array(heap.length * 2);
  bigger.set(heap);
  heap = bigger;
}

/** Merges the first n symbols of symbolBuffer() and appends the resulting symbols to out. */
export function mergeSymbols(pairs: PairMap, n: number, out: number[]): void {
  heapSize = 0;
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  for (let i = 0; i < n; i++) updatePair(pairs, i, n);
  while (heapSize > 0) {
    const top = heap[0]!;
    const rank = Math.floor(top / POS_SPAN);
    const i = top - rank * POS_SPAN;
    heapPop();
    if (pairRank[i] !== rank) continue;
    const j = next[i]!;
    const k = next[j]!;
    tok[i] = pairResult[i]!;
    next[i] = k;
    if (k < n) prev[k] = i;
    pairRank[j] = DEAD;
    updatePair(pairs, i, n);
    const before = prev[i]!;
    if (before >= 0) updatePair(pairs, before, n);
  }
  for (let i = 0; i < n; i = next[i]!) out.push(tok[i]!);
}

/**
 * Tokens of repeated pieces (common words, the same slice of a periodic blob), merged once. Bounded
 * by entries and by characters held, cleared wholesale: cheaper than LRU bookkeeping and good
 * enough here. A piece longer than `maxKey` is never kept.
 */
export class PieceCache {
  private readonly map = new Map<string, number[]>();
  private chars = 0;

  constructor(
    private readonly maxEntries = 50_000,
    private readonly maxChars = 8_000_000,
    private readonly maxKey = 65_536,
  ) {}

  /** Appends the piece's tokens to `out`, computed by `encode` when not held. */
  encode(piece: string, out: number[], encode: (piece: string, out: number[]) => void): void {
    const held = this.map.get(piece);
    if (held) {
      for (const t of held) out.push(t);
      return;
    }
    const tokens: number[] = [];
    encode(piece, tokens);
    if (piece.length <= this.maxKey) {
      if (this.chars + piece.length > this.maxChars || this.map.size >= this.maxEntries) {
        this.map.clear();
        this.chars = 0;
      }
      this.map.set(piece, tokens);
      this.chars += piece.length;
    }
    for (const t of tokens) out.push(t);
  }
}
