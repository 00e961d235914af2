import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../electron/cli/run';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { NotesFolder, tempDbPath } from './support/notes';

/** Room for Settings' defaults, whatever computer runs the tests. */
const ROOMY = { memoryBytes: 32e9, freeDiskBytes: 500e9 };

let ollama: Standin;
let db: ReturnType<typeof tempDbPath>;

beforeEach(async () => {
  // One stand-in per test: tests remove and pull its models.
  ollama = await startStandin();
  db = tempDbPath('quire-cli-setup-');
});

afterEach(async () => {
  await ollama.close();
  db.dispose();
});

interface Run {
  /** Lines typed at a terminal (stdin is then a TTY); absent: stdin is not a terminal. */
  typed?: string[];
  machine?: { memoryBytes?: number; freeDiskBytes?: number | null };
  /** Ctrl-C once stderr shows this. */
  cancelWhen?: (stderr: string) => boolean;
  stderrTTY?: boolean;
}

/** `quire …` in-process, with a stdin of its own. */
async function quire(args: string[], o: Run = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const stdin = Object.assign(new PassThrough(), { isTTY: o.typed !== undefined });
  if (o.typed) stdin.end(o.typed.map((l) => `${l}\n`).join(''));
  else stdin.end();
  const controller = new AbortController();
  const code = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: {
      write: (t: string) => {
        stderr += t;
        if (o.cancelWhen?.(stderr) && !controller.signal.aborted) controller.abort();
      },
      isTTY: o.stderrTTY ?? false,
    },
    env: { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file },
    stdin,
    signal: controller.signal,
    machine: o.machine ?? ROOMY,
  });
  return { code, stdout, stderr };
}

const removeAll = () => {
  for (const m of ollama.catalogue.list()) ollama.removeModel(m.name);
};

describe('quire setup, each state', () => {
  it('Ollama down: what to install on this system, naming the host and where it came from; exit 1', async () => {
    await ollama.stop();
    const r = await quire(['setup']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`Ollama is not running at ${ollama.url} (from OLLAMA_HOST), or is not installed.`);
    if (process.platform === 'linux') expect(r.stdout).toContain('curl -fsSL https://ollama.com/install.sh | sh');
    expect(r.stdout).toContain('keyword search');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Next: once Ollama is running, run quire setup again\./);
  });

  it('no models, off a terminal and without --yes: pulls nothing and says to rerun with --yes', async () => {
    removeAll();
    const r = await quire(['setup']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('but has no models yet');
    expect(r.stdout).toContain("Pull llama3.2, which answers questions: Quire's default (2.0 GB download)");
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Next: quire setup --yes pulls llama3.2 and embeddinggemma (or pull them yourself: ollama pull llama3.2, ollama pull embeddinggemma).');
    expect(r.stderr).toContain('Not pulling llama3.2 (2.0 GB download): rerun with --yes to pull it (quire setup --yes)');
    expect(r.stderr).toContain('Not pulling embeddinggemma (622 MB download)');
    expect(ollama.calls.count('/api/pull')).toBe(0);
    expect(ollama.calls.count('/api/chat')).toBe(0);
  });

  it('--yes pulls both missing models, then tries them, with timings, and says what to type next', async () => {
    removeAll();
    const r = await quire(['setup', '--yes']);
    expect(r.stderr).toContain('Pulled llama3.2.');
    expect(r.stderr).toContain('Pulled embeddinggemma.');
    expect(ollama.calls.entries.filter((c) => c.path === '/api/pull').map((c) => (c.body as { name: string }).name)).toEqual(['llama3.2', 'embeddinggemma']);
    expect(r.stdout).toMatch(/^Embedding: embeddinggemma gave a vector of 768 numbers in \d+\.\d s\.$/m);
    expect(r.stdout).toMatch(/^Answer: llama3\.2 replied in \d+\.\d s: ".+"$/m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Ready\. Next: quire import <folder> \(or try the sample notes: quire import \S+sample-notes\), then: quire ask ".+"$/);
    expect(r.code).toBe(0);
  });

  it('on a terminal it asks before each download, naming its size; "n" pulls nothing', async () => {
    ollama.removeModel('embeddinggemma');
    const no = await quire(['setup'], { typed: ['n'] });
    expect(no.stdout).toContain('does not have embeddinggemma (the embedding model) yet');
    expect(no.stdout).toContain('Or use one already installed: nomic-embed-text');
    expect(no.stderr).toBe('Pull embeddinggemma (622 MB download), the embedding model? [y/N] ');
    expect(no.code).toBe(1);
    expect(ollama.calls.count('/api/pull')).toBe(0);
    const yes = await quire(['setup'], { typed: ['y'] });
    expect(yes.stderr).toContain('[y/N] Pulled embeddinggemma.');
    expect(yes.code).toBe(0);
  });

  it('the chat model missing: no answers until it is there', async () => {
    ollama.removeModel('llama3.2');
    const r = await quire(['setup']);
    expect(r.stdout).toContain('does not have llama3.2 (the chat model) yet');
    expect(r.stdout).toContain('Until there is a chat model, Quire finds passages but cannot answer.');
    expect(r.code).toBe(1);
  });

  it('a small computer is offered smaller models, which become the settings once pulled', async () => {
    removeAll();
    const r = await quire(['setup', '--yes'], { machine: { memoryBytes: 2 * 2 ** 30, freeDiskBytes: 50e9 } });
    expect(r.stdout).toContain('Pull qwen2.5:0.5b, which answers questions in place of llama3.2: Smaller than llama3.2 (398 MB download)');
    expect(r.stderr).toContain('Pulled qwen2.5:0.5b, now the chat model in Settings (in place of llama3.2).');
    expect(r.stderr).toContain('Pulled all-minilm, now the embedding model in Settings (in place of embeddinggemma).');
    expect(r.code).toBe(0);
    const settings = JSON.parse((await quire(['status', '--json'])).stdout);
    expect([settings.chatModel, settings.embedModel]).toEqual(['qwen2.5:0.5b', 'all-minilm']);
  });

  it('ready, with notes imported: says what to ask', async () => {
    const notes = new NotesFolder('quire-cli-setup-notes-');
    try {
      notes.write('a.md', '# A\n\nSome words.\n');
      expect((await quire(['import', notes.root, '--no-embed'])).code).toBe(0);
      const r = await quire(['setup']);
      expect(r.stdout.startsWith(`Ready: Ollama 0.12.6 at ${ollama.url} (from OLLAMA_HOST) has llama3.2 and embeddinggemma.\n`)).toBe(true);
      expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Ready\. Ask: quire ask ".+"$/);
      expect(r.code).toBe(0);
    } finally {
      notes.dispose();
    }
  });
});

describe('quire setup when a check fails', () => {
  it('says which and why, and exits 1', async () => {
    // An embedding model saved as the chat model (--force skips the check that would refuse it).
    expect((await quire(['settings', 'set', 'chatModel', 'nomic-embed-text', '--force'])).code).toBe(0);
    const r = await quire(['setup']);
    expect(r.stdout).toMatch(/^Embedding: embeddinggemma gave a vector of 768 numbers/m);
    expect(r.stdout).toMatch(/^Answer with nomic-embed-text failed \(OLLAMA_ERROR\): .*does not support chat/m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Next: fix what failed above, then run quire setup again.');
    expect(r.code).toBe(1);
  });
});

describe('quire setup --check and --json', () => {
  it('--check only reports: exit 0 when ready, 1 otherwise, and neither pulls nor tries a model', async () => {
    const ready = await quire(['setup', '--check']);
    expect(ready.code).toBe(0);
    expect(ready.stdout.trimEnd().split('\n').at(-1)).toBe('Ready.');
    removeAll();
    const bare = await quire(['setup', '--check', '--yes']);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toContain('Not ready: run quire setup to fix what is missing.');
    expect(ollama.calls.count('/api/pull') + ollama.calls.count('/api/chat') + ollama.calls.count('/api/embed')).toBe(0);
  });

  it('--json: the status, and the check when run, as one document on stdout', async () => {
    const check = await quire(['setup', '--check', '--json']);
    expect(JSON.parse(check.stdout)).toMatchObject({ status: { state: 'ready', ollama: { host: ollama.url, hostSource: 'environment' } } });
    const run = await quire(['setup', '--json']);
    const doc = JSON.parse(run.stdout);
    expect(doc).toMatchObject({ status: { state: 'ready', machine: ROOMY }, pulled: [], verify: { embedding: { ok: true, dimension: 768 }, chat: { ok: true } } });
    expect(run.code).toBe(0);
    await ollama.stop();
    const down = await quire(['setup', '--json']);
    expect(JSON.parse(down.stdout)).toMatchObject({ status: { state: 'unreachable', ollama: { error: { code: 'OLLAMA_UNREACHABLE' } } }, verify: null });
    expect(down.code).toBe(1);
  });
});

describe('Ctrl-C during a pull', () => {
  it('stops the download cleanly: Ollama installs nothing, nothing is saved, exit 130', async () => {
    removeAll();
    ollama.faults.streamDelayMs = 30;
    // A terminal's stderr: the first bar drawn means the download is under way.
    const r = await quire(['setup', '--yes'], { stderrTTY: true, cancelWhen: (err) => err.includes('llama3.2: ') });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('Cancelling… (a download stopped part way resumes when it is pulled again)');
    expect(r.stderr).toContain('Error (CANCELLED): Download of llama3.2 cancelled; pulling it again resumes where it stopped.');
    await new Promise((res) => setTimeout(res, 600)); // longer than the rest of the pull would take
    expect(ollama.catalogue.installed('llama3.2')).toBeUndefined();
    expect(ollama.calls.count('/api/pull')).toBe(1);
  });
});
