import type { Db } from '../db/open';
import type { Ranked } from './fusion';
import { toMatchExpression } from './fts-query';
import { ftsTop } from './fts-top';
import { chunkPositions, chunkTexts, positionKey, rowidsAt } from './lexical-rows';
import { scopeParam, type ScopeFilter } from './scope';

/**
 * Heading path weighs twice the body: a query naming a section should find that section. The
 * folder (migration 0013) weighs as much as the body: a question naming it ("on windows") prefers
 * the notes filed there, but a folder word is no stronger evidence than the same word in the text.
 */
const HEADING_WEIGHT = 2.0;
const BODY_WEIGHT = 1.0;
const FOLDER_WEIGHT = 1.0;

/**
 * How a chunk's keyword score is made, each part as a share of the best of its kind for this query:
 * the chunk's own bm25, plus its section's bm25 (the section indexed whole, see migration 0004),
 * plus the better of its two neighbours' bm25 within the section, plus the share of the code the
 * question quotes (`Box<T>`, `&mut`) that the chunk holds literally. People's questions name a topic
 * and ask about a detail: the topic's words sit in the heading and first paragraph, the detail in
 * a later chunk that shares few of them. Measured on the rust-book and tldr question sets
 * (test/bench/retrieval.ts); the weights are round numbers, not fitted to either set.
 */
export const LEXICAL_WEIGHTS = { chunk: 1, section: 0.5, neighbour: 0.3, code: 0.3 } as const;

/** Candidates read from each index before rescoring. */
const CHUNK_CANDIDATES = 300;
const SECTION_CANDIDATES = 100;
/** Neighbours of this many best chunks are candidates. */
const NEIGHBOURS_OF = 50;

interface Section {
  section: number | null;
  first_ordinal: number | null;
  last_ordinal: number | null;
}

interface ChunkHit extends Section {
  rowid: number;
  score: number;
  document_id: string;
  ordinal: number;
}

interface SectionHit {
  rowid: number;
  score: number;
}

/**
 * Keyword search: chunks ranked by their own, their section's and their neighbours' bm25. Each
 * result carries its score (higher is better) for weighted fusion.
 */
export function lexicalSearch(db: Db, query: string, limit: number, filter: ScopeFilter = {}): Ranked[] {
  const expression = toMatchExpression(query);
  if (expression === null) return [];
  const collections = scopeParam(filter);
  // Only the best candidates are looked up: joining every match to its chunk and section before
  // the limit cost more than the search itself at 100k chunks (test/bench/perf-lexical.ts).
  const weights = [HEADING_WEIGHT, BODY_WEIGHT, FOLDER_WEIGHT];
  const chunkHits: ChunkHit[] = chunkPositions(db, ftsTop(db, 'chunks_fts', expression, Math.max(CHUNK_CANDIDATES, limit), { weights, collections }));
  if (chunkHits.length === 0) return [];
  const sectionHits: SectionHit[] = ftsTop(db, 'sections_fts', expression, SECTION_CANDIDATES, { weights, collections });

  const chunkBest = Math.max(...chunkHits.map((h) => h.score), Number.MIN_VALUE);
  const sectionBest = Math.max(...sectionHits.map((h) => h.score), Number.MIN_VALUE);
  const key = positionKey;
  const chunkScore = new Map(chunkHits.map((h) => [key(h.document_id, h.ordinal), h.score / chunkBest]));
  const sectionScore = new Map(sectionHits.map((h) => [h.rowid, h.score / sectionBest]));

  // Every candidate chunk, by position, with its section; a rowid not yet known is looked up once.
  type Candidate = Section & { rowid: number | null; document_id: string; ordinal: number };
  const candidates = new Map<string, Candidate>();
  const add = (c: Candidate) => {
    if (!candidates.has(key(c.document_id, c.ordinal))) candidates.set(key(c.document_id, c.ordinal), c);
  };
  for (const h of chunkHits) add(h);
  // A chunk that matches nothing is a candidate only beside one that does, within its section (the
  // next section is another topic). Opening whole sections measured no better, and floods the
  // results from a long document without headings, which is one section.
  for (const h of chunkHits.slice(0, NEIGHBOURS_OF)) {
    for (const o of [h.ordinal - 1, h.ordinal + 1]) if (h.section !== null && o >= h.first_ordinal! && o <= h.last_ordinal!) add({ ...h, rowid: null, ordinal: o });
  }

  // Candidates' rowids and texts in one statement each, not one per candidate.
  const unknown = rowidsAt(db, [...candidates.values()].filter((c) => c.rowid === null));
  const literals = codeLiterals(query);
  const texts = literals.length > 0 ? chunkTexts(db, [...candidates.values()].map((c) => c.rowid ?? unknown.get(key(c.document_id, c.ordinal))).filter((r): r is number => r !== undefined)) : new Map<number, string>();
  const codeScore = (rowid: number) => {
    if (literals.length === 0) return 0;
    const text = texts.get(rowid) ?? '';
    // A one- or two-character literal (`?`, `_`) is everywhere as punctuation: it counts only as code in the text.
    return literals.filter((l) => (l.length >= 3 ? text.includes(l) : text.includes(`\`${l}\``))).length / literals.length;
  };
  const scored: Array<{ rowid: number; score: number }> = [];
  for (const c of candidates.values()) {
    const rowid = c.rowid ?? unknown.get(key(c.document_id, c.ordinal));
    if (rowid === undefined) continue;
    const inSection = (o: number) => c.section !== null && o >= c.first_ordinal! && o <= c.last_ordinal!;
    const neighbour = Math.max(
      inSection(c.ordinal - 1) ? (chunkScore.get(key(c.document_id, c.ordinal - 1)) ?? 0) : 0,
      inSection(c.ordinal + 1) ? (chunkScore.get(key(c.document_id, c.ordinal + 1)) ?? 0) : 0,
    );
    const score =
      LEXICAL_WEIGHTS.chunk * (chunkScore.get(key(c.document_id, c.ordinal)) ?? 0) +
      LEXICAL_WEIGHTS.section * (c.section !== null ? (sectionScore.get(c.section) ?? 0) : 0) +
      LEXICAL_WEIGHTS.neighbour * neighbour +
      LEXICAL_WEIGHTS.code * codeScore(rowid);
    if (score > 0) scored.push({ rowid, score });
  }
  scored.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  return scored.slice(0, limit).map((s, i) => ({ rowid: s.rowid, rank: i + 1, score: s.score }));
}

/**
 * Code a person typed: `backticked` spans, and tokens that only code has (`Box<T>`, `&mut`, `->`,
 * `Rc::clone`, `#[derive(Debug)]`, `parse::<u32>()`). A word tokenizer drops or splits their
 * symbols, so they are matched as literal text in the candidates instead.
 */
export function codeLiterals(query: string): string[] {
  const found = new Set<string>();
  for (const m of query.matchAll(/`([^`\n]{1,100})`/g)) found.add(m[1]!.trim());
  const bare = query.replace(/`[^`\n]*`/g, ' ');
  for (const token of bare.split(/\s+/)) {
    const t = token.replace(/[?,.;:!]+$/, '');
    if (t.length >= 2 && /[\p{L}\p{N}_]/u.test(t) && /[<>&#[\]]|->|::|\(\)/.test(t)) found.add(t);
  }
  return [...found].filter((l) => l.length > 0);
}
