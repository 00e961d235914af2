import { bitTableName } from '../db/bit-vectors';
import type { EmbeddingModelRow } from '../db/embedding-models';
import type { Db } from '../db/open';
import { stmt } from '../db/statements';

/**
 * The coarse pass of two-stage search over an in-memory copy of a model's sign bits (100k × 768
 * bits is 9.6 MB): popcount of XORed 32-bit words, then a counting sort on the Hamming distance
 * (0 … D), so it costs the same whatever k is. The copy is reloaded whenever the model's
 * bits_version (bumped by every write of bits, from any process) has moved. Measured at 100k × 768:
 * SQLite's ORDER BY vec_distance_hamming … LIMIT 800 took about 20 ms, most of it calling the
 * function per row; this takes a few (npm run perf:dense).
 */
interface Copy {
  version: number;
  rowids: Float64Array;
  words: Int32Array;
  wordsPerRow: number;
}

const copies = new WeakMap<Db, Map<number, Copy>>();
/** The bits_version each model's last coarse pass saw. */
const seen = new WeakMap<Db, Map<number, number>>();

/**
 * The k rows nearest to `bits` by Hamming distance, nearest first, ties by rowid (as coarseSql
 * orders them); null when the copy is stale and the bits are still moving, for SQL to answer.
 * Reloading the copy at 100k × 768 took about 175 ms against 12 ms for SQL's scan (and 4 ms for the
 * held copy), and during an import every search finds a new version: so a copy is reloaded only
 * once two passes in a row saw the same version, and the passes in between go to SQL.
 */
export function nearestByBits(db: Db, model: EmbeddingModelRow, version: number, bits: Buffer, k: number): number[] | null {
  let byModel = copies.get(db);
  if (!byModel) copies.set(db, (byModel = new Map()));
  let seenBy = seen.get(db);
  if (!seenBy) seen.set(db, (seenBy = new Map()));
  const steady = seenBy.get(model.id) === version;
  seenBy.set(model.id, version);
  if (byModel.get(model.id)?.version !== version && !steady) return null;
  const copy = current(db, byModel, model, version);
  const n = copy.rowids.length;
  if (n === 0 || k <= 0) return [];
  const w = copy.wordsPerRow;
  const q = toWords(bits, w);
  const distance = new Uint16Array(n);
  const counts = new Int32Array(w * 32 + 1);
  const words = copy.words;
  for (let i = 0; i < n; i++) {
    let d = 0;
    const o = i * w;
    for (let j = 0; j < w; j++) {
      let x = words[o + j]! ^ q[j]!;
      x -= (x >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      d += (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
    }
    distance[i] = d;
    counts[d]!++;
  }
  // The smallest distance within which k rows lie; rows are in rowid order, so buckets keep it.
  let cutoff = 0;
  for (let seen = counts[0]!; seen < k && cutoff < counts.length - 1; ) seen += counts[++cutoff]!;
  const start = new Int32Array(cutoff + 2);
  for (let d = 0; d <= cutoff; d++) start[d + 1] = start[d]! + counts[d]!;
  const order = new Float64Array(start[cutoff + 1]!);
  const fill = start.slice(0, cutoff + 1);
  for (let i = 0; i < n; i++) {
    const d = distance[i]!;
    if (d <= cutoff) order[fill[d]!++] = copy.rowids[i]!;
  }
  return Array.from(order.subarray(0, Math.min(k, order.length)));
}

/** Lets a model's copy go (its bits were dropped): about 10 MB at 100k × 768, held until the database closes otherwise. */
export function releaseBits(db: Db, modelId: number): void {
  copies.get(db)?.delete(modelId);
}

/** The models whose copy is held, and the bits_version each copy is of (for tests). */
export function heldCopies(db: Db): Array<[modelId: number, version: number]> {
  return [...(copies.get(db)?.entries() ?? [])].map(([id, c]) => [id, c.version]);
}

function current(db: Db, byModel: Map<number, Copy>, model: EmbeddingModelRow, version: number): Copy {
  const held = byModel.get(model.id);
  if (held && held.version === version) return held;
  const rows = stmt(db, `SELECT rowid, bits FROM ${bitTableName(model)} ORDER BY rowid`).raw().all() as Array<[number, Buffer]>;
  const wordsPerRow = Math.ceil(model.dimension / 32);
  const copy: Copy = { version, rowids: new Float64Array(rows.length), words: new Int32Array(rows.length * wordsPerRow), wordsPerRow };
  rows.forEach(([rowid, b], i) => {
    copy.rowids[i] = rowid;
    copy.words.set(toWords(b, wordsPerRow), i * wordsPerRow);
  });
  byModel.set(model.id, copy);
  return copy;
}

/** Packed bytes as 32-bit words, zero-padded: XOR of the padding is 0, so distances are unchanged. */
function toWords(bytes: Buffer, words: number): Int32Array {
  const padded = new Uint8Array(words * 4);
  padded.set(bytes.subarray(0, Math.min(bytes.length, padded.length)));
  return new Int32Array(padded.buffer);
}
