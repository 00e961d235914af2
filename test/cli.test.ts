import fs from 'node:fs';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../electron/cli/run';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

const ROOT = path.resolve(__dirname, '..');
const run = promisify(execFile);

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

/**
 * Runs the CLI's entry in-process, as `npm run quire -- ...args` would run it, and collects what it
 * writes. The environment is only what is given here (never the test runner's), so a read of
 * process.env where the passed one belongs sends Quire to the wrong database or Ollama.
 */
const quire = (args: string[], env: Record<string, string> = {}) => runCli(args, { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file, ...env });

/** The real entry, in a process of its own: what `npm run quire` starts. */
async function spawnQuire(args: string[], env: Record<string, string>, nodeArgs: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      // A process that does not end (a handle left open) is killed and fails the test.
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-');
  notes.write('ops/keys.md', '# Keys\n\n## Rotation\n\nRotate the deploy keys every ninety days.\n');
  notes.write('recipes/bread.md', '# Bread\n\nBake at 250 degrees for twenty minutes.\n');
  notes.write('diagram.svg', '<svg/>');
  db = tempDbPath('quire-cli-db-');
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('quire CLI', () => {
  it('the real entry, in its own process: exit codes, and library logging kept off stdout', async () => {
    const smokeDb = tempDbPath('quire-cli-smoke-');
    try {
      // A stray console.log late in the run (as a library might log) must land on stderr, not in the JSON.
      const strayLog = 'data:text/javascript,process.once("beforeExit",()=>console.log("stray library log"))';
      const env = { OLLAMA_HOST: ollama.url, QUIRE_DB: smokeDb.file };
      // Each its own database: two processes creating one new database at once can race its migration.
      const [usage, status, imported] = await Promise.all([
        spawnQuire(['search', '--json', '--db', path.join(path.dirname(smokeDb.file), 'other.db')], env),
        spawnQuire(['status', '--json'], env, ['--import', strayLog]),
        // An import parses in a worker thread: the process must still end when the import does.
        spawnQuire(['import', notes.root, '--no-embed', '--json', '--db', path.join(path.dirname(smokeDb.file), 'import.db')], env),
      ]);
      expect(imported.code).toBe(0);
      expect(JSON.parse(imported.stdout).documents.added).toBe(2);
      expect(usage.code).toBe(2);
      expect(JSON.parse(usage.stdout).error.code).toBe('INVALID_ARGUMENT');
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ database: smokeDb.file, documents: { total: 0 }, ollama: { host: ollama.url } });
      expect(status.stderr).toContain('stray library log');
    } finally {
      smokeDb.dispose();
    }
  });

  it('import --json prints exactly one JSON document of the documented shape', async () => {
    const { code, stdout } = await quire(['import', notes.root, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.documents).toEqual({ added: 2, updated: 0, unchanged: 0, moved: 0, deleted: 0, skipped: 1, failed: 0 });
    expect(report.chunks).toBe(2);
    expect(report.embedded).toBe(2);
    expect(report.embedRequests).toBe(1);
    expect(report.errors).toEqual([]);
    expect(report.skipped).toEqual([{ path: 'diagram.svg', reason: 'unsupported-type' }]);
    expect(typeof report.ms).toBe('number');
  });

  it('search --json gives ranked passages with relative path, heading and lines', async () => {
    const { code, stdout } = await quire(['search', 'how do I rotate the keys', '--json', '--k', '2']);
    expect(code).toBe(0);
    const res = JSON.parse(stdout);
    expect(res.mode).toBe('hybrid');
    expect(res.results).toHaveLength(2);
    expect(res.results[0]).toMatchObject({ path: 'ops/keys.md', heading: 'Keys', lines: [1, 5], pages: null, lexicalRank: 1, denseRank: 1 });
    expect(Object.keys(res.results[0]).sort()).toEqual(['chunkId', 'denseRank', 'heading', 'lexicalRank', 'lines', 'pages', 'path', 'score', 'text']);
  });

  it('searches lexically, and says so, when Ollama is not running', async () => {
    const { code, stdout, stderr } = await quire(['search', 'bake bread', '--json'], { OLLAMA_HOST: 'http://127.0.0.1:9' });
    expect(code).toBe(0);
    const res = JSON.parse(stdout);
    expect(res.mode).toBe('lexical');
    expect(res.fallback.code).toBe('OLLAMA_UNREACHABLE');
    expect(res.results[0].path).toBe('recipes/bread.md');
    expect(stderr).toMatch(/keyword search/);
  });

  it('human search output names file, lines and heading path', async () => {
    const { stdout } = await quire(['search', 'deploy keys', '--mode', 'lexical']);
    expect(stdout).toMatch(/1\. ops\/keys\.md:1-5 /);
    expect(stdout).toContain('   Keys');
  });

  it('status and doctor report a healthy index', async () => {
    const status = JSON.parse((await quire(['status', '--json'])).stdout);
    expect(status.documents).toMatchObject({ total: 2, ready: 2, needsEmbedding: 0 });
    expect(status.ollama.version).toBeTruthy();
    // How vector search reads the table: exact under the two-stage threshold, and why.
    expect(status.activeModel.dense).toMatchObject({ method: 'exact', quantizeAbove: 20_000, bits: null, oversampling: null });
    expect((await quire(['status'])).stdout).toMatch(/^Vector search: exact: \d+ vectors, under the 20,000 from which search goes in two stages$/m);
    const doctor = await quire(['doctor', '--json']);
    expect(doctor.code).toBe(0);
    expect(JSON.parse(doctor.stdout).ok).toBe(true);
  });

  it.each([
    ['a document lost a chunk', "UPDATE documents SET chunk_count = chunk_count + 1 WHERE rel_path = 'ops/keys.md'", /FAIL\s+documents complete: incomplete: ops\/keys\.md/],
    ['a chunk lost its full-text row', 'DELETE FROM chunks_fts WHERE rowid = (SELECT min(rowid) FROM chunks)', /FAIL\s+chunks = full-text rows: (\d+) chunks, (?!\1 )\d+ full-text rows/],
    ['chunks lost their section', 'DELETE FROM sections WHERE rowid = (SELECT min(rowid) FROM sections)', /FAIL\s+sections cover every chunk: \d+ sections, \d+ section full-text rows, [1-9]\d* chunks in no section/],
  ])('doctor exits non-zero when the index is damaged: %s', async (_what, damage, says) => {
    const copy = tempDbPath('quire-cli-broken-');
    try {
      await quire(['import', notes.root, '--no-embed', '--db', copy.file]);
      const raw = new Database(copy.file);
      raw.prepare(damage).run();
      raw.close();
      const doctor = await quire(['doctor', '--db', copy.file]);
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(says);
    } finally {
      copy.dispose();
    }
  });

  it('ask --json prints the documented answer document', async () => {
    const { code, stdout } = await quire(['ask', 'How often are the deploy keys rotated?', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(Object.keys(r)).toEqual(expect.arrayContaining(['answer', 'refused', 'citations', 'flags', 'budget', 'retrieval', 'latencyMs', 'model', 'error']));
    expect(r.answer).toMatch(/ninety days\. \[[0-9a-f]{12}#0\]/);
    expect(r.refused).toBe(false);
    expect(r.citations[0]).toMatchObject({ path: 'ops/keys.md', lines: [1, 5], check: 'supported' });
    expect(Object.keys(r.budget.breakdown).sort()).toEqual(['history', 'question', 'reserve', 'sources', 'system']);
    expect(r.budget).toMatchObject({ numCtx: 8192, truncationSuspected: false, exact: true, lostSources: [] });
    // llama3.2's own tokenizer and template: the estimate is what Ollama read.
    expect(r.budget.estimated).toBe(r.budget.reported);
    expect(r.retrieval[0]).toMatchObject({ sent: true });
    expect(r.model).toEqual({ chat: 'llama3.2:latest', embed: 'embeddinggemma:latest' });
    expect(r.error).toBeNull();
  });

  it('ask streams the answer and lists checked citations for a person', async () => {
    const { code, stdout } = await quire(['ask', 'How often are the deploy keys rotated?']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Citations:\n  \[[0-9a-f]{12}#0\] ops\/keys\.md:1-5 — supported/);
    expect(stdout).toMatch(/Context: \d+ tokens estimated/);
  });

  it('forget removes a folder and everything derived from it', async () => {
    const { code, stdout, stderr } = await quire(['forget', notes.root, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ root: notes.root, documents: 2, evalIndexes: 0, warnings: [] });
    const status = JSON.parse((await quire(['status', '--json'])).stdout);
    expect(status.documents.total).toBe(0);
    expect(status.chunks).toBe(0);
    expect(status.activeModel.vectors).toBe(0);
    expect((await quire(['forget', notes.root])).code).toBe(1);
  });

  it('a damaged database: doctor names it; rebuild makes a new index from the folders it listed, leaving it as it was', async () => {
    const healthy = tempDbPath('quire-cli-rebuild-');
    const damaged = tempDbPath('quire-cli-damaged-');
    try {
      expect((await quire(['import', notes.root, '--json'], { QUIRE_DB: healthy.file })).code).toBe(0);
      // A good copy to rebuild from (its folder list is readable)…
      const fromDb = path.join(path.dirname(healthy.file), 'rebuilt.db');
      const r = await quire(['rebuild', '--json', '--into', fromDb], { QUIRE_DB: healthy.file });
      expect(r.code).toBe(0);
      const outcome = JSON.parse(r.stdout);
      expect(outcome).toMatchObject({ foldersFrom: 'database', into: fromDb });
      expect(outcome.folders[0].report.documents.added).toBe(2);
      // …and a file scribbled over: doctor says what is wrong; rebuild from named folders works.
      fs.writeFileSync(damaged.file, Buffer.alloc(8192, 0x5a));
      const doctor = await quire(['doctor'], { QUIRE_DB: damaged.file });
      expect(doctor.code).toBe(1);
      expect(doctor.stderr).toContain(damaged.file);
      expect(doctor.stderr).toMatch(/DB_CORRUPT.*quire rebuild/);
      const before = fs.readFileSync(damaged.file);
      const noList = await quire(['rebuild'], { QUIRE_DB: damaged.file });
      expect(noList.code).toBe(2);
      expect(noList.stderr).toMatch(/Name the folders to rebuild from/);
      const into = path.join(path.dirname(damaged.file), 'new.db');
      const named = await quire(['rebuild', notes.root, '--into', into], { QUIRE_DB: damaged.file });
      expect(named.code).toBe(0);
      expect(named.stdout).toMatch(/Rebuilt the index into .*new\.db from 1 folder \(as named\)/);
      expect(fs.readFileSync(damaged.file).equals(before)).toBe(true);
      expect((await quire(['doctor'], { QUIRE_DB: into })).code).toBe(0);
      // Never over an existing file.
      expect((await quire(['rebuild', notes.root, '--into', into], { QUIRE_DB: damaged.file })).code).toBe(2);
    } finally {
      healthy.dispose();
      damaged.dispose();
    }
  });

  it('explains usage errors with exit code 2', async () => {
    const r = await quire(['search']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs a query/);
    expect((await quire(['frobnicate'])).code).toBe(2);
    expect((await quire(['ask', '   '])).code).toBe(2);
    const badBatch = await quire(['import', notes.root, '--batch', '0.5']);
    expect(badBatch.code).toBe(2);
    expect(badBatch.stderr).toMatch(/--batch takes a whole number, not "0.5"/);
    // Bounds come from the contract's schema, the same the app's calls pass.
    const zeroBatch = await quire(['import', notes.root, '--batch', '0']);
    expect(zeroBatch.code).toBe(2);
    expect(zeroBatch.stderr).toMatch(/--batch takes at least 1, not 0\./);
    const bigK = await quire(['ask', 'anything', '--k', '21']);
    expect(bigK.code).toBe(2);
    expect(bigK.stderr).toMatch(/--k takes at most 20, not 21\./);
    const json = await quire(['import', path.join(notes.root, 'nope'), '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error.code).toBe('NOT_A_FOLDER');
  });

  it('eval --json prints the documented report; --rerun reproduces it, then names what changed', async () => {
    const dir = path.dirname(db.file);
    const questions = path.join(dir, 'questions.json');
    fs.writeFileSync(
      questions,
      JSON.stringify([
        { id: 'keys', question: 'How often are the deploy keys rotated?', chunk_fact: 'every ninety days', answer_fact: 'ninety days', answerable: true, file: 'ops/keys.md' },
        { id: 'wifi', question: 'What is the office wifi password?', answerable: false },
      ]),
    );
    const out = path.join(dir, 'report.json');
    const first = await quire(['eval', questions, '--docs', notes.root, '--chat-models', 'llama3.2', '--chunkers', 'heading:256,fixed:64/8', '--modes', 'lexical,hybrid', '--k', '3', '--json', '--out', out]);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.corpus).toEqual({ documents: 2, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(report.questions).toEqual({ answerable: 1, unanswerable: 1 });
    expect(report.configs).toHaveLength(4);
    expect(Object.keys(report.configs[0].metrics)).toEqual(
      expect.arrayContaining(['hit1', 'hit3', 'hit5', 'hitK', 'mrr', 'factSent', 'sourceTokensP50', 'answerHasFact', 'citationValid', 'citesFact', 'refusalAccuracy', 'falseRefusals', 'promptTokens', 'truncations', 'latencyMs', 'tokensPerSecond', 'changedAcrossRepeats']),
    );
    expect(report.configs.map((c: { metrics: { hit1: number; refusalAccuracy: number } }) => [c.metrics.hit1, c.metrics.refusalAccuracy])).toEqual([[1, 1], [1, 1], [1, 1], [1, 1]]);
    // The fact reached the prompt for the answerable question, in every configuration, at a measured cost.
    for (const c of report.configs) {
      expect(c.metrics.factSent).toBe(1);
      expect(c.metrics.sourceTokensP50).toBeGreaterThan(0);
      expect(c.fusion).toBe('weighted:0.2');
    }
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toEqual(report);
    expect(report.run.indexes).toEqual([
      { embedModel: 'embeddinggemma', chunker: 'heading:256', reused: false, documentsRead: 2 },
      { embedModel: 'embeddinggemma', chunker: 'fixed:64/8', reused: false, documentsRead: 2 },
    ]);
    expect(first.stderr).not.toMatch(/Reused/);

    const again = await quire(['eval', '--rerun', out]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Reproduced .*report\.json: every score and answer is the same\./);
    // Keyword search uses no embedding model: its row names none.
    expect(again.stdout).toMatch(/^1 +llama3\.2 +n\/a +heading:256 +3 +lexical +n\/a$/m);
    expect(again.stdout).toMatch(/^1 +100% +100% +100% +100% /m);
    // Seconds where the first run took far longer, and it says why, and how to have them built again.
    expect(again.stderr).toMatch(/^Reused all 2 indexes an earlier run built: no document had changed, so none was read or embedded again\. --fresh-index builds them anew\.$/m);
    const fresh = await quire(['eval', '--rerun', out, '--fresh-index', '--json']);
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).not.toMatch(/Reused/);
    expect(JSON.parse(fresh.stdout).run.indexes.map((i: { reused: boolean; documentsRead: number }) => [i.reused, i.documentsRead])).toEqual([[false, 2], [false, 2]]);

    fs.writeFileSync(path.join(notes.root, 'ops/keys.md'), '# Keys\n\n## Rotation\n\nThe keys are rotated when someone remembers.\n');
    try {
      const changed = await quire(['eval', '--rerun', out, '--json']);
      expect(changed.code).toBe(3);
      expect(changed.stderr).toMatch(/^Reused all 2 indexes an earlier run built: only the document changed since was read and embedded again\./m);
      const doc = JSON.parse(changed.stdout);
      expect(doc.diff.same).toBe(false);
      expect(doc.diff.corpus.after.fingerprint).not.toBe(report.corpus.fingerprint);
      expect(doc.diff.metrics).toEqual(expect.arrayContaining([expect.objectContaining({ metric: 'hit1', before: 1, after: 0 })]));
    } finally {
      fs.writeFileSync(path.join(notes.root, 'ops/keys.md'), '# Keys\n\n## Rotation\n\nRotate the deploy keys every ninety days.\n');
    }

    const notAReport = await quire(['eval', '--rerun', questions]);
    expect(notAReport.code).toBe(2);
    expect(notAReport.stderr).toMatch(/is not a Quire eval report/);
    // The folder is not in the library (forgotten above), but the bench's indexes for it go on forget.
    const evalDir = path.join(dir, 'eval-indexes');
    expect(fs.readdirSync(evalDir).filter((f) => f.endsWith('.db'))).toHaveLength(2);
    const forget = await quire(['forget', notes.root, '--json']);
    expect(forget.code).toBe(0);
    expect(JSON.parse(forget.stdout)).toEqual({ root: notes.root, documents: 0, evalIndexes: 2 });
    expect(fs.readdirSync(evalDir)).toEqual([]);

    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify([{ id: 'x', question: '', answerable: true }]));
    const bad = await quire(['eval', path.join(dir, 'bad.json'), '--docs', notes.root]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/INVALID_QUESTION_SET.*1 problem:\n  - entry 1 \(id "x"\): "question" must be a non-empty string/s);

    // An evaluation held by another live process (here: the test runner's parent) keeps a second one out.
    fs.writeFileSync(path.join(evalDir, 'run.lock'), JSON.stringify({ pid: process.ppid, docs: notes.root, startedAt: new Date().toISOString() }));
    try {
      const blocked = await quire(['eval', questions, '--docs', notes.root, '--modes', 'lexical']);
      expect(blocked.code).toBe(1);
      expect(blocked.stderr).toMatch(/EVAL_ALREADY_RUNNING.*process \d+, over /);
    } finally {
      fs.rmSync(path.join(evalDir, 'run.lock'), { force: true });
    }

    const badFusion = await quire(['eval', questions, '--docs', notes.root, '--fusion', 'rrf:60,blend:2']);
    expect(badFusion.code).toBe(2);
    expect(badFusion.stderr).toMatch(/--fusion takes rrf:<k> or weighted:<w>, not "blend:2"/);

    const noDocs = await quire(['eval', questions]);
    expect(noDocs.code).toBe(2);
    expect(noDocs.stderr).toMatch(/needs --docs/);
  });

  it('eval of keyword search alone says its reused index was indexed again, not embedded: it holds no vectors', async () => {
    const own = tempDbPath('quire-cli-keyword-');
    try {
      const questions = path.join(path.dirname(own.file), 'questions.json');
      fs.writeFileSync(questions, JSON.stringify([{ id: 'keys', question: 'How often are the deploy keys rotated?', chunk_fact: 'every ninety days', answerable: true }]));
      const keyword = () => quire(['eval', questions, '--docs', notes.root, '--modes', 'lexical', '--k', '3'], { QUIRE_DB: own.file });
      expect((await keyword()).stderr).not.toMatch(/Reused/);
      const again = await keyword();
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(/^Reused the keyword index an earlier run built: no document had changed, so none was read or indexed again\. --fresh-index builds it anew\.$/m);
    } finally {
      own.dispose();
    }
  });

  it('leaves no signal listeners behind, and cancels when the caller aborts', async () => {
    const before = { int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') };
    for (let i = 0; i < 12; i++) expect((await quire(['status', '--json'])).code).toBe(0);
    expect(await quire(['frobnicate'])).toMatchObject({ code: 2 });
    expect({ int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') }).toEqual(before);

    let stdout = '';
    let stderr = '';
    const cancelled = await main(['ask', 'How often are the deploy keys rotated?', '--json'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env: { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file },
      signal: AbortSignal.abort(),
    });
    expect(cancelled).toBe(130);
    expect(stderr).toMatch(/Cancelling…/);
    expect(JSON.parse(stdout)).toBeTruthy();
    expect({ int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') }).toEqual(before);
  });
});
