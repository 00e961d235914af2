import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-status-failed-');
  db = tempDbPath('quire-cli-status-failed-db-');
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('quire status names the documents that failed', () => {
  // It used to say only "2 failed": finding which meant importing again and reading its report.
  it('lists each failed document with its folder, path and why, in --json too', async () => {
    notes.write('keys.md', '# Keys\n\nRotate the deploy keys every ninety days.\n');
    notes.write('scans/broken.pdf', '%PDF-1.7\nthis is not really a pdf');
    notes.write('old/report.docx', 'not a zip archive at all');
    const env = { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file };
    expect((await runCli(['import', notes.root, '--no-embed'], env)).code).toBe(0);

    const human = await runCli(['status'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/\(0 ready, 1 need embedding, 0 skipped, 2 failed\)/);
    const block = human.stdout.slice(human.stdout.indexOf('\nFailed:\n'));
    expect(block).toMatch(/^\nFailed:\n  [^\n]+\/old\/report\.docx: \S[^\n]+\n  [^\n]+\/scans\/broken\.pdf: \S[^\n]+\n/);

    const json = JSON.parse((await runCli(['status', '--json'], env)).stdout);
    expect(json.failed.map((f: { path: string }) => f.path)).toEqual(['old/report.docx', 'scans/broken.pdf']);
    expect(json.failed.every((f: { code: string | null; message: string | null }) => f.code !== null && (f.message ?? '').length > 0)).toBe(true);
  });
});
