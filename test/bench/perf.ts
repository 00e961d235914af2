/**
 * Speed at scale, in one run (issue #17.6):
 *
 *   npm run perf -- [--json] [--chunks 100000] [--dim 768] [--rescan-files 89100] [--cli-only]
 *
 * (a) import of ../shared/corpora/tldr/pages (7,425 files) through browser mode's API with the
 *     Ollama stand-in (its own process, zero latency): seconds, files/s, chunks/s, embed requests per chunk;
 * (b) a re-import of the unchanged folder;
 * (c) query latency p50/p95 at 10k and --chunks chunks, (d) two-stage recall and oversampling on
 * sets R and H, (g) ask's own time: all from perf-dense.ts's runDenseBench;
 * (e) the process's peak RSS through the import and re-import (the whole run's, which includes the
 *     query benchmark's own synthetic vectors, is printed beside it);
 * (f) p95 latency of a status request made over HTTP every 100 ms while (a) runs.
 * --rescan-files N also times a re-scan of N unchanged tiny files (the 89k-file target), printed only.
 * (h) the built `quire` command's cold start: search and status against node -e 0 (perf-cli.ts);
 * --cli-only measures just that, in a minute or two.
 *
 * Without ../shared/corpora a corpus is generated (scale-corpus.ts) and `corpus` says "generated".
 * Progress goes to stderr; stdout carries the summary, or with --json exactly one JSON document:
 * {"import":{"seconds","files","chunks","filesPerSecond","chunksPerSecond","embedRequestsPerChunk"},
 *  "reimport":{"seconds"},"query":{"10000":{"lexical","denseExact","denseQuantized","hybrid"},...},
 *  "recallAt10","oversampling","hardSet":{"recallAt10","oversampling","denseQuantizedP50"},
 *  "askOwnMs","peakRssMb","statusDuringImportP95Ms","corpus":"shared|generated",
 *  "cli":{"sampleSearch","status","scaleSearch":{"ms","nodeMs","overMs","targetMs","met"},"runs"}}
 * in milliseconds unless named otherwise; a figure not measured yet is null.
 *
 * Embedding numbers use the stand-in (hashed n-grams), so they time Quire's own pipeline, not a
 * model: a real Ollama adds its model's time on top.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine, type Engine } from '../../electron/core/engine';
import { writeDocumentVersion, documentIdFor } from '../../electron/core/db/documents';
import { ensureCollection } from '../../electron/core/db/collections';
import { openDatabase } from '../../electron/core/db/open';
import { chunkerRecipe } from '../../electron/core/ingest/chunkers/index';
import { DEFAULT_CHUNKER } from '../../electron/core/ingest/chunkers/types';
import { importFolder } from '../../electron/core/ingest/pipeline';
import { readerFor } from '../../electron/core/ingest/readers/index';
import type { ImportReport } from '../../electron/core/ingest/types';
import { walkFolder } from '../../electron/core/ingest/walk';
import { startBrowserMode } from '../../electron/web/server';
import type { ApiEvent } from '../../shared/contract';
import { describe as describeCli, runCliBench } from './perf-cli';
import { runDenseBench } from './perf-dense';
import { percentile, type Latency } from './perf-lexical';
import { scaleCorpus } from './scale-corpus';

const REPO = path.resolve(import.meta.dirname, '../..');
const TLDR = path.resolve(REPO, '../shared/corpora/tldr/pages');
const TLDR_FILES = 7_425;

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    chunks: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '768' },
    'rescan-files': { type: 'string', default: '0' },
    'cli-only': { type: 'boolean', default: false },
  },
});
const maxChunks = Number(values.chunks);
const dim = Number(values.dim);
const rescanFiles = Number(values['rescan-files']);
for (const [name, n] of [['--chunks', maxChunks], ['--dim', dim], ['--rescan-files', rescanFiles]] as const) {
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} takes a whole number, not ${n}`);
}
const sizes = [...new Set([Math.min(10_000, maxChunks), maxChunks])].filter((n) => n > 0);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The query figures at each size, as perf-dense's runDenseBench returns them. */
interface QueryAtScale {
  lexical: Latency;
  denseExact: Latency | null;
  denseQuantized: Latency | null;
  hybrid: Latency | null;
}
interface ScaleResult {
  query: Record<string, QueryAtScale>;
  recallAt10: number | null;
  oversampling: number | null;
  hardSet: { recallAt10: number | null; oversampling: number | null; denseQuantizedP50: number | null };
  askOwnMs: number | null;
  corpus: 'shared' | 'generated';
}

// ---- peak memory: sampled, and the kernel's own high-water mark at the end ----------------------
let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
sampler.unref();

async function startStandinProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'standin-process.ts')], { cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`the stand-in exited (${code}) before it listened`)));
  });
  return { url, child };
}

/** Without the shared corpora: 7,425 Markdown files of generated text, as many as tldr has. */
function generatedFolder(dir: string): string {
  const root = path.join(dir, 'generated-pages');
  let n = 0;
  for (const doc of scaleCorpus(5).documents(Number.MAX_SAFE_INTEGER)) {
    if (n >= TLDR_FILES) break;
    const file = path.join(root, doc.relPath);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const body = doc.chunks.map((c, i) => `${i === 0 ? `# ${doc.title}` : `## ${c.headingPath.split(' > ').at(-1)}`}\n\n${c.text}\n`).join('\n');
    fs.writeFileSync(file, body);
    n++;
  }
  return root;
}

/** One call of the API over browser mode's HTTP, as the renderer makes it. */
async function api(server: { origin: string; token: string }, method: string, input: unknown): Promise<unknown> {
  const res = await fetch(`${server.origin}/api/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
  if (!body.ok) throw new Error(`${method}: ${body.error?.code} ${body.error?.message}`);
  return body.value;
}

/**
 * An import started through the API as the renderer starts it, timed to its job.done, while
 * status is asked every `pollMs` (each after the last answered); returns the report, wall seconds
 * and the status latencies.
 */
async function importWhileAskingStatus(engine: Engine, server: { origin: string; token: string }, folder: string, pollMs: number) {
  const started = performance.now();
  let jobId: string | null = null;
  const early: ApiEvent[] = [];
  const done = new Promise<ImportReport>((resolve, reject) => {
    const off = engine.onEvent((e) => {
      if (e.type !== 'job.done' || e.kind !== 'import') return;
      if (jobId === null) return void early.push(e);
      if (e.jobId !== jobId) return;
      off();
      if (e.error || !e.result) reject(new Error(`import failed: ${e.error?.code} ${e.error?.message}`));
      else resolve(e.result as ImportReport);
    });
  });
  jobId = ((await api(server, 'importFolder', { path: folder })) as { jobId: string }).jobId;
  if (early.length > 0) throw new Error('an import finished before its job id was known');
  const latencies: number[] = [];
  let running = true;
  const polling = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, pollMs));
      if (!running) break;
      const t = performance.now();
      await api(server, 'status', {});
      latencies.push(performance.now() - t);
    }
  })();
  const report = await done;
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await polling;
  return { report, seconds, latencies };
}

/** --rescan-files: N unchanged tiny files, known to the database as imported, re-scanned. */
async function rescanOfUnchanged(dir: string, n: number): Promise<{ seconds: number; unchanged: number }> {
  const root = path.join(dir, 'rescan');
  for (let i = 0; i < n; i++) {
    const sub = path.join(root, `d${i % 300}`);
    if (i < 300) fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `n${i}.md`), `# Note ${i}\n\nline ${i}\n`);
  }
  const db = openDatabase(path.join(dir, 'rescan.db'));
  try {
    // Registered as an import would leave them (same reader, recipe, size and time), without
    // spending minutes importing them first: the re-scan is what is measured.
    const collection = ensureCollection(db, fs.realpathSync(root));
    const chunker = chunkerRecipe(DEFAULT_CHUNKER);
    const walk = await walkFolder(fs.realpathSync(root));
    for (const f of walk.files) {
      const reader = readerFor(f.relPath)!;
      const id = documentIdFor(collection.id, f.relPath);
      writeDocumentVersion(db, {
        meta: { id, collectionId: collection.id, relPath: f.relPath, sourceUri: `file://${f.absPath}`, title: f.relPath, size: f.size, mtimeMs: f.mtimeMs, sha256: id, reader: reader.name, readerVersion: reader.version, chunker },
        chunks: [{ ordinal: 0, headingPath: f.relPath, text: f.relPath, tokenCount: 4, startLine: 1, endLine: 3, flags: [] }],
      });
    }
    const report = await importFolder(db, root, { embedding: null, chunker: DEFAULT_CHUNKER });
    return { seconds: report.ms / 1000, unchanged: report.documents.unchanged };
  } finally {
    db.close();
  }
}

if (values['cli-only']) {
  const cli = await runCliBench({ log });
  process.stdout.write(values.json ? `${JSON.stringify({ cli })}\n` : `${cliLines(cli).join('\n')}\n`);
  process.exit(0);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-perf-'));
const standin = await startStandinProcess();
const corpus: 'shared' | 'generated' = fs.existsSync(TLDR) ? 'shared' : 'generated';
try {
  const folder = corpus === 'shared' ? TLDR : generatedFolder(tmp);
  log(`== import of ${folder}${corpus === 'generated' ? ' (generated: ../shared/corpora is absent)' : ''}, stand-in at ${standin.url}`);
  const engine = createEngine({ dbPath: path.join(tmp, 'import.db'), env: { OLLAMA_HOST: standin.url } });
  const staticDir = path.join(tmp, 'static');
  fs.mkdirSync(staticDir);
  const server = await startBrowserMode({ engine, staticDir, rateLimit: { burst: 1000, perSecond: 1000 } });
  let imported: Awaited<ReturnType<typeof importWhileAskingStatus>>;
  let reimport: Awaited<ReturnType<typeof importWhileAskingStatus>>;
  try {
    imported = await importWhileAskingStatus(engine, server, folder, 100);
    const r = imported.report;
    log(`  ${r.documents.added} documents, ${r.chunks} chunks, ${r.embedRequests} embed requests in ${imported.seconds.toFixed(2)} s; status p95 ${percentile(imported.latencies, 95).toFixed(1)} ms over ${imported.latencies.length} requests`);
    if (r.errors.length > 0) log(`  ${r.errors.length} files failed, e.g. ${r.errors[0]!.path}: ${r.errors[0]!.message}`);
    reimport = await importWhileAskingStatus(engine, server, folder, 100);
    log(`  re-import of the unchanged folder: ${reimport.seconds.toFixed(2)} s (${reimport.report.documents.unchanged} unchanged)`);
  } finally {
    await server.close();
    await engine.close();
  }

  // Quire's own peak: the import and re-import. What follows builds the benchmark's synthetic vector
  // sets (two 100k × 768 float arrays, 600 MB) in this process, which is the bench's memory, not Quire's.
  const peakRssMb = Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 2 ** 20;
  // Queries at scale: keyword, exact and two-stage dense, hybrid, recall and ask's own time (perf-dense.ts).
  const scale: ScaleResult = await runDenseBench({ chunks: sizes, dim, log });

  const rescan = rescanFiles > 0 ? await rescanOfUnchanged(tmp, rescanFiles) : null;
  if (rescan) log(`== re-scan of ${rescanFiles} unchanged files: ${rescan.seconds.toFixed(2)} s (${rescan.unchanged} unchanged)`);

  // Last, on a quiet process: the other stages' memory and threads are gone.
  const cli = await runCliBench({ log });

  const r = imported.report;
  const files = r.documents.added + r.documents.updated + r.documents.unchanged + r.documents.failed + r.documents.skipped;
  const wholeRunPeakMb = Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 2 ** 20;
  log(`peak RSS: ${Math.round(peakRssMb)} MB through the import and re-import; ${Math.round(wholeRunPeakMb)} MB for the whole run, the query benchmark's synthetic vectors included`);
  const result = {
    import: {
      seconds: round(imported.seconds, 2),
      files,
      chunks: r.chunks,
      filesPerSecond: round(files / imported.seconds, 1),
      chunksPerSecond: round(r.chunks / imported.seconds, 1),
      embedRequestsPerChunk: r.chunks > 0 ? round(r.embedRequests / r.chunks, 4) : null,
    },
    reimport: { seconds: round(reimport.seconds, 2) },
    query: scale.query,
    recallAt10: scale.recallAt10,
    oversampling: scale.oversampling,
    hardSet: scale.hardSet,
    askOwnMs: scale.askOwnMs,
    peakRssMb: round(peakRssMb, 0),
    statusDuringImportP95Ms: imported.latencies.length > 0 ? round(percentile(imported.latencies, 95), 1) : null,
    corpus,
    cli,
  };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const lines = [
      `import      ${result.import.seconds} s, ${files} files, ${r.chunks} chunks: ${result.import.filesPerSecond} files/s, ${result.import.chunksPerSecond} chunks/s, ${result.import.embedRequestsPerChunk} embed requests per chunk`,
      `re-import   ${result.reimport.seconds} s (unchanged)`,
      ...Object.entries(result.query).map(
        ([n, q]) =>
          `query ${n.padStart(6)}  lexical ${q.lexical.p50}/${q.lexical.p95} ms, dense exact ${q.denseExact?.p50}/${q.denseExact?.p95}, two-stage ${q.denseQuantized?.p50}/${q.denseQuantized?.p95}, hybrid ${q.hybrid?.p50}/${q.hybrid?.p95} (p50/p95)`,
      ),
      `two-stage   recall@10 ${result.recallAt10} at ×${result.oversampling} (set R); set H recall@10 ${result.hardSet.recallAt10} at ×${result.hardSet.oversampling}, p50 ${result.hardSet.denseQuantizedP50} ms`,
      `ask         ${result.askOwnMs} ms of its own (model excluded) at ${sizes.at(-1)} chunks`,
      `peak RSS    ${result.peakRssMb} MB (import and re-import; ${Math.round(wholeRunPeakMb)} MB with the query benchmark's synthetic vectors)`,
      `status      p95 ${result.statusDuringImportP95Ms} ms while importing`,
      `corpus      ${corpus}`,
      ...(rescan ? [`re-scan     ${rescan.seconds} s for ${rescanFiles} unchanged files`] : []),
      ...cliLines(cli),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
} finally {
  standin.child.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}

function cliLines(cli: Awaited<ReturnType<typeof runCliBench>>): string[] {
  return [`quire search (sample notes) ${describeCli(cli.sampleSearch)}`, `quire status ${describeCli(cli.status)}`, `quire search (100k chunks) ${describeCli(cli.scaleSearch)}`];
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

