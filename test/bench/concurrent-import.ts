/**
 * Several `quire import` processes on one database at once (as when the CLI imports while the app
 * is open): how many files fail, and how long it takes. Rerun:
 *
 *   npm run perf:concurrent [-- --processes 3 --files 1500] [--cli electron/cli/main.ts] [--repo DIR]
 *
 * Files are a copy of the tldr pages (../shared/corpora) or, without them, generated notes. Each
 * process imports the same folder into the same database with the Ollama stand-in; the script
 * prints each process's exit code and failed files, then `doctor` on the result. --repo runs
 * another checkout's CLI (e.g. an older commit, for a before/after).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startStandin } from '../support/ollama-standin/server';

const REPO = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { processes: { type: 'string', default: '3' }, files: { type: 'string', default: '1500' }, repo: { type: 'string' } } });
const repo = path.resolve(values.repo ?? REPO);
const processes = Number(values.processes);
const fileCount = Number(values.files);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-concurrent-'));
const notes = path.join(work, 'notes');
const tldr = path.resolve(REPO, '../shared/corpora/tldr/pages/common');
fs.mkdirSync(notes);
if (fs.existsSync(tldr)) {
  for (const f of fs.readdirSync(tldr).filter((f) => f.endsWith('.md')).slice(0, fileCount)) fs.copyFileSync(path.join(tldr, f), path.join(notes, f));
} else {
  for (let i = 0; i < fileCount; i++) fs.writeFileSync(path.join(notes, `n${i}.md`), `# Note ${i}\n\n${'Some words about topic '.repeat(40)}${i}.\n`);
}
const files = fs.readdirSync(notes).length;
const db = path.join(work, 'quire.db');

function quire(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'electron/cli/main.ts'), ...args], { cwd: repo, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: Math.round(performance.now() - started) }));
  });
}

const ollama = await startStandin();
try {
  const env = { OLLAMA_HOST: ollama.url, QUIRE_DB: db };
  // The database exists before the race (an app that is open has created it).
  await quire(['status', '--json'], env);
  console.log(`${processes} processes importing ${files} files into one database (${repo === REPO ? 'this checkout' : repo})`);
  const runs = await Promise.all(Array.from({ length: processes }, () => quire(['import', notes, '--json'], env)));
  let failedTotal = 0;
  runs.forEach((r, i) => {
    let failed: number | string = '?';
    let added: number | string = '?';
    try {
      const report = JSON.parse(r.stdout) as { documents: { failed: number; added: number; unchanged: number }; errors: Array<{ message: string }> };
      failed = report.documents.failed;
      added = report.documents.added;
      failedTotal += report.documents.failed;
      const first = report.errors[0]?.message;
      console.log(`  process ${i + 1}: exit ${r.code}, ${added} added, ${report.documents.unchanged} unchanged, ${failed} failed${first ? ` (first: ${first})` : ''}, ${(r.ms / 1000).toFixed(1)} s`);
    } catch {
      console.log(`  process ${i + 1}: exit ${r.code}, no report (${r.stderr.trim().split('\n').at(-1) ?? ''}), ${(r.ms / 1000).toFixed(1)} s`);
      failedTotal += files;
    }
    const waited = r.stderr.includes('waiting for it to finish');
    if (waited) console.log('             waited for another import first');
  });
  const doctor = await quire(['doctor', '--json'], env);
  const checks = (JSON.parse(doctor.stdout) as { ok: boolean; checks: Array<{ ok: boolean; name: string }> });
  console.log(`files failed in all: ${failedTotal}; doctor: ${checks.ok ? 'ok' : `FAILED (${checks.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')})`}`);
} finally {
  await ollama.close();
  fs.rmSync(work, { recursive: true, force: true });
}
