/**
 * Keyword search latency at scale: a database grown to each size in `chunks` from the scale corpus
 * (real sentences recombined, see scale-corpus.ts), queried with the question sets' questions.
 * Run alone: npx tsx test/bench/perf-lexical.ts [--chunks 10000,100000] [--keep /tmp/lex.db]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureCollection } from '../../electron/core/db/collections';
import { documentIdFor, writeDocumentVersion } from '../../electron/core/db/documents';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { lexicalSearch } from '../../electron/core/retrieve/lexical';
import { scaleCorpus, type ScaleCorpus } from './scale-corpus';

const REPO = path.resolve(import.meta.dirname, '../..');

export interface Latency {
  p50: number;
  p95: number;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export function latencyOf(times: readonly number[]): Latency {
  return { p50: +percentile(times, 50).toFixed(2), p95: +percentile(times, 95).toFixed(2) };
}

/** The question sets' questions: what people ask, as search queries. */
export function benchQueries(): string[] {
  const qs: string[] = [];
  for (const f of ['test/bench/questions/rust-book.json', 'test/bench/questions/tldr.json']) {
    for (const q of JSON.parse(fs.readFileSync(path.join(REPO, f), 'utf8')) as Array<{ question: string }>) qs.push(q.question);
  }
  return qs;
}

/** Adds documents to the database until it holds `target` chunks (the generator continues where it left off). */
export function growTo(db: Db, docs: Generator<ReturnType<ScaleCorpus['documents']> extends Generator<infer D> ? D : never>, collectionId: string, target: number): number {
  let count = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
  while (count < target) {
    const next = docs.next();
    if (next.done) break;
    const d = next.value;
    const id = documentIdFor(collectionId, d.relPath);
    writeDocumentVersion(db, {
      meta: { id, collectionId, relPath: d.relPath, sourceUri: `file:///scale/${d.relPath}`, title: d.title, size: 1, mtimeMs: 0, sha256: id, reader: 'markdown', readerVersion: 1, chunker: 'scale' },
      chunks: d.chunks,
    });
    count += d.chunks.length;
  }
  return count;
}

export function timeLexical(db: Db, queries: readonly string[], repeats = 2, k = 50): Latency {
  for (const q of queries.slice(0, 10)) lexicalSearch(db, q, k);
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    for (const q of queries) {
      const t = performance.now();
      lexicalSearch(db, q, k);
      times.push(performance.now() - t);
    }
  }
  return latencyOf(times);
}

/** Lexical p50/p95 at each size (ascending), on one database grown step by step. */
export function runLexicalScale(opts: { chunks: number[]; log: (s: string) => void; dbFile?: string }): { query: Record<string, { lexical: Latency }>; corpus: ScaleCorpus['source'] } {
  const tmp = opts.dbFile ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'quire-perf-lexical-'));
  const file = opts.dbFile ?? path.join(tmp!, 'scale.db');
  const db = openDatabase(file);
  try {
    const corpus = scaleCorpus();
    const collection = ensureCollection(db, '/scale');
    const docs = corpus.documents(Math.max(...opts.chunks));
    // The question sets ask about the real corpora; generated text is asked with its own words.
    const queries = corpus.source === 'shared' ? benchQueries() : corpus.queries(236);
    const query: Record<string, { lexical: Latency }> = {};
    for (const n of [...opts.chunks].sort((a, b) => a - b)) {
      const t = performance.now();
      const have = growTo(db, docs, collection.id, n);
      opts.log(`  ${have} chunks (${corpus.source} text) built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      query[String(n)] = { lexical: timeLexical(db, queries) };
      opts.log(`  lexical at ${n}: p50 ${query[String(n)]!.lexical.p50} ms, p95 ${query[String(n)]!.lexical.p95} ms (${queries.length} ${corpus.source === 'shared' ? 'questions' : 'generated queries'} × 2)`);
    }
    return { query, corpus: corpus.source };
  } finally {
    db.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { chunks: { type: 'string', default: '10000,100000' }, keep: { type: 'string' } } });
  const out = runLexicalScale({ chunks: values.chunks.split(',').map(Number), log: (s) => console.error(s), ...(values.keep ? { dbFile: values.keep } : {}) });
  console.log(JSON.stringify(out));
}
