import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ftsTotalRows, scores, TOPICS, writeNotes } from '../../../test/support/keyword-scores';
import { NotesFolder, tempDbPath } from '../../../test/support/notes';
import { importFolder } from '../ingest/pipeline';
import { lexicalSearch } from '../retrieve/lexical';
import fs from 'node:fs';
import { deleteDocument } from './documents';
import { runDoctor } from './health';
import { buildBatch, buildOf, startBuild, STALE_CLAIM_MS, type KeywordIndex } from './keyword-index-build';
import { keywordIndexChurn, refreshKeywordStatistics } from './keyword-statistics';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations/index';
import type { Migration } from './migrations/types';
import { openDatabase, type Db } from './open';

const INDEXES = ['chunks_fts', 'sections_fts'] as const;
const BASE = { chunks_fts: 'chunks', sections_fts: 'sections' } as const;

let notes: NotesFolder;
let file: ReturnType<typeof tempDbPath>;
const dbs: Array<Db | Database.Database> = [];
const open = () => {
  const db = openDatabase(file.file);
  dbs.push(db);
  return db;
};
const openFresh = () => {
  const db = openDatabase(':memory:');
  dbs.push(db);
  return db;
};

beforeEach(() => {
  notes = new NotesFolder('quire-shadow-');
  file = tempDbPath('quire-shadow-db-');
});
afterEach(() => {
  vi.useRealTimers();
  for (const db of dbs.splice(0)) if (db.open) db.close();
  notes.dispose();
  file.dispose();
});

/** Twelve notes, a chunk and a section each. */
const writeAll = (version: number) => {
  writeNotes(notes, version, TOPICS, 'a');
  writeNotes(notes, version, TOPICS, 'b');
};
const startBoth = (db: Db) => db.transaction(() => INDEXES.forEach((fts) => startBuild(db, fts))).immediate();
const copy = (db: Db, fts: KeywordIndex, batches: number, rows: number) => {
  for (let i = 0; i < batches; i++) expect(buildBatch(db, fts, rows)).toEqual({ kind: 'copied', rows });
};
const cursor = (db: Db, fts: KeywordIndex) => buildOf(db, fts)!.cursor;
const rowidsOf = (db: Db, fts: KeywordIndex, relPath: string) =>
  db.prepare(`SELECT x.rowid FROM ${BASE[fts]} x JOIN documents d ON d.id = x.document_id WHERE d.rel_path = ? ORDER BY x.rowid`).pluck().all(relPath) as number[];
/** Documents whose rows all lie above (or all at or below) both cursors. */
const docsWhere = (db: Db, side: 'above' | 'below') =>
  (db.prepare('SELECT rel_path FROM documents ORDER BY rel_path').pluck().all() as string[]).filter((p) =>
    INDEXES.every((fts) => rowidsOf(db, fts, p).every((r) => (side === 'above' ? r > cursor(db, fts) : r <= cursor(db, fts)))),
  );
const healthy = (db: Db) => expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
const expectScoresOfFresh = async (db: Db) => {
  const fresh = openFresh();
  await importFolder(fresh, notes.root, { embedding: null });
  for (const fts of INDEXES) {
    expect(scores(db, fts).length).toBeGreaterThan(0);
    expect(scores(db, fts)).toEqual(scores(fresh, fts));
  }
};
const shadowTables = (db: Db) => db.prepare("SELECT name FROM sqlite_schema WHERE name LIKE '%fts_next%' ORDER BY name").pluck().all();

describe('keyword index rebuilt in batches beside the live one', () => {
  it('writes between batches above the cursor, by this connection and another: none lost, none counted, bm25 as in a fresh import', async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    startBoth(db);
    copy(db, 'chunks_fts', 2, 2);
    copy(db, 'sections_fts', 2, 2);
    const above = docsWhere(db, 'above');
    expect(above.length).toBeGreaterThanOrEqual(4);

    // Another process: notes added, one edited; its refresh leaves the build to its owner.
    const other = open();
    notes.write('c0.md', '# Added\n\nWe rotate deploy keys and bake bread. Version 9.\n');
    notes.write('c1.md', '# Added too\n\n## Bread\n\nBread dough, version 9.\n');
    notes.write(above[0]!, '# Edited\n\nWe rotate nothing now, version 3.\n\n## Still\n\nBread, version 3.\n');
    const r = await importFolder(other, notes.root, { embedding: null });
    expect(r.documents).toMatchObject({ added: 2, updated: 1 });
    expect(buildOf(other, 'chunks_fts')).not.toBeNull();

    copy(db, 'chunks_fts', 1, 3);
    // This connection deletes a note whose rows are all still to be copied; its import's refresh
    // then carries its own build on to the swap.
    const gone = docsWhere(db, 'above').find((p) => p.startsWith('b'))!;
    notes.remove(gone);
    expect((await importFolder(db, notes.root, { embedding: null, only: [gone] })).documents.deleted).toBe(1);
    expect(shadowTables(db)).toEqual([]); // that import's refresh finished the builds (same owner)

    healthy(db);
    expect(keywordIndexChurn(db).map((c) => c.deleted)).toEqual([0, 0]);
    await expectScoresOfFresh(db);

    // The live triggers name their index by text: after the swap they write to the renamed shadow.
    notes.write('a0.md', '# Changed\n\nWe rotate bread, version 7.\n');
    notes.remove('a2.md');
    expect((await importFolder(db, notes.root, { embedding: null })).documents).toMatchObject({ updated: 1, deleted: 1 });
    healthy(db);
    expect(db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'changed'").pluck().get()).toBe(1);
    await expectScoresOfFresh(db);
  });

  it('rows deleted or moved at or below the cursor leave the new index once each, counted as its churn', async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    startBoth(db);
    copy(db, 'chunks_fts', 2, 6);
    copy(db, 'sections_fts', 2, 6);
    const below = docsWhere(db, 'below');
    expect(below.length).toBeGreaterThanOrEqual(2);
    const rows = (p: string) => INDEXES.map((fts) => rowidsOf(db, fts, p).length);
    const [edited, moved] = [below[0]!, below[1]!];
    // Each leaves a deleted row in the shadow's totals, as in the live index's: the edited note's
    // chunks and sections, the moved note's chunks (kept, updated in place: deleted and written
    // again) and sections (written anew, above the cursor).
    const expected = [rows(edited)[0]! + rows(moved)[0]!, rows(edited)[1]! + rows(moved)[1]!];

    const other = open();
    notes.write(edited, '# Edited\n\nWe rotate keys weekly, version 5.\n');
    notes.write(`sub/${moved}`, fs.readFileSync(notes.path(moved)));
    notes.remove(moved);
    const r = await importFolder(other, notes.root, { embedding: null });
    expect(r.documents).toMatchObject({ updated: 1, moved: 1 });

    expect(await refreshKeywordStatistics(db, 0.99)).toEqual(['chunks_fts', 'sections_fts']); // a build under way goes on, due or not
    healthy(db);
    expect(keywordIndexChurn(db).map((c) => c.deleted)).toEqual(expected);
    const moves = db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'folder:sub'").pluck().get();
    expect(moves).toBe(rows(`sub/${moved}`)[0]);

    // Counted, so a rebuild by the usual rule (at any share, here) leaves a fresh import's scores.
    expect(await refreshKeywordStatistics(db, 0)).toEqual(['chunks_fts', 'sections_fts']);
    expect(keywordIndexChurn(db).map((c) => c.deleted)).toEqual([0, 0]);
    await expectScoresOfFresh(db);
  });

  it('a chunk given a rowid at or below the cursor is indexed by the trigger; new chunks get rowids above every earlier one', async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    const highest = db.prepare('SELECT max(rowid) FROM chunks').pluck().get() as number;
    const last = db.prepare('SELECT d.rel_path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.rowid = ?').pluck().get(highest) as string;
    // AUTOINCREMENT: the highest rowids freed, a new note still gets rowids above them.
    notes.remove(last);
    notes.write('z.md', '# Zed\n\nA new note.\n');
    await importFolder(db, notes.root, { embedding: null });
    expect(Math.min(...rowidsOf(db, 'chunks_fts', 'z.md'))).toBeGreaterThan(highest);

    startBoth(db);
    copy(db, 'chunks_fts', 2, 3);
    // a1.md's chunk, copied already, written again under its own rowid with other words.
    const [rowid] = rowidsOf(db, 'chunks_fts', 'a1.md');
    expect(rowid).toBeLessThanOrEqual(cursor(db, 'chunks_fts'));
    const chunk = db.prepare('SELECT id, document_id, ordinal, heading_path FROM chunks WHERE rowid = ?').get(rowid) as Record<string, unknown>;
    db.prepare('DELETE FROM chunks WHERE rowid = ?').run(rowid);
    db.prepare(
      "INSERT INTO chunks (rowid, id, document_id, ordinal, heading_path, text, token_count, start_line, end_line, flags) VALUES (@rowid, @id, @document_id, @ordinal, @heading_path, 'zebrafish swim', 2, 1, 1, '{}')",
    ).run({ ...chunk, rowid });
    expect(await refreshKeywordStatistics(db, 0.99)).toEqual(['chunks_fts', 'sections_fts']);
    expect(db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'zebrafish'").pluck().all()).toEqual([rowid]);
    healthy(db);
  });

  it('searches during a build read the old index whole; a build cut short resumes from its cursor, in another connection, the same', async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    writeAll(2);
    notes.remove('b5.md');
    const r = await importFolder(db, notes.root, { embedding: null, only: ['b5.md'] });
    expect(r.documents.deleted).toBe(1);
    const before = INDEXES.map((fts) => scores(db, fts));
    const searched = lexicalSearch(db, 'rotate deploy keys bread version', 20);
    expect(searched.length).toBeGreaterThan(5);

    // Due (one note of eleven deleted); stopped after two batches, as by quitting.
    const stop = new AbortController();
    let batches = 0;
    const onBatch = () => void (++batches === 2 && stop.abort());
    expect(await refreshKeywordStatistics(db, 0.05, { batchRows: 3, signal: stop.signal, onBatch })).toEqual([]);
    expect(buildOf(db, 'chunks_fts')!.cursor).toBeGreaterThan(0);
    expect(buildOf(db, 'chunks_fts')!.cursor).toBeLessThan(db.prepare('SELECT max(rowid) FROM chunks').pluck().get() as number);
    expect(INDEXES.map((fts) => scores(db, fts))).toEqual(before);
    expect(lexicalSearch(db, 'rotate deploy keys bread version', 20)).toEqual(searched);

    // The notes edited meanwhile are imported by another connection, whose refresh leaves a build
    // claimed by a running process alone.
    const other = open();
    await importFolder(other, notes.root, { embedding: null });
    expect(buildOf(other, 'chunks_fts')).not.toBeNull();
    const claimed = buildOf(other, 'chunks_fts')!.cursor;
    db.close();
    expect(await refreshKeywordStatistics(other)).toEqual([]);
    expect(buildOf(other, 'chunks_fts')!.cursor).toBe(claimed);

    // Once the claim is stale, the next refresh carries the build on from its cursor.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + STALE_CLAIM_MS);
    const toCopy = other.prepare('SELECT count(*) FROM chunks WHERE rowid > ?').pluck().get(claimed);
    let copied = 0;
    const counted = (b: { fts: KeywordIndex; rows: number }) => void (b.fts === 'chunks_fts' && (copied += b.rows));
    expect(await refreshKeywordStatistics(other, undefined, { onBatch: counted })).toContain('chunks_fts');
    expect(copied).toBe(toCopy);
    expect(shadowTables(other)).toEqual([]);
    healthy(other);
    if (keywordIndexChurn(other).some((c) => c.deleted > 0)) await refreshKeywordStatistics(other, 0);
    await expectScoresOfFresh(other);
  });

  it("a claim is another running process's while its batches come; a dead process's claim is carried on at once", async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    startBoth(db);
    copy(db, 'chunks_fts', 1, 2);
    const claim = db.prepare("UPDATE keyword_index_builds SET owner = ?, heartbeat = ? WHERE fts = 'chunks_fts'");
    // The parent process (the test runner's) runs: its claim stands, nothing is copied.
    claim.run(`${process.ppid}:elsewhere`, Date.now());
    expect(buildBatch(db, 'chunks_fts', 2)).toEqual({ kind: 'elsewhere' });
    expect(cursor(db, 'chunks_fts')).toBe(2);
    // No process has pid 2^22 + 1 (Linux's highest is 2^22): its claim is stale, fresh heartbeat or not.
    claim.run(`${2 ** 22 + 1}:crashed`, Date.now());
    expect(buildBatch(db, 'chunks_fts', 2)).toEqual({ kind: 'copied', rows: 2 });
    expect(buildOf(db, 'chunks_fts')!.owner).not.toContain('crashed');
    expect(await refreshKeywordStatistics(db)).toEqual(['chunks_fts', 'sections_fts']);
    healthy(db);
  });

  it('another connection writes between batches without waiting: the lock is free between them', async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    for (const id of db.prepare('SELECT id FROM documents ORDER BY rel_path LIMIT 3').pluck().all() as string[]) deleteDocument(db, id);
    const writer = new Database(file.file);
    dbs.push(writer);
    writer.pragma('busy_timeout = 0');
    writer.exec('CREATE TABLE IF NOT EXISTS writes (n INTEGER)');
    let writes = 0;
    let refreshing = true;
    const refreshed = refreshKeywordStatistics(db, 0.1, { batchRows: 1 }).finally(() => (refreshing = false));
    while (refreshing) {
      writer.prepare('BEGIN IMMEDIATE').run(); // throws SQLITE_BUSY at once if a batch held the lock
      writer.prepare('INSERT INTO writes (n) VALUES (?)').run(writes++);
      writer.prepare('COMMIT').run();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(await refreshed).toEqual(['chunks_fts', 'sections_fts']);
    expect(writes).toBeGreaterThan(INDEXES.length);
    healthy(db);
  });
});

describe('a build under way when a newer Quire migrates', () => {
  it("is given up, so the next refresh cannot swap in a shadow made by the old schema's definition and rules", async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    startBoth(db);
    copy(db, 'chunks_fts', 1, 3);
    // A later migration redefines the index (here: another tokenizer) and fills it again, as 0013 did.
    const redefine: Migration = {
      version: MIGRATIONS.length + 1,
      name: 'test-redefine',
      up: `DROP TABLE chunks_fts;
           CREATE VIRTUAL TABLE chunks_fts USING fts5(heading_path, text, folder, content = '', contentless_delete = 1, tokenize = 'unicode61');
           INSERT INTO chunks_fts (rowid, heading_path, text, folder) SELECT c.rowid, c.heading_path, c.text, '' FROM chunks c;`,
    };
    migrate(db, [...MIGRATIONS, redefine]);
    expect(INDEXES.map((fts) => buildOf(db, fts))).toEqual([null, null]);
    expect(shadowTables(db)).toEqual([]);
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name LIKE '%fts_next%'").pluck().get()).toBe(0);
    // Nothing is carried on to a swap: the index stays as the migration defined it.
    await refreshKeywordStatistics(db, 0.99);
    expect(db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'chunks_fts'").pluck().get()).toContain("tokenize = 'unicode61'");
  });
});

describe('doctor during a build', () => {
  it('checks the shadow holds exactly the rows at or below its cursor, so a lost trigger write is found before the swap', async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    startBoth(db);
    copy(db, 'chunks_fts', 2, 3);
    copy(db, 'sections_fts', 1, 2);
    healthy(db);
    expect(runDoctor(db).find((c) => c.name === 'keyword index rebuild')?.detail).toMatch(/chunks_fts: 6 of \d+ rows copied; sections_fts: 2 of \d+/);
    // A write the shadow's trigger missed (as a trigger dropped by mistake would): a row below the
    // cursor deleted from the table only.
    db.exec('DROP TRIGGER chunks_fts_next_ad');
    const [low] = rowidsOf(db, 'chunks_fts', docsWhere(db, 'below')[0]!);
    db.prepare('DELETE FROM chunks WHERE rowid = ?').run(low);
    const check = runDoctor(db).find((c) => c.name === 'keyword index rebuild');
    expect(check).toMatchObject({ ok: false });
    expect(check!.detail).toMatch(/chunks_fts: .*1 shadow row for nothing/);
  });
});

describe('an older Quire still running after a newer one migrated', () => {
  it('neither begins nor carries on a build: its rows and shadow triggers would follow the old rules', async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    startBoth(db);
    copy(db, 'chunks_fts', 1, 2);
    const newer = MIGRATIONS.length + 1;
    db.pragma(`user_version = ${newer}`);
    expect(buildBatch(db, 'chunks_fts', 2)).toEqual({ kind: 'newer' });
    expect(cursor(db, 'chunks_fts')).toBe(2);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
    expect(await refreshKeywordStatistics(db, 0)).toEqual(['chunks_fts', 'sections_fts']);
    // Due again (every note deleted), but the schema is a newer Quire's now.
    for (const id of db.prepare('SELECT id FROM documents').pluck().all() as string[]) deleteDocument(db, id);
    db.pragma(`user_version = ${newer}`);
    expect(await refreshKeywordStatistics(db, 0)).toEqual([]);
    expect(INDEXES.map((fts) => buildOf(db, fts))).toEqual([null, null]);
    expect(shadowTables(db)).toEqual([]);
  });
});

describe("bm25's row count through a build", () => {
  it('FTS5 counts exactly the rows held plus those counted deleted, in the live index and the shadow, so fts-top’s bound holds before, during and after the swap', async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    const held = (fts: KeywordIndex, upTo = Number.MAX_SAFE_INTEGER) => db.prepare(`SELECT count(*) FROM ${BASE[fts]} WHERE rowid <= ?`).pluck().get(upTo) as number;
    const churn = (fts: KeywordIndex) => keywordIndexChurn(db).find((c) => c.fts === fts)!.deleted;
    const bound = (fts: KeywordIndex) => (db.prepare(`SELECT coalesce(max(rowid), 0) FROM ${BASE[fts]}`).pluck().get() as number) + churn(fts);
    const exact = () => {
      for (const fts of INDEXES) {
        expect(ftsTotalRows(db, fts), fts).toBe(held(fts) + churn(fts));
        expect(ftsTotalRows(db, fts), fts).toBeLessThanOrEqual(bound(fts));
        const build = buildOf(db, fts);
        if (build) expect(ftsTotalRows(db, `${fts}_next`), `${fts}_next`).toBe(held(fts, build.cursor) + build.deleted);
      }
    };
    notes.write('a0.md', '# Changed\n\nWe rotate bread now, version 4.\n');
    await importFolder(db, notes.root, { embedding: null });
    exact();
    startBoth(db);
    copy(db, 'chunks_fts', 2, 4);
    copy(db, 'sections_fts', 2, 4);
    exact();
    // Another connection edits, moves, deletes and adds notes on both sides of the cursors.
    const other = open();
    const [below, above] = [docsWhere(db, 'below'), docsWhere(db, 'above')];
    notes.write(below[0]!, '# Edited below\n\nWe rotate keys weekly, version 5.\n');
    notes.write(above[0]!, '# Edited above\n\nBread dough, version 5.\n\n## More\n\nStill bread.\n');
    notes.write(`sub/${below[1]}`, fs.readFileSync(notes.path(below[1]!)));
    notes.remove(below[1]!);
    notes.remove(above[1]!);
    notes.write('new.md', '# New\n\nGuitar strings, version 5.\n');
    await importFolder(other, notes.root, { embedding: null });
    exact();
    copy(db, 'chunks_fts', 1, 3);
    exact();
    expect(await refreshKeywordStatistics(db, 0.99)).toEqual(['chunks_fts', 'sections_fts']);
    exact();
    expect(churn('chunks_fts')).toBeGreaterThan(0);
  });
});

describe('the schema after a swap', () => {
  it("is a fresh database's: the same tables, shadow tables, triggers (text for text) and fts5 config; only the renamed tables' names are quoted", async () => {
    const db = open();
    writeAll(1);
    await importFolder(db, notes.root, { embedding: null });
    for (const id of db.prepare('SELECT id FROM documents LIMIT 4').pluck().all() as string[]) deleteDocument(db, id);
    expect(await refreshKeywordStatistics(db, 0.1, { batchRows: 2 })).toEqual(['chunks_fts', 'sections_fts']);
    // Twice: the second build starts from the renamed table's definition.
    for (const id of db.prepare('SELECT id FROM documents LIMIT 2').pluck().all() as string[]) deleteDocument(db, id);
    expect(await refreshKeywordStatistics(db, 0, { batchRows: 2 })).toEqual(['chunks_fts', 'sections_fts']);
    const fresh = openFresh();
    // SQLite's RENAME writes the new name quoted ("chunks_fts"); the definitions are otherwise the text they were.
    const unquoted = (sql: string | null) => sql?.replace(/(CREATE (?:VIRTUAL )?TABLE )(?:"([^"]+)"|'([^']+)')/, (_m, head: string, a?: string, b?: string) => `${head}${a ?? b}`).replace(/^(CREATE TABLE )(\w+_fts_\w+)\(/, "$1'$2'(") ?? null;
    const schema = (d: Db) =>
      (d.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as Array<{ type: string; name: string; tbl_name: string; sql: string | null }>).map((r) => ({ ...r, sql: unquoted(r.sql) }));
    expect(schema(db)).toEqual(schema(fresh));
    for (const fts of INDEXES) expect(db.prepare(`SELECT k, v FROM ${fts}_config ORDER BY k`).all()).toEqual(fresh.prepare(`SELECT k, v FROM ${fts}_config ORDER BY k`).all());
    healthy(db);
  });
});
