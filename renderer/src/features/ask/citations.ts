import type { Candidate, Citation } from '../../common/types';
import { formatPlace } from '../../common/format';
import type { CiteNode } from './remark-cites';
import { CHECK_WORDS, type Check } from '../../common/words';

export type ChipCheck = Check | 'pending';

export interface ChipInfo {
  chunkId: string;
  n: number;
  check: ChipCheck;
  path: string | null;
  lines: [number, number] | null;
  /** For PDFs: the pages the source spans. */
  pages: [number, number] | null;
  /** The sentence this marker cites for, once the answer is checked. */
  sentence: string | null;
  /** The chunks sent to the model with the cited one (a whole section perhaps): the source panel's context. */
  sent: readonly string[] | null;
}

/**
 * What a citation chip shows: its number, where the source is, and (once the final result is in)
 * how well it supports its sentence. The k-th marker citing an id maps to the k-th checked
 * citation of that id, since the checker lists citations in the order of the answer.
 */
export function chipInfo(
  cite: CiteNode,
  citations: readonly Citation[] | null,
  candidates: readonly Candidate[],
  sources: ReadonlyArray<{ chunkId: string; chunkIds: readonly string[] }> = [],
): ChipInfo {
  const candidate = candidates.find((c) => c.chunkId === cite.chunkId);
  const sent = sources.find((s) => s.chunkId === cite.chunkId)?.chunkIds ?? null;
  const base = { chunkId: cite.chunkId, n: cite.n, path: candidate?.path ?? null, lines: candidate?.lines ?? null, pages: candidate?.pages ?? null, sentence: null, sent };
  if (!citations) return { ...base, check: 'pending' };
  const mine = citations.filter((c) => c.chunkId === cite.chunkId);
  const c = mine[cite.occurrence] ?? mine[mine.length - 1];
  if (!c) return { ...base, check: candidate?.sent ? 'pending' : 'unknown-source' };
  return { ...base, check: c.check, path: c.path ?? base.path, lines: c.lines ?? base.lines, pages: c.pages ?? base.pages, sentence: c.sentence };
}

/** "Source 1: notes/keys.md lines 3–9, supported"; "Source 2: guide.pdf p. 12, weakly supported". */
export function chipLabel(info: ChipInfo): string {
  const where = info.path ? `${info.path} ${formatPlace(info.lines, info.pages)}` : 'not among the passages sent';
  return `Source ${info.n}: ${where}, ${CHECK_WORDS[info.check]}`;
}
