import { toErrorShape, type QuireErrorShape } from '../../../shared/errors';
import { buildBatch, buildOf, schemaIsNewer, startBuild, type KeywordIndex } from './keyword-index-build';
import type { Db } from './open';
import { stmt } from './statements';

export type { KeywordIndex } from './keyword-index-build';

/**
 * Keeps bm25's corpus statistics true. Both full-text indexes are contentless with
 * contentless_delete=1 (migration 0013), and FTS5 does not take a row deleted from such a table out
 * of the totals bm25 reads: the row count and each column's token count (checked on SQLite 3.53:
 * four rows, two deleted, the totals still say four). Every re-imported, moved or deleted document
 * leaves its old chunks counted, so a folder whose notes are edited drifts from the statistics of
 * its own text: every idf grows and the rare words' share of a score with it. Measured on the Rust
 * book re-imported once (every row counted twice), keyword search's fact sent fell from 91 to 87%
 * and hit@5 from 94 to 91% (npm run bench:retrieval, rust-book, an index re-cut in place).
 *
 * FTS5 offers no recount for a contentless table, so each delete trigger counts the rows it
 * deletes (migration 0017) and an index is rebuilt from what the database holds once its deleted
 * rows reach REBUILD_SHARE of its live rows, once per tenth of the folder replaced. At a tenth, a
 * rare word's idf is off by about ln 1.1 ≈ 0.1.
 *
 * The rebuild is a shadow index filled in batches (db/keyword-index-build.ts), each batch a write
 * transaction of about BATCH_MS with a pause as long after it: searches read the old index until
 * the last batch swaps the new one in, this thread answers between batches, and another
 * connection's write waits about a batch (test/bench/perf-searchable.ts's header: at 100,000
 * chunks the longest transaction 181 ms where the one it replaces held the lock 6–18 s and made
 * another process's writes fail after their 5 s busy timeout; the whole rebuild twice as long).
 * A row deleted from the shadow while it is built (one already copied) stays in its totals, as
 * in any contentless_delete table (FTS5 refuses its 'delete' command there), so the new index
 * starts with those as its churn, not zero.
 *
 * The shadow's many small commits leave FTS5 more segments than one big insert would (merged by
 * its automerge as they come); twelve keyword queries at 90,000 chunks took 77 ms on it and 86 ms
 * on an index built in one insert (the same bench).
 */
export const REBUILD_SHARE = 0.1;

/**
 * A batch's target length. Each batch's row count is scaled from the last one's time towards it:
 * rows cost what their text does (a section holds about four chunks' text), and a busy machine
 * slows every row alike.
 */
export const BATCH_MS = 100;
const FIRST_BATCH_ROWS = 200;
const MIN_PAUSE_MS = 10;
const MAX_BATCH_ROWS = 20_000;

const LIVE_ROWS: Record<KeywordIndex, string> = { chunks_fts: 'SELECT count(*) FROM chunks', sections_fts: 'SELECT count(*) FROM sections' };

export interface Churn {
  fts: KeywordIndex;
  /** Rows deleted since the index was built (from its shadow too, while that was built): still in bm25's totals. */
  deleted: number;
  /** Rows the index holds. */
  rows: number;
}

export function keywordIndexChurn(db: Db): Churn[] {
  const deleted = new Map((stmt(db, 'SELECT fts, deleted FROM keyword_index_churn').all() as Array<{ fts: KeywordIndex; deleted: number }>).map((r) => [r.fts, r.deleted]));
  return (['chunks_fts', 'sections_fts'] as const).map((fts) => ({ fts, deleted: deleted.get(fts) ?? 0, rows: stmt(db, LIVE_ROWS[fts]).pluck().get() as number }));
}

const due = (churn: Churn, share: number) => churn.deleted > 0 && churn.deleted >= share * churn.rows;

/** The indexes whose deleted rows have reached `share` of their live rows: a rebuild is due (or under way). */
export function dueForRebuild(db: Db, share: number = REBUILD_SHARE): KeywordIndex[] {
  return keywordIndexChurn(db)
    .filter((c) => due(c, share))
    .map((c) => c.fts);
}

export interface RefreshOptions {
  /** Stops between batches; the build resumes from its cursor at the next refresh. */
  signal?: AbortSignal;
  /** Rows per batch, fixed (tests); otherwise scaled towards BATCH_MS. */
  batchRows?: number;
  /** Told after each batch's transaction has committed (benchmarks, tests). */
  onBatch?: (batch: { fts: KeywordIndex; kind: 'copied' | 'swapped'; rows: number; ms: number }) => void;
}

const refreshing = new WeakMap<Db, Promise<unknown>>();

/**
 * Rebuilds each index whose deleted rows have reached `share` of its live rows (all of them when
 * it holds none), and carries on a build under way (this connection's, one a quit or crash cut
 * short, or another process's gone silent: STALE_CLAIM_MS). Returns the indexes whose new
 * statistics were swapped in. One refresh per connection at a time: a second call waits for the
 * first, then looks again.
 *
 * It runs after an import's or a forget's own writes (and as a long-lived shell starts, when a build
 * was cut short), as housekeeping: an index not yet due costs
 * a read and no write lock (an unchanged folder's import needs none). A batch that cannot have
 * the write lock within the busy timeout (another process importing), a fresh claim by another
 * connection, or the signal leave the build where it is for the next refresh, the old index
 * answering searches meanwhile.
 */
export function refreshKeywordStatistics(db: Db, share: number = REBUILD_SHARE, options: RefreshOptions = {}): Promise<KeywordIndex[]> {
  const before = refreshing.get(db) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => refreshNow(db, share, options));
  refreshing.set(db, run);
  return run;
}

async function refreshNow(db: Db, share: number, options: RefreshOptions): Promise<KeywordIndex[]> {
  const rebuilt: KeywordIndex[] = [];
  // Closed meanwhile (the app quit while a refresh waited its turn): the build resumes next time.
  if (!db.open) return rebuilt;
  for (const churn of keywordIndexChurn(db)) {
    if (!db.open || options.signal?.aborted) break;
    try {
      if (!buildOf(db, churn.fts)) {
        if (!due(churn, share)) continue;
        const started = db
          .transaction(() => {
            // Read again inside the write transaction: another process may have begun or finished one.
            if (schemaIsNewer(db) || buildOf(db, churn.fts) || !due(keywordIndexChurn(db).find((c) => c.fts === churn.fts)!, share)) return false;
            startBuild(db, churn.fts);
            return true;
          })
          .immediate();
        if (!started && !buildOf(db, churn.fts)) continue;
      }
      if (await buildToEnd(db, churn.fts, options)) rebuilt.push(churn.fts);
    } catch (e) {
      if (String((e as { code?: unknown }).code).startsWith('SQLITE_BUSY')) continue;
      throw e;
    }
  }
  return rebuilt;
}

/** Batches until the swap (true), or until the build is left for later (false). */
async function buildToEnd(db: Db, fts: KeywordIndex, options: RefreshOptions): Promise<boolean> {
  let rows = options.batchRows ?? FIRST_BATCH_ROWS;
  for (;;) {
    if (!db.open || options.signal?.aborted) return false;
    const t = performance.now();
    const outcome = buildBatch(db, fts, rows);
    const ms = performance.now() - t;
    if (outcome.kind !== 'copied' && outcome.kind !== 'swapped') return false;
    options.onBatch?.({ fts, kind: outcome.kind, rows: outcome.kind === 'copied' ? outcome.rows : 0, ms });
    if (outcome.kind === 'swapped') return true;
    if (options.batchRows === undefined) rows = Math.round(Math.min(MAX_BATCH_ROWS, Math.max(20, rows * Math.min(2, BATCH_MS / Math.max(ms, 1)))));
    // Between batches the lock is free and this thread answers whoever waits on it. Free for as
    // long as the batch held it: SQLite queues no one, and another process waiting for the lock
    // only tries again every few to 100 ms (its busy handler), so a gap of a moment would leave
    // it waiting through every batch to its busy timeout (measured: 3.6 s waits with none).
    await new Promise((resolve) => setTimeout(resolve, Math.max(MIN_PAUSE_MS, ms)));
  }
}

/**
 * A refresh after writes that have committed (an import's documents, a forgotten folder's removal).
 * Its failure is not theirs: a full disk or an I/O error while the statistics are rebuilt leaves
 * the documents in and the folder gone, the old index answering searches, and the build (if it
 * began) at its cursor for the next refresh. So the failure is returned as a warning for the report
 * that follows those writes, and logged, never thrown; the doctor shows the index still due.
 * SQLITE_BUSY is no failure at all (refreshKeywordStatistics leaves the build for later).
 */
export async function refreshAfterWrites(db: Db, after: 'import' | 'forget' | null, options: RefreshOptions = {}): Promise<QuireErrorShape | null> {
  try {
    await refreshKeywordStatistics(db, REBUILD_SHARE, options);
    return null;
  } catch (e) {
    const warning = statisticsWarning(e, after);
    process.emitWarning(warning.message, { code: 'QUIRE_KEYWORD_STATISTICS' });
    return warning;
  }
}

/** `after` null: a rebuild carried on at startup, after no write of this process. */
function statisticsWarning(e: unknown, after: 'import' | 'forget' | null): QuireErrorShape {
  const code = String((e as { code?: unknown }).code ?? '');
  const shape = toErrorShape(e);
  const reason = code === 'SQLITE_FULL' ? 'the disk is full' : code.startsWith('SQLITE_IOERR') ? 'the disk could not be read or written' : shape.message.replace(/\.$/, '');
  const kept = after === 'import' ? 'The imported documents are saved; s' : after === 'forget' ? 'The folder is forgotten; s' : 'S';
  return {
    code: shape.code === 'DB_CORRUPT' ? 'DB_CORRUPT' : 'WRITE_FAILED',
    message: `Keyword search's statistics could not be rebuilt${after ? ` after this ${after}` : ''}: ${reason}${code ? ` [${code}]` : ''}. ${kept}earches rank with the older statistics until the rebuild succeeds, tried again at the next import or forget.`,
  };
}
