/**
 * What keyword search's reader's-eye text (text/searchable.ts, migration 0014) costs: searchable_text
 * over real Markdown per MB, and migration 0014 rebuilding both full-text indexes of a version-13
 * database of N chunks (fastify's docs and the rust book, cut into ~1 KB chunks, repeated to N), and
 * one hostile line. Then migration 0017 and a statistics refresh after a tenth of the rows are
 * deleted (db/keyword-statistics.ts), which rebuild the same indexes.
 * Run alone: npx tsx test/bench/perf-searchable.ts [--chunks 100000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
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
  // A tenth of the documents replaced: what an import then pays to give bm25 true totals again.
  db.prepare(`DELETE FROM chunks WHERE document_id IN (SELECT id FROM documents ORDER BY id LIMIT ?)`).run(Math.ceil(N / 1000));
  db.prepare(`DELETE FROM sections WHERE document_id IN (SELECT id FROM documents ORDER BY id LIMIT ?)`).run(Math.ceil(N / 1000));
  t = performance.now();
  const rebuilt = refreshKeywordStatistics(db);
  console.log(`statistics refresh after a tenth deleted (${rebuilt.join(', ') || 'nothing rebuilt'}): ${((performance.now() - t) / 1000).toFixed(1)} s`);
  db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
