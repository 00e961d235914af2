/**
 * How long forgetting a folder takes to answer, beside the keyword statistics' rebuild it makes due
 * (db/keyword-statistics.ts): the app's and browser mode's `removeCollection` answers once the
 * folder's rows are gone and leaves the rebuild to the background; the CLI's `forget`
 * (backgroundUpkeep: false) answers after it. Two folders of generated notes, the second a fifth
 * of the whole, imported without vectors into one database, copied, and the second forgotten from
 * each copy.
 *
 * On two shared cores (2026-12-02): 28,000 chunks (4,000 files), the app answered in 712 ms and its
 * statistics were rebuilt 3.2 s after the call, where the CLI answered in 4.0 s; 56,000 chunks
 * (8,000 files), 1.3 s against 6.2 s (rebuilt 6.7 s after the call). What the app still waits for
 * is the forget's own transaction.
 * Run alone: npx tsx test/bench/perf-forget.ts [--files 4000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hasBuildUnderWay } from '../../electron/core/db/keyword-index-build';
import { dueForRebuild } from '../../electron/core/db/keyword-statistics';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { createEngine } from '../../electron/core/engine';

const { values } = parseArgs({ options: { files: { type: 'string', default: '4000' } } });
const FILES = Number(values.files);
const WORDS = 'ledger harbour quartz meadow lantern copper orchid signal tundra velvet anchor bramble cinder delta ember fjord glacier hollow'.split(' ');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-perf-forget-'));
const word = (i: number, j: number) => `${WORDS[(i * 7 + j * 13) % WORDS.length]}${(i * 31 + j) % 997}`;
function writeFolder(name: string, from: number, to: number): string {
  const root = path.join(tmp, name);
  for (let i = from; i < to; i++) {
    const dir = path.join(root, `d${i % 50}`);
    fs.mkdirSync(dir, { recursive: true });
    const sections = [0, 1, 2].map((s) => `## Part ${s}\n\n${Array.from({ length: 120 }, (_, j) => word(i, j + s * 120)).join(' ')}.\n`);
    fs.writeFileSync(path.join(dir, `n${i}.md`), `# Note ${i}\n\n${sections.join('\n')}`);
  }
  return root;
}

const kept = writeFolder('kept', 0, Math.round(FILES * 0.8));
const gone = writeFolder('gone', Math.round(FILES * 0.8), FILES);
const built = path.join(tmp, 'built.db');
const setup = createEngine({ dbPath: built, backgroundUpkeep: false, parseWorker: null });
let t = performance.now();
await setup.importFolder({ path: kept, embed: false });
await setup.importFolder({ path: gone, embed: false });
const chunks = setup.indexStatus().chunks;
console.log(`imported ${FILES} files, ${chunks} chunks in ${((performance.now() - t) / 1000).toFixed(1)} s`);
await setup.close();

const copy = (name: string) => {
  const file = path.join(tmp, name);
  fs.copyFileSync(built, file);
  return file;
};
const settled = async (db: Db) => {
  while (hasBuildUnderWay(db) || dueForRebuild(db).length > 0) await new Promise((r) => setTimeout(r, 20));
};

{
  let db!: Db;
  const app = createEngine({ dbPath: copy('app.db'), parseWorker: null, open: (f) => (db = openDatabase(f)) });
  const id = app.indexStatus().collections.find((c) => c.root === gone)!.id;
  t = performance.now();
  await app.call('removeCollection', { collectionId: id });
  const answered = performance.now() - t;
  await settled(db);
  console.log(`app (removeCollection): answered in ${answered.toFixed(0)} ms; keyword statistics rebuilt ${((performance.now() - t) / 1000).toFixed(1)} s after the call`);
  await app.close();
}
{
  const cli = createEngine({ dbPath: copy('cli.db'), backgroundUpkeep: false, parseWorker: null });
  t = performance.now();
  await cli.forgetFolder(gone);
  console.log(`CLI (forgetFolder, awaited): answered in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await cli.close();
}
fs.rmSync(tmp, { recursive: true, force: true });
