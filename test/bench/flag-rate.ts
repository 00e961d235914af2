/**
 * How often the injection scan flags ordinary notes: reads and chunks the real corpora in
 * ../shared/corpora (not shipped; a clone without them says so and exits) with the app's own
 * parseFile (reader, chunker, scan), then reports per corpus the share of chunks carrying each flag
 * and the time the scan took. Every flag must stay under 0.5% of chunks (exit 1 otherwise): a
 * warning that fires on ordinary pages teaches people to ignore it.
 * Rerun: npm run bench:flags [-- --corpus rust-book|tldr] [--show N] (prints N flagged chunks per flag).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseFile } from '../../electron/core/ingest/parse/parse-file';
import { readerFor } from '../../electron/core/ingest/readers/index';
import { contextualText, DEFAULT_CHUNKER } from '../../electron/core/ingest/chunkers/index';
import { detectInjection } from '../../electron/core/text/injection';

const REPO = path.resolve(import.meta.dirname, '../..');
const CORPORA: Record<string, string> = {
  tldr: path.resolve(REPO, '../shared/corpora/tldr/pages'),
  'rust-book': path.resolve(REPO, '../shared/corpora/rust-book/src'),
};
/** The ceiling per flag, as a share of chunks. */
const MAX_RATE = 0.005;

const { values } = parseArgs({ options: { corpus: { type: 'string', multiple: true }, show: { type: 'string', default: '0' } } });
const names = values.corpus ?? Object.keys(CORPORA);
const show = Number(values.show);

function files(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((rel) => readerFor(rel) !== null && fs.statSync(path.join(dir, rel)).isFile())
    .sort();
}

let failed = false;
for (const name of names) {
  const root = CORPORA[name];
  if (!root || !fs.existsSync(root)) {
    console.log(`${name}: corpus not found at ${root ?? '(unknown corpus)'}; skipped.`);
    continue;
  }
  const counts = new Map<string, number>();
  const examples = new Map<string, string[]>();
  let chunks = 0;
  let scanMs = 0;
  for (const rel of files(root)) {
    const parsed = await parseFile({ relPath: rel, bytes: fs.readFileSync(path.join(root, rel)), chunker: DEFAULT_CHUNKER });
    for (const c of parsed.chunks) {
      chunks++;
      // Timed apart from reading and chunking: the scan runs on every chunk in the parse worker.
      const t = performance.now();
      detectInjection(contextualText(c));
      scanMs += performance.now() - t;
      for (const f of c.flags) {
        counts.set(f, (counts.get(f) ?? 0) + 1);
        const ex = examples.get(f) ?? [];
        if (ex.length < show) ex.push(`${rel}:${c.startLine}: ${c.text.slice(0, 300).replace(/\n/g, '⏎')}`);
        examples.set(f, ex);
      }
    }
  }
  console.log(`\n${name}: ${chunks} chunks, scan ${scanMs.toFixed(0)} ms (${((scanMs * 1000) / Math.max(1, chunks)).toFixed(1)} µs/chunk)`);
  const all = ['instructions', 'role-marker', 'invisible-characters', 'remote-image', ...counts.keys()];
  for (const flag of [...new Set(all)]) {
    const n = counts.get(flag) ?? 0;
    const rate = n / Math.max(1, chunks);
    const ok = rate < MAX_RATE;
    failed ||= !ok;
    console.log(`  ${flag.padEnd(22)} ${String(n).padStart(5)}  ${(rate * 100).toFixed(3)}%  ${ok ? 'ok' : `over ${MAX_RATE * 100}%`}`);
    for (const ex of examples.get(flag) ?? []) console.log(`      ${ex}`);
  }
}
process.exitCode = failed ? 1 : 0;
