/**
 * How hybrid search joins its keyword and vector rankings, written as a short spec so settings, the
 * CLI and an evaluation's grid can all name it:
 *
 * - `rrf:60` — reciprocal rank fusion with constant 60 (the default): each list adds 1/(k + rank);
 *   scale-free, so neither list's score range can drown the other.
 * - `weighted:0.3` — 0.3 × the vector similarity plus 0.7 × the keyword score, each divided by its
 *   best value for the query: lets a strong embedding model count for more (or less) than keywords.
 */
export type Fusion = { kind: 'rrf'; k: number } | { kind: 'weighted'; dense: number };

export const DEFAULT_FUSION: Fusion = { kind: 'rrf', k: 60 };
export const FUSION_USAGE = 'expected rrf:<k> (k a whole number from 1 to 1000) or weighted:<w> (w, the vectors\' share, from 0 to 1)';

/** Parses a spec; null when it is not one (the caller says why, in its own words). */
export function parseFusion(spec: string): Fusion | null {
  const m = /^\s*(rrf|weighted)(?::\s*([0-9]*\.?[0-9]+))?\s*$/i.exec(spec);
  if (!m) return null;
  const kind = m[1]!.toLowerCase();
  if (kind === 'rrf') {
    const k = m[2] === undefined ? 60 : Number(m[2]);
    return Number.isInteger(k) && k >= 1 && k <= 1000 ? { kind: 'rrf', k } : null;
  }
  if (m[2] === undefined) return null;
  const dense = Number(m[2]);
  return dense >= 0 && dense <= 1 ? { kind: 'weighted', dense } : null;
}

/** The canonical spec: parseFusion(formatFusion(f)) equals f. */
export function formatFusion(f: Fusion): string {
  return f.kind === 'rrf' ? `rrf:${f.k}` : `weighted:${f.dense}`;
}
