/**
 * What keyword search's reader's-eye text (text/searchable.ts, migration 0014) costs: searchable_text
 * over real Markdown per MB, and migration 0014 rebuilding both full-text indexes of a version-13
 * database of N chunks (fastify's docs and the rust book, cut into ~1 KB chunks, repeated to N), and
 * one hostile line. Then migration 0017 and a statistics refresh after a tenth of the rows are
 * deleted (db/keyword-statistics.ts), which rebuild the same indexes. During that refresh a second
 * connection (a worker thread, as another process importing would be) writes a row every 20 ms,
 * with the app's 5 s busy timeout: how long its writes wait for the lock and how many fail, and
 * how long this thread is held at a stretch (the longest gap between a timer's ticks, which
 * bounds the longest write transaction the refresh holds), and each batch's transaction. Then an
 * FTS5 table's DROP, alone, at that size (what the swap pays).
 *
 * At 100,000 chunks on two shared cores (2026-12-02): the refresh as one transaction per index
 * held this thread and the lock 6.0 s (7–18 s on busier runs); the second connection's writes
 * waited up to 2.9 s, and one failed SQLITE_BUSY after 5 s in another run. In batches
 * (db/keyword-index-build.ts): 14.4 s in all, 7.2 s of it in 74 transactions (the rest pauses
 * between them), the longest 181 ms, each swap 32–36 ms; the second connection wrote 366 rows,
 * waiting at most 187 ms, none failed (another run: 12.8 s, 6.4 s in 68 transactions, the longest
 * 168 ms, writes waiting at most 180 ms). Keyword queries on the index built in batches as fast as
 * on one built in one insert (77 and 86 ms for twelve). Migration 0017 (both indexes in its one
 * transaction): 5.9–7.5 s.
 * Run alone: npx tsx test/bench/perf-searchable.ts [--chunks 100000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { refreshKeywordStatistics } from '../../electron/core/db/keyword-statistics';
import { migrate } from '../../electron/core/db/migrate';
import { MIGRATIONS } from '../../electron/core/db/migrations/index';
import { searchableText } from '../../electron/core/text/searchable';

const REPO = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { chunks: { type: 'string', default: '100000' } } });
const N = Number(values.chunks);

function* markdown(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* markdown(p);
    else if (e.name.endsWith('.md')) yield fs.readFileSync(p, 'utf8');
  }
}

const pieces: string[] = [];
for (const dir of ['node_modules/fastify/docs', '../shared/corpora/rust-book/src']) {
  const abs = path.join(REPO, dir);
  if (!fs.existsSync(abs)) continue;
  for (const text of markdown(abs)) for (let i = 0; i < text.length; i += 1000) pieces.push(text.slice(i, i + 1000));
}
const bytes = pieces.reduce((n, p) => n + Buffer.byteLength(p), 0);
let t = performance.now();
for (const p of pieces) searchableText(p);
const perMb = (performance.now() - t) / (bytes / 1e6);
console.log(`searchable_text: ${pieces.length} pieces, ${(bytes / 1e6).toFixed(1)} MB, ${perMb.toFixed(1)} ms per MB`);

// A section is indexed whole, in the import's write transaction: a hostile line must cost what its
// length does. Many code spans on one line (`a`a`a…) once took 58 s per MB, growing with the square.
for (const size of [250_000, 1_000_000]) {
  const line = '[a](b) ' + '`a'.repeat(size / 2);
  t = performance.now();
  searchableText(line);
  console.log(`searchable_text on a ${size / 1e6} MB line of code spans: ${(performance.now() - t).toFixed(0)} ms`);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-perf-searchable-'));
try {
  const db = new Database(path.join(dir, 'v13.db'));
  db.pragma('journal_mode = WAL');
  migrate(db, MIGRATIONS.slice(0, 13));
  db.prepare("INSERT INTO collections (id, root, created_at) VALUES ('c', '/notes', 'now')").run();
  const doc = db.prepare("INSERT INTO documents (id, collection_id, rel_path, source_uri, size, mtime_ms, chunk_count, ingested_at, status) VALUES (?, 'c', ?, 'file:///x', 1, 100, 100, 'now', 'ready')");
  const chunk = db.prepare('INSERT INTO chunks (id, document_id, ordinal, heading_path, text, token_count, start_line, end_line) VALUES (?, ?, ?, ?, ?, 1, 1, 1)');
  const section = db.prepare('INSERT INTO sections (document_id, first_ordinal, last_ordinal, heading_path) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < N; i++) {
      const d = `d${Math.floor(i / 100)}`;
      if (i % 100 === 0) {
        doc.run(d, `docs/part-${Math.floor(i / 100)}.md`);
        for (let s = 0; s < 100; s += 4) section.run(d, s, s + 3, `Part > [Section ${s}](#section-${s})`);
      }
      chunk.run(`${d}#${i % 100}`, d, i % 100, `Part > [Section ${i % 100}](#section-${i % 100})`, pieces[i % pieces.length]);
    }
  })();
  t = performance.now();
  migrate(db, MIGRATIONS.slice(0, 14));
  console.log(`migration 0014 on ${N} chunks (${N / 4} sections): ${((performance.now() - t) / 1000).toFixed(1)} s`);
  migrate(db, MIGRATIONS.slice(0, 16));
  t = performance.now();
  migrate(db, MIGRATIONS);
  console.log(`migration 0017 (both indexes rebuilt, as a statistics refresh does): ${((performance.now() - t) / 1000).toFixed(1)} s`);
  console.log(`  keyword queries on the index built in one insert: ${queryMs(db)}`);
  // A tenth of the documents replaced: what an import then pays to give bm25 true totals again.
  db.prepare(`DELETE FROM chunks WHERE document_id IN (SELECT id FROM documents ORDER BY id LIMIT ?)`).run(Math.ceil(N / 1000));
  db.prepare(`DELETE FROM sections WHERE document_id IN (SELECT id FROM documents ORDER BY id LIMIT ?)`).run(Math.ceil(N / 1000));
  db.exec('CREATE TABLE bench_writes (at REAL)');
  const writer = await startWriter(path.join(dir, 'v13.db'));
  // The longest gap between ticks of a 5 ms timer: how long this thread (the app's main thread)
  // is held at a stretch; a write transaction is held at most that long.
  let last = performance.now();
  let held = 0;
  const ticker = setInterval(() => {
    held = Math.max(held, performance.now() - last);
    last = performance.now();
  }, 5);
  t = performance.now();
  const batches: Array<{ fts: string; kind: string; rows: number; ms: number }> = [];
  const rebuilt = await refreshKeywordStatistics(db, undefined, { onBatch: (b) => batches.push(b) });
  const refreshMs = performance.now() - t;
  held = Math.max(held, performance.now() - last);
  clearInterval(ticker);
  const writes = await writer.stop();
  console.log(`statistics refresh after a tenth deleted (${rebuilt.join(', ') || 'nothing rebuilt'}): ${(refreshMs / 1000).toFixed(1)} s`);
  for (const fts of ['chunks_fts', 'sections_fts']) {
    const mine = batches.filter((b) => b.fts === fts);
    const copies = mine.filter((b) => b.kind === 'copied');
    const longest = copies.reduce((m, b) => (b.ms > m.ms ? b : m), { ms: 0, rows: 0 });
    const swap = mine.find((b) => b.kind === 'swapped');
    console.log(`  ${fts}: ${copies.length} batches, ${copies.reduce((n, b) => n + b.ms, 0).toFixed(0)} ms in them; longest ${longest.ms.toFixed(0)} ms (${longest.rows} rows); the swap ${swap ? swap.ms.toFixed(0) : '-'} ms`);
  }
  console.log(`  this thread held at most ${held.toFixed(0)} ms at a stretch (longest gap between a 5 ms timer's ticks)`);
  const waits = writes.waits.sort((a, b) => a - b);
  const q = (f: number) => (waits.length ? waits[Math.min(waits.length - 1, Math.floor(f * waits.length))]!.toFixed(0) : '-');
  console.log(`  a second connection's writes meanwhile: ${waits.length} written, ${writes.busy} failed SQLITE_BUSY after 5 s; wait p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`);
  // Many small commits leave FTS5 more segments than one big insert (merged by automerge).
  console.log(`  keyword queries on the index built in batches: ${queryMs(db)}`);
  // Dropping an FTS5 table frees every page of its shadow tables: what a swap's DROP costs at this size.
  db.exec(`CREATE VIRTUAL TABLE drop_probe USING fts5(heading_path, text, folder, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
           INSERT INTO drop_probe (rowid, heading_path, text, folder) SELECT rowid, heading_path, text, '' FROM chunks;`);
  t = performance.now();
  db.exec('DROP TABLE drop_probe');
  console.log(`DROP TABLE of an FTS5 table of ${db.prepare('SELECT count(*) FROM chunks').pluck().get()} chunks: ${(performance.now() - t).toFixed(0)} ms`);
  db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Twelve top-20 bm25 queries over chunks_fts, the median round of five, in ms. */
function queryMs(db: Database.Database): string {
  const words = ['ownership', 'borrow', 'plugin', 'request', 'lifetime', 'trait', 'route OR hook', 'error', 'schema', 'closure', 'iterator', 'reply'];
  const q = db.prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT 20');
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (const w of words) q.all(w);
    rounds.push(performance.now() - t0);
  }
  return `${rounds.sort((a, b) => a - b)[2]!.toFixed(1)} ms for ${words.length}`;
}

/** A second connection writing a row every 20 ms until stopped, each write's wait for the lock recorded. */
async function startWriter(file: string): Promise<{ stop: () => Promise<{ waits: number[]; busy: number }> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.module);
     const db = new Database(workerData.file);
     db.pragma('busy_timeout = 5000');
     const waits = []; let busy = 0; let stopping = false;
     parentPort.on('message', () => (stopping = true));
     parentPort.postMessage('ready');
     const tick = () => {
       if (stopping) { db.close(); parentPort.postMessage({ waits, busy }); return; }
       const t = performance.now();
       try {
         db.prepare('BEGIN IMMEDIATE').run();
         waits.push(performance.now() - t);
         db.prepare('INSERT INTO bench_writes (at) VALUES (?)').run(Date.now());
         db.prepare('COMMIT').run();
       } catch (e) {
         if (String(e.code).startsWith('SQLITE_BUSY')) busy++; else throw e;
       }
       setTimeout(tick, 20);
     };
     tick();`,
    { eval: true, workerData: { file, module: path.join(REPO, 'node_modules/better-sqlite3') } },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  return {
    stop: () =>
      new Promise((resolve, reject) => {
        worker.once('message', (r) => void worker.terminate().then(() => resolve(r)));
        worker.once('error', reject);
        worker.postMessage('stop');
      }),
  };
}
