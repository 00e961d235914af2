import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../ingest/pipeline';
import { forgetCollection, listCollections } from './collections';
import { runDoctor } from './health';
import { openDatabase, type Db } from './open';

/**
 * chunks_fts and sections_fts are contentless (migration 0013): nothing compares them with chunks
 * and sections but what is written. Every way a document's rows are written, moved or deleted must
 * leave each index holding exactly one row per chunk (per section), and each row's folder column
 * the folder of its document's path now. Read back from the index itself (fts5vocab), not from
 * what a search happens to return.
 */
describe('full-text rows stay in step with chunks, sections and folders', () => {
  let dir: string;
  let notes: string;
  let db: Db;
  const CHUNKER = { kind: 'heading' as const, maxTokens: 48 };

  const page = (topic: string) =>
    [`# ${topic}`, '', `First part about ${topic}.`, '', '## Details', '', `${'More words about the topic. '.repeat(12)}`, '', '## Closing', '', `The end of ${topic}.`, ''].join('\n');
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(notes, rel)), { recursive: true });
    fs.writeFileSync(path.join(notes, rel), text);
  };
  const reimport = () => importFolder(db, notes, { embedding: null, chunker: CHUNKER });

  /** The terms of each row's folder column, read from the index (rowid → sorted terms). */
  const folderTerms = (table: 'chunks_fts' | 'sections_fts'): Map<number, string[]> => {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_vocab USING fts5vocab(main, ${table}, instance)`);
    const rows = db.prepare(`SELECT doc, term FROM temp.${table}_vocab WHERE col = 'folder' ORDER BY doc, term`).all() as Array<{ doc: number; term: string }>;
    const out = new Map<number, string[]>();
    for (const r of rows) out.set(r.doc, [...(out.get(r.doc) ?? []), r.term]);
    return out;
  };
  /** What the same tokenizer makes of a folder path. */
  const termsOf = (folder: string): string[] => {
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.probe USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')");
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.probe_vocab USING fts5vocab(temp, probe, instance)");
    db.prepare('DELETE FROM temp.probe').run();
    db.prepare('INSERT INTO temp.probe (x) VALUES (?)').run(folder);
    return (db.prepare('SELECT term FROM temp.probe_vocab ORDER BY term').pluck().all() as string[]);
  };
  const folderOf = (relPath: string) => (relPath.includes('/') ? relPath.slice(0, relPath.lastIndexOf('/') + 1) : '');

  /** Every chunk and section has exactly one full-text row, with its document's folder now. */
  const expectInStep = () => {
    const chunks = db.prepare('SELECT c.rowid, d.rel_path FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY c.rowid').all() as Array<{ rowid: number; rel_path: string }>;
    const sections = db.prepare('SELECT s.rowid, d.rel_path FROM sections s JOIN documents d ON d.id = s.document_id ORDER BY s.rowid').all() as Array<{ rowid: number; rel_path: string }>;
    for (const [table, rows] of [['chunks_fts', chunks], ['sections_fts', sections]] as const) {
      const indexed = db.prepare(`SELECT id FROM ${table}_docsize ORDER BY id`).pluck().all();
      expect(indexed, `${table} rowids`).toEqual(rows.map((r) => r.rowid));
      const terms = folderTerms(table);
      const got = rows.map((r) => [r.rel_path, terms.get(r.rowid) ?? []]);
      const want = rows.map((r) => [r.rel_path, termsOf(folderOf(r.rel_path))]);
      expect(got, `${table} folders`).toEqual(want);
    }
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fts-step-'));
    notes = path.join(dir, 'notes');
    db = openDatabase(path.join(dir, 'quire.db'));
  });
  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('through imports, edits, moves (also onto an existing note), failures, deletions and forgetting', async () => {
    write('linux/net/firewall.md', page('firewall'));
    write('windows/ports.md', page('ports'));
    write('top.md', page('top'));
    write('linux/keep.md', page('keep'));
    await reimport();
    expect(db.prepare('SELECT count(*) FROM chunks').pluck().get()).toBeGreaterThan(8);
    expectInStep();

    // A new version swaps the document's chunks and sections.
    write('linux/net/firewall.md', page('firewall rules'));
    expect((await reimport()).documents.updated).toBe(1);
    expectInStep();

    // Moved to another folder, same bytes: re-pointed, not re-read (rowids kept, folder follows).
    fs.mkdirSync(path.join(notes, 'bsd'));
    fs.renameSync(path.join(notes, 'windows/ports.md'), path.join(notes, 'bsd/ports.md'));
    expect((await reimport()).documents.moved).toBe(1);
    expectInStep();
    expect(db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'folder:windows'").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sections_fts WHERE sections_fts MATCH 'folder:bsd'").pluck().get()).toBeGreaterThan(0);

    // Moved over a note already at the new path (that one is replaced), and up to the top.
    fs.renameSync(path.join(notes, 'bsd/ports.md'), path.join(notes, 'linux/keep.md'));
    await reimport();
    expectInStep();
    fs.renameSync(path.join(notes, 'linux/keep.md'), path.join(notes, 'ports.md'));
    expect((await reimport()).documents.moved).toBe(1);
    expectInStep();

    // A note that can no longer be read loses its rows; a deleted one too.
    fs.writeFileSync(path.join(notes, 'top.md'), Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]));
    await reimport();
    expectInStep();
    fs.rmSync(path.join(notes, 'linux/net/firewall.md'));
    expect((await reimport()).documents.deleted).toBe(1);
    expectInStep();

    forgetCollection(db, listCollections(db)[0]!);
    expect(db.prepare('SELECT count(*) FROM chunks_fts_docsize').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM sections_fts_docsize').pluck().get()).toBe(0);
    expectInStep();
  });

  it('a cascade from a deleted folder row removes the rows too (row triggers fire for foreign-key actions)', async () => {
    write('linux/again.md', page('again'));
    await reimport();
    expect(db.prepare('SELECT count(*) FROM chunks_fts_docsize').pluck().get()).toBeGreaterThan(0);
    expect(db.pragma('recursive_triggers', { simple: true })).toBe(0);
    // Not how Quire forgets a folder (forgetCollection deletes each document first), but a
    // collection row deleted alone must not leave full-text rows behind either.
    db.prepare('DELETE FROM collections').run();
    expect(db.prepare('SELECT count(*) FROM chunks').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM chunks_fts_docsize').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM sections_fts_docsize').pluck().get()).toBe(0);
    expectInStep();
  });

  it.each([
    ['chunks_fts', 'chunks', 'chunks = full-text rows'],
    ['sections_fts', 'sections', 'sections cover every chunk'],
  ] as const)('doctor finds a %s row for nothing in place of a missing one (the counts still agree)', async (table, content, check) => {
    write('linux/doctor.md', page('doctor'));
    await reimport();
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
    db.transaction(() => {
      const victim = db.prepare(`SELECT max(t.rowid) FROM ${content} t JOIN documents d ON d.id = t.document_id WHERE d.rel_path = 'linux/doctor.md'`).pluck().get() as number;
      db.prepare(`DELETE FROM ${table} WHERE rowid = ?`).run(victim);
      db.prepare(`INSERT INTO ${table} (rowid, heading_path, text, folder) VALUES (?, 'gone', 'a row whose chunk is gone', '')`).run(victim + 1000);
    })();
    expect(db.prepare(`SELECT count(*) FROM ${content}`).pluck().get()).toBe(db.prepare(`SELECT count(*) FROM ${table}_docsize`).pluck().get());
    const failed = runDoctor(db).filter((c) => !c.ok);
    // The victim's folder word went with its row.
    expect(failed.map((c) => c.name)).toEqual([check, 'folder words follow the documents']);
    expect(failed[0]!.detail).toMatch(/1 without a full-text row, 1 full-text rows? for nothing/);
    // Undone for the next case: the stale row goes by hand, the note (and the victim) by import.
    db.prepare(`DELETE FROM ${table} WHERE rowid = (SELECT max(id) FROM ${table}_docsize)`).run();
    fs.rmSync(path.join(notes, 'linux/doctor.md'));
    await reimport();
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  });

  it.each([
    ['chunks_fts', 'chunks'],
    ['sections_fts', 'sections'],
  ] as const)('doctor finds a %s row whose folder is not its document\'s (rowids and counts all agree)', async (table, content) => {
    write('linux/stale.md', page('stale'));
    await reimport();
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
    const victim = db.prepare(`SELECT max(t.rowid) FROM ${content} t JOIN documents d ON d.id = t.document_id WHERE d.rel_path = 'linux/stale.md'`).pluck().get() as number;
    db.transaction(() => {
      db.prepare(`DELETE FROM ${table} WHERE rowid = ?`).run(victim);
      db.prepare(`INSERT INTO ${table} (rowid, heading_path, text, folder) VALUES (?, 'stale', 'text', 'windows/')`).run(victim);
    })();
    const failed = runDoctor(db).filter((c) => !c.ok);
    expect(failed.map((c) => c.name)).toEqual(['folder words follow the documents']);
    const [, linux, expected] = failed[0]!.detail.match(/^2 folder words out of step: “linux” in (\d+) rows, (\d+) expected; “window” in 1 rows, 0 expected$/) ?? [];
    expect(Number(expected)).toBe(Number(linux) + 1);
    fs.rmSync(path.join(notes, 'linux/stale.md'));
    // Deleting the note deletes the damaged row by its rowid.
    await reimport();
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  });
});
