/**
 * Measures import and search on the real corpora in ../shared/corpora (not shipped with the app;
 * a clone without them says so and exits). Rerun: npm run perf [-- --corpus rust-book|tldr] [--parse worker|inline]
 * (worker, the default, parses as the app does: in the parse worker thread; inline on the main thread).
 * Prints a table and writes bench-results/perf-<date>.json.
 *
 * Embedding numbers use the Ollama stand-in (hashed n-grams on this CPU), so they time Quire's
 * own pipeline, not a real model; a real Ollama adds its model's embedding time on top.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../electron/core/db/open';
import { importFolder } from '../../electron/core/ingest/pipeline';
import { sharedParsePool } from '../../electron/core/ingest/parse/parse-pool';
import type { ImportReport } from '../../electron/core/ingest/types';
import { OllamaGateway } from '../../electron/core/ollama/gateway';
import { search } from '../../electron/core/retrieve/search';
import type { SearchMode } from '../../shared/search';
import { startStandin } from '../support/ollama-standin/server';
import { QUERIES } from './queries';

const REPO = path.resolve(import.meta.dirname, '../..');
const CORPORA: Record<string, string> = {
  'rust-book': path.resolve(REPO, '../shared/corpora/rust-book/src'),
  tldr: path.resolve(REPO, '../shared/corpora/tldr/pages'),
};

const { values } = parseArgs({ options: { corpus: { type: 'string', multiple: true }, repeats: { type: 'string', default: '5' }, parse: { type: 'string', default: 'worker' } } });
const pool = sharedParsePool(new URL('../../electron/core/ingest/parse/worker-bootstrap.mjs', import.meta.url));
const parseIn = values.parse === 'inline' ? {} : { parse: (req: Parameters<typeof pool.parse>[0]) => pool.parse(req) };
const names = values.corpus ?? Object.keys(CORPORA);
const repeats = Number(values.repeats);

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

const summarise = (r: ImportReport) => ({
  files: Object.values(r.documents).reduce((a, b) => a + b, 0) - r.documents.deleted - r.documents.moved,
  documents: r.documents,
  chunks: r.chunks,
  embedded: r.embedded,
  embedRequests: r.embedRequests,
  seconds: r.ms / 1000,
});

const results: Record<string, unknown> = {
  when: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  corpora: {},
};

const ollama = await startStandin();
const gateway = new OllamaGateway({ host: ollama.url });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-perf-'));
try {
  for (const name of names) {
    const folder = CORPORA[name];
    if (!folder || !fs.existsSync(folder)) {
      console.error(`${name}: ${folder ?? '(unknown corpus)'} not found — the corpora live in ../shared/corpora beside the repo.`);
      continue;
    }
    console.error(`\n== ${name} (${folder})`);
    const out: Record<string, unknown> = { folder };

    const lexDb = openDatabase(path.join(tmp, `${name}-lexical.db`));
    const lexical = await importFolder(lexDb, folder, { embedding: null, ...parseIn });
    out.importLexical = summarise(lexical);
    const rescan = await importFolder(lexDb, folder, { embedding: null, ...parseIn });
    out.rescanUnchanged = { seconds: rescan.ms / 1000, unchanged: rescan.documents.unchanged };
    lexDb.close();
    console.error(`  lexical import: ${lexical.documents.added} documents, ${lexical.chunks} chunks, ${(lexical.ms / 1000).toFixed(2)} s; re-scan ${(rescan.ms / 1000).toFixed(2)} s`);

    const dbFile = path.join(tmp, `${name}-hybrid.db`);
    const db = openDatabase(dbFile);
    const hybrid = await importFolder(db, folder, { embedding: { gateway, model: 'embeddinggemma' }, ...parseIn });
    out.importWithStandin = summarise(hybrid);
    out.skipped = hybrid.skipped;
    out.errors = hybrid.errors;
    console.error(`  import + embed (stand-in): ${hybrid.chunks} chunks, ${hybrid.embedRequests} requests, ${(hybrid.ms / 1000).toFixed(2)} s`);

    const queries = QUERIES[name] ?? [];
    const latency: Record<string, { p50: number; p95: number; n: number }> = {};
    for (const mode of ['lexical', 'dense', 'hybrid'] as SearchMode[]) {
      for (const q of queries.slice(0, 3)) await search(db, q, { gateway, mode, k: 8 }); // warm caches
      const times: number[] = [];
      for (let r = 0; r < repeats; r++) {
        for (const q of queries) {
          const t = performance.now();
          const res = await search(db, q, { gateway, mode, k: 8 });
          times.push(performance.now() - t);
          if (res.mode !== mode) throw new Error(`${mode} search fell back to ${res.mode}: ${res.fallback?.reason}`);
        }
      }
      latency[mode] = { p50: +percentile(times, 50).toFixed(2), p95: +percentile(times, 95).toFixed(2), n: times.length };
      console.error(`  search ${mode.padEnd(7)} p50 ${latency[mode]!.p50} ms, p95 ${latency[mode]!.p95} ms (${times.length} queries)`);
    }
    out.searchMs = latency;
    out.dbBytes = fs.statSync(dbFile).size + (fs.existsSync(`${dbFile}-wal`) ? fs.statSync(`${dbFile}-wal`).size : 0);
    db.close();
    (results.corpora as Record<string, unknown>)[name] = out;
  }
} finally {
  await ollama.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

const dir = path.join(REPO, 'bench-results');
fs.mkdirSync(dir, { recursive: true });
const file = path.join(dir, `perf-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.json`);
fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
console.error(`\nwritten to ${path.relative(REPO, file)}`);
