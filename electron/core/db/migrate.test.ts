import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuireError } from '../../../shared/errors';
import { migrate, schemaVersion } from './migrate';
import { MIGRATIONS } from './migrations/index';
import { headerUserVersion, openDatabase } from './open';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-migrate-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('openDatabase', () => {
  it('creates the schema, records the version, and sets WAL and foreign keys', () => {
    const file = path.join(dir, 'sub', 'q.db');
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table') ORDER BY name").pluck().all();
    for (const t of ['chunks', 'chunks_fts', 'collections', 'documents', 'embedding_models', 'events', 'settings']) expect(tables).toContain(t);
    expect(db.prepare('SELECT vec_version()').pluck().get()).toMatch(/^v0\.1\./);
    db.close();
  });

  it('is idempotent: reopening runs nothing again', () => {
    const file = path.join(dir, 'q.db');
    openDatabase(file).close();
    const db = openDatabase(file);
    expect(migrate(db, MIGRATIONS)).toEqual({ from: MIGRATIONS.length, to: MIGRATIONS.length });
    db.close();
  });

  it('refuses a database from a newer Quire with a clear error, leaving it untouched', () => {
    const file = path.join(dir, 'q.db');
    const raw = new Database(file);
    raw.pragma('user_version = 999');
    raw.close();
    let error: unknown;
    try {
      openDatabase(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QuireError);
    expect((error as QuireError).code).toBe('DB_NEWER_THAN_APP');
    expect((error as QuireError).message).toMatch(/version 999/);
    const again = new Database(file);
    expect(again.pragma('user_version', { simple: true })).toBe(999);
    expect(again.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'documents'").pluck().get()).toBe(0);
    again.close();
  });
});

describe('a newer database, and two openers at once', () => {
  it('a newer Quire\'s WAL database is refused before SQLite opens it: not a byte changed, no -wal or -shm', () => {
    const file = path.join(dir, 'newer.db');
    const raw = new Database(file);
    raw.pragma('journal_mode = WAL');
    raw.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
    raw.pragma('user_version = 999');
    raw.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const before = fs.readFileSync(file);
    const mtime = fs.statSync(file).mtimeMs;
    expect(headerUserVersion(file)).toBe(999);
    expect(() => openDatabase(file)).toThrow(/schema version 999.*not changed/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(fs.existsSync(`${file}-shm`)).toBe(false);
  });

  it('reads no version from a file that is not a database, or is not there', () => {
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x'.repeat(200));
    expect(headerUserVersion(path.join(dir, 'notes.txt'))).toBeNull();
    expect(headerUserVersion(path.join(dir, 'absent.db'))).toBeNull();
  });

  it('a migration another opener applied while this one waited is not applied twice', () => {
    const file = path.join(dir, 'race.db');
    const first = new Database(file);
    const second = new Database(file);
    first.pragma('journal_mode = WAL');
    // The second opener read version 0; before it takes the write lock, the first migrates everything.
    expect(() => migrate(second, MIGRATIONS, { afterVersionRead: () => migrate(first, MIGRATIONS) })).not.toThrow();
    expect(schemaVersion(second)).toBe(MIGRATIONS.at(-1)!.version);
    first.close();
    second.close();
  });
});

describe('migration 4 (sections)', () => {
  it('builds sections and their full-text rows from the chunks a version-3 database already has', () => {
    const db = new Database(path.join(dir, 'v3.db'));
    migrate(db, MIGRATIONS.slice(0, 3));
    db.prepare("INSERT INTO collections (id, root, created_at) VALUES ('c', '/notes', 'now')").run();
    db.prepare("INSERT INTO documents (id, collection_id, rel_path, source_uri, size, mtime_ms, chunk_count, ingested_at, status) VALUES ('d', 'c', 'a.md', 'file:///notes/a.md', 1, 1, 5, 'now', 'ready')").run();
    const chunk = db.prepare("INSERT INTO chunks (id, document_id, ordinal, heading_path, text, token_count, start_line, end_line) VALUES (?, 'd', ?, ?, ?, 1, ?, ?)");
    // Paths A A B A A: the second run of A is a section of its own.
    [['A', 'alpha one'], ['A', 'alpha two'], ['B', 'beta'], ['A', 'alpha three'], ['A', 'alpha four zebra']].forEach(([h, t], i) => chunk.run(`d#${i}`, i, h, t, i + 1, i + 1));
    migrate(db, MIGRATIONS);
    expect(db.prepare('SELECT first_ordinal, last_ordinal, heading_path FROM sections ORDER BY first_ordinal').all()).toEqual([
      { first_ordinal: 0, last_ordinal: 1, heading_path: 'A' },
      { first_ordinal: 2, last_ordinal: 2, heading_path: 'B' },
      { first_ordinal: 3, last_ordinal: 4, heading_path: 'A' },
    ]);
    // The last section is indexed as its two chunks' text together, in order.
    const hit = db.prepare("SELECT s.first_ordinal FROM sections_fts f JOIN sections s ON s.rowid = f.rowid WHERE sections_fts MATCH 'three AND zebra'").pluck().all();
    expect(hit).toEqual([3]);
    // Deleting a document removes its sections and their index rows.
    db.pragma('foreign_keys = ON');
    db.prepare("DELETE FROM documents WHERE id = 'd'").run();
    expect(db.prepare('SELECT count(*) FROM sections').pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sections_fts WHERE sections_fts MATCH 'alpha'").pluck().get()).toBe(0);
    db.close();
  });
});

describe('migrate', () => {
  it('rolls back a failing migration entirely, keeping the previous version', () => {
    const db = new Database(':memory:');
    const migrations = [
      { version: 1, name: 'one', up: 'CREATE TABLE a (x INTEGER);' },
      { version: 2, name: 'two', up: 'CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);' },
    ];
    expect(() => migrate(db, migrations)).toThrow(/nowhere/);
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'b'").pluck().get()).toBe(0);
    db.close();
  });

  it('applies only the migrations above the current version, in order', () => {
    const db = new Database(':memory:');
    migrate(db, [{ version: 1, name: 'one', up: 'CREATE TABLE log (v INTEGER); INSERT INTO log VALUES (1);' }]);
    migrate(db, [
      { version: 1, name: 'one', up: 'INSERT INTO log VALUES (100);' },
      { version: 2, name: 'two', up: 'INSERT INTO log VALUES (2);' },
    ]);
    expect(db.prepare('SELECT v FROM log ORDER BY rowid').pluck().all()).toEqual([1, 2]);
    expect(schemaVersion(db)).toBe(2);
    db.close();
  });

  it('rejects a migration list with gaps', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [{ version: 2, name: 'x', up: '' }])).toThrow(/expected 1/);
    db.close();
  });
});

describe('a damaged database', () => {
  it('is refused with a sentence naming the file and what to do, and left as it was', () => {
    const file = path.join(dir, 'q.db');
    openDatabase(file).close();
    const bytes = fs.readFileSync(file);
    // Scribble over the schema page (page 1 after the 100-byte header).
    bytes.fill(0x5a, 100, 4096);
    fs.writeFileSync(file, bytes);
    let error: unknown;
    try {
      openDatabase(file);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'DB_CORRUPT' });
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/damaged.*not changed it.*quire rebuild --db/);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a file that is not a database at all is named as such', () => {
    const file = path.join(dir, 'notes.db');
    fs.writeFileSync(file, 'these are my notes, not a database '.repeat(200));
    expect(() => openDatabase(file)).toThrow(/notes\.db is not a Quire database/);
    expect(fs.readFileSync(file, 'utf8').startsWith('these are my notes')).toBe(true);
  });
});

describe('migration 0007: collection names', () => {
  it('names existing folders by their base name, numbering a repeated one in the order they were added', () => {
    const raw = new Database(path.join(dir, 'names.db'));
    migrate(raw, MIGRATIONS.filter((m) => m.version < 7));
    const add = raw.prepare('INSERT INTO collections (id, root, created_at) VALUES (?, ?, ?)');
    add.run('c', '/home/b/notes', '2026-01-03');
    add.run('a', '/home/a/notes', '2026-01-01');
    add.run('w', 'C:\\Users\\me\\Work Notes', '2026-01-02');
    add.run('z', '/srv/Notes', '2026-01-04');
    migrate(raw, MIGRATIONS);
    expect(raw.prepare('SELECT id, name FROM collections ORDER BY id').all()).toEqual([
      { id: 'a', name: 'notes' },
      { id: 'c', name: 'notes (2)' },
      { id: 'w', name: 'Work Notes' },
      { id: 'z', name: 'Notes (3)' },
    ]);
    raw.close();
  });
});

describe('migration 13 (folder column)', () => {
  it("indexes every chunk and section with its document's folder, rebuilt from a version-12 database, and follows moves and deletes", () => {
    const db = new Database(path.join(dir, 'v12.db'));
    migrate(db, MIGRATIONS.slice(0, 12));
    db.prepare("INSERT INTO collections (id, root, created_at) VALUES ('c', '/notes', 'now')").run();
    const doc = db.prepare("INSERT INTO documents (id, collection_id, rel_path, source_uri, size, mtime_ms, chunk_count, ingested_at, status) VALUES (?, 'c', ?, 'file:///x', 1, 1, 1, 'now', 'ready')");
    doc.run('deep', 'linux/net/ufw.md');
    doc.run('top', 'ufw-notes.md');
    const chunk = db.prepare("INSERT INTO chunks (id, document_id, ordinal, heading_path, text, token_count, start_line, end_line) VALUES (?, ?, 0, 'ufw', 'Allow a port through the firewall.', 1, 1, 1)");
    chunk.run('deep#0', 'deep');
    chunk.run('top#0', 'top');
    // Sections as version 12 wrote them: a row and its two-column full-text row.
    for (const id of ['deep', 'top']) {
      const { lastInsertRowid } = db.prepare("INSERT INTO sections (document_id, first_ordinal, last_ordinal, heading_path) VALUES (?, 0, 0, 'ufw')").run(id);
      db.prepare("INSERT INTO sections_fts (rowid, heading_path, text) VALUES (?, 'ufw', 'Allow a port through the firewall.')").run(lastInsertRowid);
    }
    migrate(db, MIGRATIONS);

    const chunks = (q: string) => db.prepare('SELECT c.id FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid WHERE chunks_fts MATCH ? ORDER BY c.id').pluck().all(q);
    const sections = (q: string) => db.prepare('SELECT s.document_id FROM sections_fts f JOIN sections s ON s.rowid = f.rowid WHERE sections_fts MATCH ? ORDER BY 1').pluck().all(q);
    expect(chunks('folder:linux')).toEqual(['deep#0']);
    expect(chunks('folder:net')).toEqual(['deep#0']);
    expect(sections('folder:linux')).toEqual(['deep']);
    // Folders only: the file name (ufw, notes) is not in the column.
    expect(chunks('folder:ufw OR folder:notes')).toEqual([]);
    expect(sections('folder:ufw OR folder:notes')).toEqual([]);
    // Heading and body are indexed as before.
    expect(chunks('firewall')).toEqual(['deep#0', 'top#0']);
    expect(chunks('heading_path:ufw')).toEqual(['deep#0', 'top#0']);
    expect(sections('firewall')).toEqual(['deep', 'top']);
    expect(() => db.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();

    // A moved document's chunks are re-pointed to its new row (documents.moveDocument): they follow it to its folder.
    doc.run('moved', 'windows/ufw.md');
    db.prepare("UPDATE chunks SET document_id = 'moved', id = 'moved#0' WHERE document_id = 'deep'").run();
    expect(chunks('folder:windows')).toEqual(['moved#0']);
    expect(chunks('folder:linux')).toEqual([]);
    // Deleted chunks and sections leave their index.
    db.prepare("DELETE FROM chunks WHERE document_id = 'moved'").run();
    db.prepare("DELETE FROM sections WHERE document_id = 'deep'").run();
    expect(chunks('firewall')).toEqual(['top#0']);
    expect(sections('firewall')).toEqual(['top']);
    expect(() => db.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
    db.close();
  });
});

describe('migration 14 (searchable text)', () => {
  it("rebuilds both indexes from a version-13 database without link addresses, and new writes follow; the chunks keep their Markdown", () => {
    const db = new Database(path.join(dir, 'v13.db'));
    migrate(db, MIGRATIONS.slice(0, 13));
    db.prepare("INSERT INTO collections (id, root, created_at) VALUES ('c', '/notes', 'now')").run();
    const doc = db.prepare("INSERT INTO documents (id, collection_id, rel_path, source_uri, size, mtime_ms, chunk_count, ingested_at, status) VALUES (?, 'c', ?, 'file:///x', 1, 1, 1, 'now', 'ready')");
    doc.run('toc', 'docs/contents.md');
    const text = 'Start with [the firewall guide](https://example.com/kubernetes-probes.html).';
    const chunk = db.prepare('INSERT INTO chunks (id, document_id, ordinal, heading_path, text, token_count, start_line, end_line) VALUES (?, ?, ?, ?, ?, 1, 1, 1)');
    chunk.run('toc#0', 'toc', 0, 'Contents > [Setup](https://example.com/helm-charts)', text);
    // Version 13 indexed every word of the source, addresses included.
    const { lastInsertRowid } = db.prepare("INSERT INTO sections (document_id, first_ordinal, last_ordinal, heading_path) VALUES ('toc', 0, 0, 'Contents > [Setup](https://example.com/helm-charts)')").run();
    db.prepare("INSERT INTO sections_fts (rowid, heading_path, text, folder) VALUES (?, 'Contents > [Setup](https://example.com/helm-charts)', ?, 'docs/')").run(lastInsertRowid, text);
    const chunks = (q: string) => db.prepare('SELECT c.id FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid WHERE chunks_fts MATCH ? ORDER BY c.id').pluck().all(q);
    const sections = (q: string) => db.prepare('SELECT s.document_id FROM sections_fts f JOIN sections s ON s.rowid = f.rowid WHERE sections_fts MATCH ? ORDER BY 1').pluck().all(q);
    expect(chunks('kubernetes')).toEqual(['toc#0']);
    expect(sections('helm')).toEqual(['toc']);

    migrate(db, MIGRATIONS);
    expect(chunks('kubernetes OR probes OR helm OR charts')).toEqual([]);
    expect(sections('kubernetes OR probes OR helm OR charts')).toEqual([]);
    expect(chunks('firewall')).toEqual(['toc#0']);
    expect(chunks('heading_path:setup')).toEqual(['toc#0']);
    expect(chunks('folder:docs')).toEqual(['toc#0']);
    expect(sections('firewall AND heading_path:setup AND folder:docs')).toEqual(['toc']);
    expect(db.prepare("SELECT text FROM chunks WHERE id = 'toc#0'").pluck().get()).toBe(text);

    // Writes after the migration go through the new triggers.
    chunk.run('toc#1', 'toc', 1, 'Contents', 'More in [the helm notes](https://example.com/terraform.html).');
    expect(chunks('terraform')).toEqual([]);
    expect(chunks('helm')).toEqual(['toc#1']);
    db.prepare("UPDATE chunks SET text = 'See [x](https://example.com/ansible)' WHERE id = 'toc#1'").run();
    expect(chunks('ansible OR helm')).toEqual([]);
    expect(() => db.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
    db.close();
  });
});

describe('migration 15 (turn scope)', () => {
  it("copies each turn's folders from its run, and leaves them unknown (NULL) where the run was already deleted", () => {
    const db = new Database(path.join(dir, 'v14.db'));
    migrate(db, MIGRATIONS.slice(0, 14));
    db.prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES (1, 't', 'now', 'now')").run();
    const scope = JSON.stringify([{ id: 'c', name: 'notes', path: 'work' }]);
    db.prepare("INSERT INTO runs (id, started_at, status, question, scope) VALUES (7, 'now', 'answered', 'q', ?)").run(scope);
    const turn = db.prepare("INSERT INTO conversation_turns (conversation_id, ordinal, run_id, question, asked_at) VALUES (1, ?, ?, 'q', 'now')");
    turn.run(1, 7);
    turn.run(2, 8); // its run was deleted with a document it quoted
    migrate(db, MIGRATIONS);
    expect(db.prepare('SELECT ordinal, scope FROM conversation_turns ORDER BY ordinal').all()).toEqual([
      { ordinal: 1, scope },
      { ordinal: 2, scope: null },
    ]);
    db.close();
  });
});

describe('migration 16 (searchable text: fences in blockquotes and lists, escaped brackets)', () => {
  it('rebuilds both indexes so rows written under the older rule follow the new one', () => {
    const db = new Database(path.join(dir, 'v15.db'));
    migrate(db, MIGRATIONS.slice(0, 15));
    db.prepare("INSERT INTO collections (id, root, created_at) VALUES ('c', '/notes', 'now')").run();
    db.prepare("INSERT INTO documents (id, collection_id, rel_path, source_uri, size, mtime_ms, chunk_count, ingested_at, status) VALUES ('d', 'c', 'guide.md', 'file:///x', 1, 1, 1, 'now', 'ready')").run();
    const text = ['> ```js', '> handlers[i](request)', '> ```', 'Type \\[x\\](verbatim) to show brackets.'].join('\n');
    db.prepare("INSERT INTO chunks (id, document_id, ordinal, heading_path, text, token_count, start_line, end_line) VALUES ('d#0', 'd', 0, 'Guide', ?, 1, 1, 4)").run(text);
    const { lastInsertRowid } = db.prepare("INSERT INTO sections (document_id, first_ordinal, last_ordinal, heading_path) VALUES ('d', 0, 0, 'Guide')").run();
    // What the older rule indexed: the quoted code's call and the escaped text's parentheses read as link addresses.
    const older = ['> ```js', '> handlers[i]', '> ```', 'Type \\[x\\] to show brackets.'].join('\n');
    const rowid = db.prepare("SELECT rowid FROM chunks WHERE id = 'd#0'").pluck().get() as number;
    db.prepare('DELETE FROM chunks_fts WHERE rowid = ?').run(rowid);
    db.prepare("INSERT INTO chunks_fts (rowid, heading_path, text, folder) VALUES (?, 'Guide', ?, '')").run(rowid, older);
    db.prepare("INSERT INTO sections_fts (rowid, heading_path, text, folder) VALUES (?, 'Guide', ?, '')").run(lastInsertRowid, older);
    const chunks = (q: string) => db.prepare('SELECT c.id FROM chunks_fts f JOIN chunks c ON c.rowid = f.rowid WHERE chunks_fts MATCH ?').pluck().all(q);
    const sections = (q: string) => db.prepare('SELECT s.document_id FROM sections_fts f JOIN sections s ON s.rowid = f.rowid WHERE sections_fts MATCH ?').pluck().all(q);
    expect(chunks('request OR verbatim')).toEqual([]);

    migrate(db, MIGRATIONS);
    expect(chunks('request AND verbatim AND handlers')).toEqual(['d#0']);
    expect(sections('request AND verbatim')).toEqual(['d']);
    expect(() => db.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
    db.close();
  });
});

describe('migration files', () => {
  it('hold their own SQL, importing nothing that a later change could rewrite under them', () => {
    // A migration that ran on one database must run the same on every later one: SQL taken from
    // live code (say, an index rebuild that a later column changes) would run on a schema it was
    // not written for.
    const folder = path.join(__dirname, 'migrations');
    for (const file of fs.readdirSync(folder).filter((f) => /^\d{4}-.*\.ts$/.test(f))) {
      const imports = [...fs.readFileSync(path.join(folder, file), 'utf8').matchAll(/^import .* from '([^']+)'/gm)].map((m) => m[1]);
      expect({ file, imports: imports.filter((i) => i !== './types') }).toEqual({ file, imports: [] });
    }
  });
});

describe('migration 17 (keyword statistics)', () => {
  const withChunks = (db: Database.Database, texts: string[]) => {
    db.prepare("INSERT INTO collections (id, root, created_at) VALUES ('c', '/notes', 'now')").run();
    db.prepare("INSERT INTO documents (id, collection_id, rel_path, source_uri, size, mtime_ms, chunk_count, ingested_at, status) VALUES ('d', 'c', 'guide.md', 'file:///x', 1, 1, 1, 'now', 'ready')").run();
    const insert = db.prepare("INSERT INTO chunks (id, document_id, ordinal, heading_path, text, token_count, start_line, end_line) VALUES (?, 'd', ?, 'Guide', ?, 1, 1, 1)");
    texts.forEach((t, i) => insert.run(`d#${i}`, i, t));
  };
  const scores = (db: Database.Database) => db.prepare("SELECT bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH 'rotate OR keys' ORDER BY rowid").pluck().all();

  it('rebuilds the indexes so deleted rows leave bm25’s totals, and counts deletions from then on', () => {
    const texts = ['We rotate the deploy keys.', 'Keys live in the vault.', 'Bread needs an hour to rise in a warm kitchen.', 'Soup, stock and stew recipes for winter evenings.'];
    const fresh = new Database(path.join(dir, 'fresh.db'));
    migrate(fresh, MIGRATIONS);
    withChunks(fresh, texts.slice(0, 2));

    const db = new Database(path.join(dir, 'v16.db'));
    migrate(db, MIGRATIONS.slice(0, 16));
    withChunks(db, texts);
    db.prepare("DELETE FROM chunks WHERE id IN ('d#2', 'd#3')").run();
    // FTS5 kept the two deleted rows in its totals: the same two rows score otherwise than in a fresh index.
    expect(scores(db)).not.toEqual(scores(fresh));

    migrate(db, MIGRATIONS);
    expect(scores(db)).toEqual(scores(fresh));
    db.prepare("DELETE FROM chunks WHERE id = 'd#1'").run();
    expect(db.prepare("SELECT deleted FROM keyword_index_churn WHERE fts = 'chunks_fts'").pluck().get()).toBe(1);
    db.close();
    fresh.close();
  });
});
