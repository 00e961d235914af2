import { randomUUID } from 'node:crypto';
import { MIGRATIONS } from './migrations/index';
import type { Db } from './open';
import { folderOfSql } from './sections';

/**
 * A full-text index rebuilt without holding the write lock for long (db/keyword-statistics.ts says
 * when). The new index is a shadow table, `<index>_next`, created with the live one's own
 * definition and filled in batches of base rows in rowid order, each batch a short `.immediate()`
 * transaction that moves the cursor (keyword_index_builds, migration 0018). Searches read the live
 * index, whole, until a last transaction swaps the shadow in.
 *
 * Writes meanwhile, by any connection or process, are never lost or counted twice: while the
 * build's row exists, triggers on the base table keep the shadow true for rowids at or below the
 * cursor (a row inserted there is indexed, a row deleted there is deleted and counted), and rows
 * above it are copied by a later batch from what the base table then holds. The split is by rowid,
 * not by time, so it holds whatever rowid a new row gets. (chunks and sections are AUTOINCREMENT,
 * so a new row is always above the cursor; a moved document's chunks keep their rowids and are
 * updated in place, which is the trigger's case.)
 *
 * The triggers are written here, beside the live ones' definitions in the migrations (0014, 0017).
 * A shadow is made by the schema and rules of the Quire that began it, so migrate() gives up any
 * build under way before it applies a migration (abandonBuilds): one that redefines an index or
 * its triggers would otherwise be undone by the swap, the shadow's old definition and rows swapped
 * in over it. The next refresh begins again, if the index is still due.
 *
 * The swap drops the live table (16–26 ms for 90,000 chunks: npx tsx test/bench/perf-searchable.ts)
 * and renames the shadow to its name. SQLite's ALTER TABLE RENAME checks every trigger in the
 * schema and refuses while the live triggers name a table that is, for that moment, missing;
 * legacy_alter_table skips that check (and rewrites no trigger body), and the live triggers then
 * find the renamed table by name, as they found the old one.
 */

export type KeywordIndex = 'chunks_fts' | 'sections_fts';

const BASE: Record<KeywordIndex, 'chunks' | 'sections'> = { chunks_fts: 'chunks', sections_fts: 'sections' };
const shadowOf = (fts: KeywordIndex) => `${fts}_next`;

/** Each index's rows as the live triggers and writeSections write them: heading and text as read, the folder. */
const ROWS: Record<KeywordIndex, (where: string) => string> = {
  chunks_fts: (where) => `
    SELECT c.rowid, searchable_text(c.heading_path), searchable_text(c.text), ${folderOfSql('d.rel_path')}
      FROM chunks c JOIN documents d ON d.id = c.document_id WHERE ${where} ORDER BY c.rowid`,
  sections_fts: (where) => `
    SELECT s.rowid, searchable_text(s.heading_path),
           searchable_text((SELECT group_concat(c.text, char(10) ORDER BY c.ordinal) FROM chunks c
             WHERE c.document_id = s.document_id AND c.ordinal BETWEEN s.first_ordinal AND s.last_ordinal)),
           ${folderOfSql('d.rel_path')}
      FROM sections s JOIN documents d ON d.id = s.document_id WHERE ${where} ORDER BY s.rowid`,
};
const ALIAS: Record<KeywordIndex, string> = { chunks_fts: 'c', sections_fts: 's' };

/** The shadow's triggers, by name: the live index's writes, for rowids at or below the cursor. */
const SHADOW_TRIGGERS: Record<KeywordIndex, Record<string, string>> = {
  chunks_fts: {
    chunks_fts_next_ai: `AFTER INSERT ON chunks WHEN new.rowid <= ${cursorOf('chunks_fts')} BEGIN
      INSERT INTO chunks_fts_next (rowid, heading_path, text, folder) ${ROWS.chunks_fts('c.rowid = new.rowid')};
    END`,
    chunks_fts_next_ad: `AFTER DELETE ON chunks WHEN old.rowid <= ${cursorOf('chunks_fts')} BEGIN
      ${deleteFromShadow('chunks_fts')}
    END`,
    // As chunks_au (migration 0017): the same columns, the row deleted, counted and written again.
    chunks_fts_next_au: `AFTER UPDATE OF document_id, heading_path, text ON chunks WHEN old.rowid <= ${cursorOf('chunks_fts')} BEGIN
      ${deleteFromShadow('chunks_fts')}
      INSERT INTO chunks_fts_next (rowid, heading_path, text, folder) ${ROWS.chunks_fts('c.rowid = new.rowid')};
    END`,
  },
  // writeSections indexes a section itself, after its document's chunks are written; from those
  // chunks the trigger gives the same text.
  sections_fts: {
    sections_fts_next_ai: `AFTER INSERT ON sections WHEN new.rowid <= ${cursorOf('sections_fts')} BEGIN
      INSERT INTO sections_fts_next (rowid, heading_path, text, folder) ${ROWS.sections_fts('s.rowid = new.rowid')};
    END`,
    sections_fts_next_ad: `AFTER DELETE ON sections WHEN old.rowid <= ${cursorOf('sections_fts')} BEGIN
      ${deleteFromShadow('sections_fts')}
    END`,
  },
};

function cursorOf(fts: KeywordIndex): string {
  return `(SELECT cursor FROM keyword_index_builds WHERE fts = '${fts}')`;
}
function deleteFromShadow(fts: KeywordIndex): string {
  return `DELETE FROM ${shadowOf(fts)} WHERE rowid = old.rowid;
      UPDATE keyword_index_builds SET deleted = deleted + 1 WHERE fts = '${fts}';`;
}

/**
 * How long a build's claim lasts without a batch. A connection builds a batch every ~200 ms while it
 * builds; one silent this long has stopped (quit, busy elsewhere), and the next refresh, of any
 * process, carries its build on from the cursor. A claim by a process that no longer runs (its pid
 * leads the owner's name; a crash, a quit) is stale at once. Were two to build at once, each batch
 * still reads the cursor inside its own transaction, so nothing would be copied twice.
 */
export const STALE_CLAIM_MS = 30_000;

export interface BuildRow {
  fts: KeywordIndex;
  cursor: number;
  deleted: number;
  owner: string;
  heartbeat: number;
}

const owners = new WeakMap<Db, string>();
/** This connection's name as a builder: a claim by it is its own, whatever it was doing when it stopped. */
export function builderId(db: Db): string {
  let id = owners.get(db);
  if (!id) owners.set(db, (id = `${process.pid}:${randomUUID()}`));
  return id;
}

/** Whether a build of either index is under way (its row exists). */
export function hasBuildUnderWay(db: Db): boolean {
  return db.prepare('SELECT 1 FROM keyword_index_builds LIMIT 1').get() !== undefined;
}

export function buildOf(db: Db, fts: KeywordIndex): BuildRow | null {
  return (db.prepare('SELECT fts, cursor, deleted, owner, heartbeat FROM keyword_index_builds WHERE fts = ?').get(fts) as BuildRow | undefined) ?? null;
}

const claimedElsewhere = (db: Db, build: BuildRow, now: number) =>
  build.owner !== builderId(db) && Math.abs(now - build.heartbeat) < STALE_CLAIM_MS && processRuns(Number(build.owner.split(':')[0]));

function processRuns(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Begins a build: the shadow table (the live one's definition under the shadow's name), its
 * triggers and the cursor below every row; in the caller's write transaction. Copies nothing.
 */
/**
 * Gives up this connection's claim on the builds it was running, as it closes: its heartbeat is
 * what tells another Quire the build is still someone's, so a claim left fresh kept the next
 * opener in this process (an engine made again) from carrying the build on for STALE_CLAIM_MS.
 * The cursor stays: the next refresh resumes from it.
 */
export function releaseClaims(db: Db): void {
  if (!db.open || db.readonly || !hasBuildUnderWay(db)) return;
  db.prepare('UPDATE keyword_index_builds SET heartbeat = 0 WHERE owner = ?').run(builderId(db));
}

export function startBuild(db: Db, fts: KeywordIndex): void {
  const live = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(fts) as string | undefined;
  const create = live?.replace(/^CREATE VIRTUAL TABLE\s+(?:"[^"]+"|\S+)\s+USING/i, `CREATE VIRTUAL TABLE ${shadowOf(fts)} USING`);
  if (!create || create === live) throw new Error(`startBuild: cannot read the definition of ${fts}.`);
  // Left by nothing this code does (the build row, the table and the triggers come and go in one
  // transaction), but a shadow without its row must not be built on.
  dropShadow(db, fts);
  db.exec(create);
  for (const [name, body] of Object.entries(SHADOW_TRIGGERS[fts])) db.exec(`CREATE TRIGGER ${name} ${body}`);
  db.prepare(`INSERT INTO keyword_index_builds (fts, cursor, deleted, owner, heartbeat) VALUES (?, (SELECT coalesce(min(rowid), 1) - 1 FROM ${BASE[fts]}), 0, ?, ?)`).run(fts, builderId(db), Date.now());
}

/**
 * Drops every build under way, its shadow and its triggers; in the caller's write transaction. The
 * names are those every version since migration 0018 has used, so a newer Quire's migrate() can
 * drop an older one's build.
 */
export function abandonBuilds(db: Db): void {
  const builds = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'keyword_index_builds'").get();
  if (!builds) return;
  for (const fts of ['chunks_fts', 'sections_fts'] as const) dropShadow(db, fts);
  db.exec('DELETE FROM keyword_index_builds');
}

function dropShadow(db: Db, fts: KeywordIndex): void {
  for (const name of Object.keys(SHADOW_TRIGGERS[fts])) db.exec(`DROP TRIGGER IF EXISTS ${name}`);
  db.exec(`DROP TABLE IF EXISTS ${shadowOf(fts)}`);
}

/**
 * The schema is a newer Quire's (it migrated while this one ran): its definition and rules for the
 * indexes are not this code's, so this code neither begins nor carries on a build (migrate() gave
 * up any under way). Read inside the caller's transaction.
 */
export function schemaIsNewer(db: Db): boolean {
  return (db.pragma('user_version', { simple: true }) as number) > MIGRATIONS.length;
}

export type BatchOutcome =
  /** Rows copied, the cursor moved on; more may follow. */
  | { kind: 'copied'; rows: number }
  /** Nothing was left above the cursor: the shadow is now the index, its deletions its churn. */
  | { kind: 'swapped' }
  /** Another connection's claim is fresh: it builds. */
  | { kind: 'elsewhere' }
  /** No build under way (another connection finished it). */
  | { kind: 'none' }
  /** The schema is a newer Quire's: it rebuilds by its own rules. */
  | { kind: 'newer' };

/**
 * One batch of a build under way: up to `rows` base rows above the cursor copied into the shadow,
 * or, when none are left, the swap. Its own short write transaction; throws SQLITE_BUSY as any
 * write does when another connection holds the lock past the busy timeout.
 */
export function buildBatch(db: Db, fts: KeywordIndex, rows: number): BatchOutcome {
  return db
    .transaction((): BatchOutcome => {
      if (schemaIsNewer(db)) return { kind: 'newer' };
      const build = buildOf(db, fts);
      const now = Date.now();
      if (!build) return { kind: 'none' };
      if (claimedElsewhere(db, build, now)) return { kind: 'elsewhere' };
      const alias = ALIAS[fts];
      const upper = db
        .prepare(`SELECT max(rowid) FROM (SELECT rowid FROM ${BASE[fts]} WHERE rowid > ? ORDER BY rowid LIMIT ?)`)
        .pluck()
        .get(build.cursor, rows) as number | null;
      if (upper === null) {
        swap(db, fts, build.deleted);
        return { kind: 'swapped' };
      }
      const copied = db
        .prepare(`INSERT INTO ${shadowOf(fts)} (rowid, heading_path, text, folder) ${ROWS[fts](`${alias}.rowid > ? AND ${alias}.rowid <= ?`)}`)
        .run(build.cursor, upper).changes;
      db.prepare('UPDATE keyword_index_builds SET cursor = ?, owner = ?, heartbeat = ? WHERE fts = ?').run(upper, builderId(db), now, fts);
      return { kind: 'copied', rows: copied };
    })
    .immediate();
}

/** The shadow becomes the index; in the caller's write transaction. */
function swap(db: Db, fts: KeywordIndex, deleted: number): void {
  for (const name of Object.keys(SHADOW_TRIGGERS[fts])) db.exec(`DROP TRIGGER ${name}`);
  db.exec(`DROP TABLE ${fts}`);
  const legacy = db.pragma('legacy_alter_table', { simple: true }) as number;
  db.pragma('legacy_alter_table = ON');
  try {
    db.exec(`ALTER TABLE ${shadowOf(fts)} RENAME TO ${fts}`);
  } finally {
    db.pragma(`legacy_alter_table = ${legacy ? 'ON' : 'OFF'}`);
  }
  db.prepare('UPDATE keyword_index_churn SET deleted = ? WHERE fts = ?').run(deleted, fts);
  db.prepare('DELETE FROM keyword_index_builds WHERE fts = ?').run(fts);
}
