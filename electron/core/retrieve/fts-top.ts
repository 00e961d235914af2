import type { Db } from '../db/open';
import { stmt } from '../db/statements';
import { inScopeSql } from './scope';

/**
 * The best `limit` rows of an FTS5 table by weighted bm25 for an OR of quoted terms, the same rows
 * and scores as `ORDER BY bm25 LIMIT` over every match, without scoring every match.
 *
 * Why: scoring is FTS5's per-row cost (a bm25 per matching row), and a question's common words
 * ("file", "use", "command") match half of a large archive: measured on 100k chunks, listing the
 * matches takes about 1 ms and scoring them 25 ms (p95). So the rows are scored in two passes
 * (MaxScore, as search engines prune): the rare terms' matches, the candidates, are scored with
 * every term; a row matching only common terms scores at most the sum of those terms' ceilings
 * (bm25 gives a term at most idf·(k1+1), however often it occurs), so when the limit-th candidate
 * scores above that sum, no other row can enter and the answer is exact. When it does not, the
 * split is moved (fewer common terms, ceiling below the score already reached) or, with no split
 * left, every match is scored as before.
 *
 * One rule is not exact, by design: a term in more than `cutoffShare` (5%) of the rows only adds to
 * the score of rows that also hold a rarer term of the question, as search engines treat very
 * common terms (Elasticsearch's cutoff_frequency, Lucene's CommonTermsQuery). Such a term says
 * little about which passage answers, and listing its matches is most of the work on the slowest
 * questions. Measured on the question sets at 100k chunks (test/bench/perf-lexical.ts): 99.5% of
 * keyword search's top-10 unchanged, p95 from ~37 ms to ~24 ms; the question sets' hit rates
 * unchanged (test/bench/retrieval.ts). A question made only of such terms, or whose rarer terms no
 * row in scope holds (a misspelt word), is scored as if there were no cutoff.
 */

/** FTS5's bm25 constants (fts5_aux.c): a term's share of a row's score is below idf·(k1+1). */
const K1 = 1.2;

export type FtsTable = 'chunks_fts' | 'sections_fts';

/** The external-content table behind each index: its largest rowid bounds the index's row count. */
const CONTENT: Record<FtsTable, string> = { chunks_fts: 'chunks', sections_fts: 'sections' };

/** Only rows of documents in these folders (json array of collection ids), joined per candidate row only. */
const SCOPE_JOIN: Record<FtsTable, string> = {
  chunks_fts: 'JOIN chunks c ON c.rowid = f.rowid JOIN documents d ON d.id = c.document_id',
  sections_fts: 'JOIN sections s ON s.rowid = f.rowid JOIN documents d ON d.id = s.document_id',
};

export interface FtsTopOptions {
  /** Column weights as bm25() takes them. */
  weights: readonly number[];
  /** The scope as `scopeParam` writes it (retrieve/scope.ts), or null for every folder. */
  collections: string | null;
  /** A term matching more than this share of the rows is common (pruned) on the first try. */
  commonShare?: number;
  /** A term in more than this share of the rows only scores rows holding a rarer term (1: never). */
  cutoffShare?: number;
  /** Below this many matches (all terms' together) every match is scored: pruning would not pay. */
  minPostings?: number;
  /** Told of each pruned pass (benchmarks and tests): how many common terms it left out, and whether it was exact. */
  onPass?: (pass: { pruned: number; exact: boolean }) => void;
}

export interface FtsHit {
  rowid: number;
  score: number;
}

const DEFAULT_COMMON_SHARE = 0.02;
const DEFAULT_CUTOFF_SHARE = 0.05;
const DEFAULT_MIN_POSTINGS = 5_000;
const FIRST_GUESS = 1.3;

/** The quoted terms of an expression made only of `"term" OR "term"`; null for any other shape. */
export function orTerms(expression: string): string[] | null {
  const terms = expression.match(/"(?:[^"]|"")*"/g);
  return terms && terms.join(' OR ') === expression ? terms : null;
}

export function ftsTop(db: Db, table: FtsTable, expression: string, limit: number, options: FtsTopOptions): FtsHit[] {
  // One read transaction, so every statement reads one snapshot: the counts, the row-count bound
  // and each pass's rows. Read statement by statement, another process's deletes or imports
  // between them changed the counts the ceilings were built from (a ceiling below a real score)
  // and the rows a later pass saw. A deferred BEGIN takes no lock a writer waits for (WAL).
  return db.transaction(() => topRows(db, table, expression, limit, options)).deferred();
}

function topRows(db: Db, table: FtsTable, expression: string, limit: number, options: FtsTopOptions): FtsHit[] {
  const terms = orTerms(expression);
  if (terms === null || terms.length < 2) return scoreAll(db, table, expression, limit, options);
  const count = stmt(db, `SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`).pluck();
  const postings = terms.map((t) => ({ term: t, n: count.get(t) as number }));
  if (postings.reduce((s, p) => s + p.n, 0) < (options.minPostings ?? DEFAULT_MIN_POSTINGS)) return scoreAll(db, table, expression, limit, options);

  // An upper bound of the row count bm25 uses: a larger N only raises idf, so ceilings stay ceilings.
  // FTS5 counts the live rows and those deleted since the index was last rebuilt (db/keyword-statistics.ts);
  // the largest rowid bounds the first, and a rowid freed at the end is given again, so the second is added.
  const rows = (stmt(db, `SELECT coalesce((SELECT max(rowid) FROM ${CONTENT[table]}), 0) + coalesce((SELECT deleted FROM keyword_index_churn WHERE fts = ?), 0)`).pluck().get(table) as number) ?? 0;
  const idf = (n: number) => Math.max(1e-6, Math.log((rows - n + 0.5) / (n + 0.5)));
  // Most common first: the first j are pruned, with ceiling[j] the most any row matching only them can score.
  const byCount = [...postings].sort((a, b) => b.n - a.n);
  const ceiling = [0];
  for (const p of byCount) ceiling.push(ceiling.at(-1)! + idf(p.n) * (K1 + 1));

  // The terms above the cutoff never bring rows of their own: the split never goes below them.
  const above = byCount.filter((p) => p.n > rows * (options.cutoffShare ?? DEFAULT_CUTOFF_SHARE)).length;
  const cut = above < byCount.length ? above : 0;
  const common = Math.min(byCount.filter((p) => p.n > rows * (options.commonShare ?? DEFAULT_COMMON_SHARE)).length, byCount.length - 1);
  const hits = prune(db, table, expression, limit, options, { byCount, ceiling, idf, common, cut });
  // No row (in scope) holds a rarer term: a misspelt word, or one only other folders hold. The
  // common terms are then all the question has, and they are scored as if there were no cutoff.
  if (hits.length > 0 || cut === 0) return hits;
  return prune(db, table, expression, limit, options, { byCount, ceiling, idf, common, cut: 0 });
}

interface Split {
  /** The terms, most common first, and ceiling[j]: the most a row matching only the first j can score. */
  byCount: ReadonlyArray<{ term: string; n: number }>;
  ceiling: readonly number[];
  idf: (n: number) => number;
  /** How many terms the first pass leaves out. */
  common: number;
  /** The split never goes below this many (the terms above the cutoff); 0: exact. */
  cut: number;
}

function prune(db: Db, table: FtsTable, expression: string, limit: number, options: FtsTopOptions, { byCount, ceiling, idf, common, cut }: Split): FtsHit[] {
  let split = Math.max(cut, common);
  // The limit-th score is not known before the first pass; a row holding the rarest term once
  // scores about its idf, so pruning more than that much ceiling would mostly fail and cost a
  // second pass (measured on the question sets at 100k chunks: 158 of 236 questions took two).
  while (split > cut && ceiling[split]! >= FIRST_GUESS * idf(byCount.at(-1)!.n)) split--;
  while (split > cut) {
    const top = scoreCandidates(db, table, byCount.slice(split).map((p) => p.term), byCount.slice(0, split).map((p) => p.term), limit, options);
    const reached = top.length === limit ? top[limit - 1]!.score : -Infinity;
    options.onPass?.({ pruned: split, exact: reached > ceiling[split]! });
    if (reached > ceiling[split]!) return top;
    // More candidates only raise the limit-th score, so the largest split whose ceiling is below
    // the score already reached is sure to hold.
    let next = split - 1;
    while (next > cut && ceiling[next]! >= reached) next--;
    split = next;
  }
  if (cut > 0) return scoreCandidates(db, table, byCount.slice(cut).map((p) => p.term), byCount.slice(0, cut).map((p) => p.term), limit, options);
  return scoreAll(db, table, expression, limit, options);
}

function scopeSql(table: FtsTable, collections: string | null): { join: string; where: string } {
  return collections === null ? { join: '', where: '' } : { join: SCOPE_JOIN[table], where: `AND ${inScopeSql('collections')}` };
}

function bm25(table: FtsTable, weights: readonly number[]): string {
  return `-bm25(${table}, ${weights.map((w) => Number(w).toFixed(6)).join(', ')})`;
}

function scoreAll(db: Db, table: FtsTable, expression: string, limit: number, options: FtsTopOptions): FtsHit[] {
  const scope = scopeSql(table, options.collections);
  return stmt(
    db,
    `SELECT f.rowid AS rowid, ${bm25(table, options.weights)} AS score FROM ${table} f ${scope.join}
      WHERE ${table} MATCH @expression ${scope.where} ORDER BY score DESC, f.rowid LIMIT @limit`,
  ).all({ expression, limit, ...(options.collections !== null ? { collections: options.collections } : {}) }) as FtsHit[];
}

/**
 * Exact scores of the rows matching a rare term: those also matching a common one are scored by
 * `(rare) AND (common)`, whose terms are every term once, so bm25 gives their full score; the rest
 * match no common term, so their rare-only score is their full score, and only the best `limit`
 * of those can matter (any other has `limit` rows above it).
 */
function scoreCandidates(db: Db, table: FtsTable, rare: string[], common: string[], limit: number, options: FtsTopOptions): FtsHit[] {
  const rareExpr = rare.join(' OR ');
  const both = `(${rareExpr}) AND (${common.join(' OR ')})`;
  const scope = scopeSql(table, options.collections);
  const params = options.collections !== null ? { collections: options.collections } : {};
  const sql = `SELECT f.rowid AS rowid, ${bm25(table, options.weights)} AS score FROM ${table} f ${scope.join}
      WHERE ${table} MATCH @expression ${scope.where} ORDER BY score DESC, f.rowid LIMIT @limit`;
  // Only the best `limit` of `both` can matter. A row of `both` below them is also met by the
  // rare-only query with a lower (partial) score, so it still has `limit` rows above it.
  const full = new Map<number, number>();
  for (const r of stmt(db, sql).all({ expression: both, limit, ...params }) as FtsHit[]) full.set(r.rowid, r.score);
  const merged: FtsHit[] = [...full].map(([rowid, score]) => ({ rowid, score }));
  for (const r of stmt(db, sql).all({ expression: rareExpr, limit, ...params }) as FtsHit[]) if (!full.has(r.rowid)) merged.push(r);
  merged.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  return merged.slice(0, limit);
}
