import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../electron/cli/run';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-cancel-');
  notes.write('ops/keys.md', '# Keys\n\n## Rotation\n\nRotate the deploy keys every ninety days. Keep the old keys for a week, then revoke them.\n');
  db = tempDbPath('quire-cli-cancel-db-');
  const imported = await runCli(['import', notes.root], { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file });
  expect(imported.code).toBe(0);
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('Ctrl-C during quire ask', () => {
  // It used to say "Cancelling… (finished documents stay committed)", an import's words, and to end
  // the cut-off answer with "? read by Ollama" and nothing saying the answer was incomplete.
  it('says the answer above is incomplete, in an ask\'s own words', async () => {
    ollama.faults.streamDelayMs = 40;
    try {
      const controller = new AbortController();
      let stdout = '';
      let stderr = '';
      const code = await main(['ask', 'How often are the deploy keys rotated?'], {
        stdout: { write: (text: string) => ((stdout += text), stdout.trim().length > 0 && controller.abort()) },
        stderr: { write: (text: string) => (stderr += text) },
        env: { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file },
        signal: controller.signal,
      });
      expect(code).toBe(130);
      // The first answer with the model also says it is reading its vocabulary (once per model version).
      expect(stderr.replace(/^Reading \S+'s vocabulary from Ollama[^\n]*\n/, '')).toBe('Cancelling…\n');
      expect(stdout).toMatch(/\n\n\(Stopped: the answer above is incomplete\.\)\n/);
      expect(stdout).toMatch(/tokens estimated \([^)]*\), no count from Ollama, of num_ctx/);
      expect(stdout).not.toContain('?');
    } finally {
      ollama.faults.streamDelayMs = 0;
    }
  });

  it('an import cancelled says what it keeps, and does not claim it waited for another', async () => {
    let stderr = '';
    const r = await main(['import', notes.root], {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      env: { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file },
      signal: AbortSignal.abort(),
    });
    expect(r).toBe(130);
    expect(stderr).toBe('Cancelling… (documents already written stay in the index)\nError (CANCELLED): Import cancelled before it began.\n');
  });

  it('an import stopped midway says so in a sentence: "Import of <folder> cancelled after N s"', async () => {
    const fresh = tempDbPath('quire-cli-cancel-mid-');
    ollama.faults.latencyMs = 300;
    try {
      const controller = new AbortController();
      let stdout = '';
      const code = await main(['import', notes.root], {
        stdout: { write: (t: string) => (stdout += t) },
        // A terminal's stderr: the first progress line means the import is under way; Ctrl-C then.
        stderr: { write: (t: string) => t.includes('[') && controller.abort(), isTTY: true },
        env: { OLLAMA_HOST: ollama.url, QUIRE_DB: fresh.file },
        signal: controller.signal,
      });
      expect(code).toBe(130);
      expect(stdout.startsWith(`Import of ${notes.root} cancelled after `)).toBe(true);
    } finally {
      ollama.faults.latencyMs = 0;
      fresh.dispose();
    }
  });
});
