/**
 * How hybrid search joins its keyword and vector rankings, written as a short spec so settings, the
 * CLI and an evaluation's grid can all name it:
 *
 * - `weighted:0.2` (the default) — 0.2 × the vector score plus 0.8 × the keyword score, each scaled
 *   to [0, 1] for the query (retrieve/fusion.ts): a convex combination, which lets a strong
 *   embedding model count for more, or a weak one for less, than keywords.
 * - `rrf:60` — reciprocal rank fusion with constant 60: each list adds 1/(k + rank), whatever its
 *   scores. It gives a weak list the same say as a strong one.
 *
 * Why the default is weighted:0.2 (test/bench/retrieval.ts, docs/ARCHITECTURE.md): with a real but
 * weak model (the Universal Sentence Encoder lite) rrf:60 ranked far below keyword search alone
 * (Rust book hit@1 39% against 70%), while a share of 0.1 to 0.2 stayed level with keywords on the
 * tuned sets and gained on the held-out ones; 0.25 and more began to lose. The largest share before
 * that, since a stronger model deserves more. Published comparisons with strong models also find a
 * convex combination ahead of RRF.
 */
export type Fusion = { kind: 'rrf'; k: number } | { kind: 'weighted'; dense: number };

export const DEFAULT_FUSION: Fusion = { kind: 'weighted', dense: 0.2 };

/**
 * Each kind's number and its bounds: what parseFusion accepts, what FUSION_USAGE says and what the
 * Settings form offers (a choice of kind plus the number), so the rules are written once. `example`
 * is the number offered when a kind is chosen; rrf's is also the k a bare `rrf` means.
 */
export const FUSION_KINDS = {
  rrf: { label: 'Reciprocal rank', number: 'Rank constant (k)', min: 1, max: 1000, step: 1, example: 60 },
  // Weighted's example is the default share, offered when the method is chosen.
  weighted: { label: 'Weighted', number: "Vectors' share (w)", min: 0, max: 1, step: 0.05, example: 0.2 },
} as const;
export type FusionKind = keyof typeof FUSION_KINDS;

const { rrf: RRF, weighted: WEIGHTED } = FUSION_KINDS;

/** What a kind's number may be, in words: "a whole number from 1 to 1000". */
export function fusionNumberRule(kind: FusionKind): string {
  const b = FUSION_KINDS[kind];
  return `${kind === 'rrf' ? 'a whole number' : 'a number'} from ${b.min} to ${b.max}`;
}

export const FUSION_USAGE = `expected rrf:<k> (k ${fusionNumberRule('rrf')}) or weighted:<w> (w, the vectors' share, ${fusionNumberRule('weighted')})`;

/** Parses a spec; null when it is not one (the caller says why, in its own words). */
export function parseFusion(spec: string): Fusion | null {
  const m = /^\s*(rrf|weighted)(?::\s*([0-9]*\.?[0-9]+))?\s*$/i.exec(spec);
  if (!m) return null;
  const kind = m[1]!.toLowerCase();
  if (kind === 'rrf') {
    const k = m[2] === undefined ? RRF.example : Number(m[2]);
    return Number.isInteger(k) && k >= RRF.min && k <= RRF.max ? { kind: 'rrf', k } : null;
  }
  if (m[2] === undefined) return null;
  const dense = Number(m[2]);
  return dense >= WEIGHTED.min && dense <= WEIGHTED.max ? { kind: 'weighted', dense } : null;
}

/** The canonical spec: parseFusion(formatFusion(f)) equals f. */
export function formatFusion(f: Fusion): string {
  return f.kind === 'rrf' ? `rrf:${f.k}` : `weighted:${f.dense}`;
}
