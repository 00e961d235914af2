import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../shared/contract';
import { setupHeadline, setupSteps } from '../shared/setup-sentences';
import { createEngine, type Engine } from '../electron/core/engine';
import { NotesFolder, tempDbPath } from './support/notes';
import { startStandin, type Standin } from './support/ollama-standin/server';

/** A computer with room for Settings' defaults, so what is recommended does not depend on the one running the tests. */
const ROOMY = { memoryBytes: 32e9, freeDiskBytes: 500e9 };

let ollama: Standin;
let db: ReturnType<typeof tempDbPath>;
let engine: Engine;
let events: ApiEvent[];

function open(env: Record<string, string> = {}, machine: { memoryBytes?: number; freeDiskBytes?: number | null } = ROOMY): Engine {
  const e = createEngine({ dbPath: db.file, env, machine, ollamaBackoffMs: 10 });
  e.onEvent((ev) => events.push(ev));
  return e;
}

beforeEach(async () => {
  // One stand-in per test: tests remove and pull its models.
  ollama = await startStandin();
  db = tempDbPath('quire-setup-');
  events = [];
  engine = open({ OLLAMA_HOST: ollama.url });
});

afterEach(async () => {
  await engine.close();
  await ollama.close();
  db.dispose();
});

/** The job's events once it is done. */
async function finished(jobId: string): Promise<ApiEvent[]> {
  for (let i = 0; i < 500 && !events.some((e) => e.type === 'job.done' && e.jobId === jobId); i++) await new Promise((r) => setTimeout(r, 10));
  return events.filter((e) => 'jobId' in e && e.jobId === jobId);
}

describe('setupStatus, each state', () => {
  it('Ollama down: unreachable, naming the host and where it came from', async () => {
    await ollama.stop();
    const s = await engine.call('setupStatus', {});
    expect(s).toMatchObject({ state: 'unreachable', canAnswer: false, ollama: { host: ollama.url, hostSource: 'environment', version: null, error: { code: 'OLLAMA_UNREACHABLE' } } });
    expect(s.chat).toMatchObject({ name: 'llama3.2', installed: false, alternatives: [] });
    // What to pull once Ollama is there is known already.
    expect(s.chat.recommended?.name).toBe('llama3.2');
    expect(setupHeadline(s)).toBe(`Ollama is not running at ${ollama.url} (from OLLAMA_HOST), or is not installed.`);
    expect(setupSteps(s).join('\n')).toContain('keyword search');
  });

  it('an Ollama that hangs is not told to be installed: the failure is said as it is', async () => {
    ollama.faults.hang = true;
    const s = await engine.call('setupStatus', {});
    expect(s).toMatchObject({ state: 'unreachable', ollama: { error: { code: 'OLLAMA_TIMEOUT' } } });
    expect(setupHeadline(s)).toMatch(new RegExp(`^Ollama at ${ollama.url} \\(from OLLAMA_HOST\\) could not be used: .*did not answer`));
    expect(setupSteps(s).join(' ')).not.toContain('install');
  });

  it('a saved host is named as such; with none, the default', async () => {
    await engine.call('setSettings', { ollamaHost: ollama.url });
    expect((await engine.call('setupStatus', {})).ollama.hostSource).toBe('saved');
    await engine.close();
    engine = open({});
    const s = await engine.call('setupStatus', {});
    expect(s.ollama).toMatchObject({ host: ollama.url, hostSource: 'saved' });
    const fresh = tempDbPath('quire-setup-default-');
    const bare = createEngine({ dbPath: fresh.file, env: {}, machine: ROOMY });
    try {
      // Nothing saved, no OLLAMA_HOST: the default address, said as such (whether or not an Ollama answers there).
      const d = await bare.call('setupStatus', {});
      expect(d.ollama).toMatchObject({ host: 'http://127.0.0.1:11434', hostSource: 'default' });
      expect(setupHeadline(d)).toContain("http://127.0.0.1:11434 (Ollama's default address)");
    } finally {
      await bare.close();
      fresh.dispose();
    }
  });

  it('an OLLAMA_HOST that is no address: unreachable, saying why, not a failed call', async () => {
    await engine.close();
    engine = open({ OLLAMA_HOST: 'file:///etc/passwd' });
    const s = await engine.call('setupStatus', {});
    expect(s).toMatchObject({ state: 'unreachable', ollama: { host: '', hostSource: 'environment', error: { code: 'INVALID_ARGUMENT' } } });
    expect(setupHeadline(s)).toMatch(/^The Ollama host could not be read: OLLAMA_HOST: /);
  });

  it('no models at all', async () => {
    for (const m of ollama.catalogue.list()) ollama.removeModel(m.name);
    const s = await engine.call('setupStatus', {});
    expect(s).toMatchObject({ state: 'no-models', ollama: { version: '0.12.6', error: null }, chat: { installed: false, alternatives: [] }, embedding: { installed: false, alternatives: [] } });
    expect(setupHeadline(s)).toBe(`Ollama 0.12.6 is running at ${ollama.url} (from OLLAMA_HOST), but has no models yet.`);
    expect(setupSteps(s)[0]).toMatch(/^Pull llama3\.2, which answers questions: Quire's default \(2\.0 GB download\)/);
  });

  it('the chat model only: the embedding model missing, the installed ones that could stand in named', async () => {
    ollama.removeModel('embeddinggemma');
    const s = await engine.call('setupStatus', {});
    expect(s.state).toBe('missing');
    expect(s.chat).toMatchObject({ installed: true, recommended: null });
    // By Ollama's capabilities, not by name.
    expect(s.embedding).toMatchObject({ installed: false, alternatives: ['nomic-embed-text'], recommended: { name: 'embeddinggemma', downloadBytes: 621_875_417 } });
    expect(setupHeadline(s)).toContain('does not have embeddinggemma (the embedding model) yet');
    expect(setupSteps(s)).toContain('Or use one already installed: nomic-embed-text (as the embedding model in Settings).');
  });

  it('the embedding model only: no answers, whatever is imported', async () => {
    ollama.removeModel('llama3.2');
    const notes = new NotesFolder('quire-setup-notes-');
    try {
      notes.write('a.md', '# A\n\nSome words.\n');
      await engine.importFolder({ path: notes.root, embed: false });
      const s = await engine.call('setupStatus', {});
      expect(s).toMatchObject({ state: 'missing', documents: 1, canAnswer: false, chat: { installed: false, alternatives: ['qwen2.5:0.5b'] }, embedding: { installed: true } });
      expect(setupSteps(s).at(-1)).toBe('Until there is a chat model, Quire finds passages but cannot answer.');
    } finally {
      notes.dispose();
    }
  });

  it('ready: an answer can be given once there is something to answer from', async () => {
    const s = await engine.call('setupStatus', {});
    expect(s).toMatchObject({ state: 'ready', documents: 0, canAnswer: false, machine: ROOMY });
    expect(setupSteps(s)).toEqual([]);
    const notes = new NotesFolder('quire-setup-notes-');
    try {
      notes.write('a.md', '# A\n\nSome words.\n');
      await engine.importFolder({ path: notes.root, embed: false });
      expect((await engine.call('setupStatus', {})).canAnswer).toBe(true);
    } finally {
      notes.dispose();
    }
  });

  it('measures this computer when not told: its memory, and free disk somewhere', async () => {
    await engine.close();
    engine = createEngine({ dbPath: db.file, env: { OLLAMA_HOST: ollama.url } });
    const s = await engine.call('setupStatus', {});
    expect(s.machine.memoryBytes).toBeGreaterThan(100e6);
    expect(s.machine.freeDiskBytes).toBeGreaterThan(0);
  });
});

describe('verifySetup', () => {
  it('one embedding and one short answer, each timed', async () => {
    const v = await engine.call('verifySetup', {});
    expect(v.embedding).toMatchObject({ model: 'embeddinggemma', ok: true, dimension: 768, error: null });
    expect(v.chat).toMatchObject({ model: 'llama3.2', ok: true, error: null });
    expect(v.chat.reply?.length).toBeGreaterThan(0);
    expect(v.embedding.ms).toBeGreaterThanOrEqual(0);
    // Bounded: a few tokens, not a whole answer.
    const asked = ollama.calls.last('/api/chat')!.body as { options: { num_predict: number } };
    expect(asked.options.num_predict).toBeLessThanOrEqual(64);
  });

  it('a missing model fails its own check only, as { code, message }', async () => {
    ollama.removeModel('llama3.2');
    const v = await engine.call('verifySetup', {});
    expect(v.embedding.ok).toBe(true);
    expect(v.chat).toMatchObject({ ok: false, reply: null, error: { code: 'MODEL_NOT_FOUND' } });
    expect(v.chat.error!.message).toContain('llama3.2');
  });

  it('Ollama down: both fail, quickly', async () => {
    await ollama.stop();
    const v = await engine.call('verifySetup', {});
    expect([v.embedding.error?.code, v.chat.error?.code]).toEqual(['OLLAMA_UNREACHABLE', 'OLLAMA_UNREACHABLE']);
    expect(v.embedding.error!.message).toContain(ollama.url);
  });
});

describe('pullModel', () => {
  it('reports the whole download, never running back, and saves the model as the setting when asked', async () => {
    const { jobId } = await engine.call('pullModel', { model: 'gemma3:1b', saveAs: 'chatModel' });
    const mine = await finished(jobId);
    const progress = mine.flatMap((e) => (e.type === 'job.progress' && e.kind === 'pull' ? [e.progress] : []));
    const bytes = progress.filter((p) => p.completed !== null).map((p) => p.completed!);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    const last = progress.at(-1)!;
    expect(last.status).toBe('success');
    // The weights and the two small layers (template, params).
    expect([last.completed, last.total]).toEqual([815_319_791 + 358 + 96, 815_319_791 + 358 + 96]);
    expect(mine.at(-1)).toMatchObject({ type: 'job.done', result: { model: 'gemma3:1b' }, error: null });
    expect(engine.settings.get('chatModel')).toBe('gemma3:1b');
    expect(events.some((e) => e.type === 'library.changed')).toBe(true);
  });

  it('cancelled: Ollama stops sending, nothing is installed or saved, and the job says so', async () => {
    ollama.faults.streamDelayMs = 30;
    const { jobId } = await engine.call('pullModel', { model: 'gemma3:1b', saveAs: 'chatModel' });
    for (let i = 0; i < 300 && !events.some((e) => e.type === 'job.progress' && e.jobId === jobId); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await engine.call('cancel', { jobId })).toEqual({ cancelled: true });
    const done = (await finished(jobId)).at(-1)!;
    expect(done).toMatchObject({ type: 'job.done', result: null, error: { code: 'CANCELLED', message: 'Download of gemma3:1b cancelled; pulling it again resumes where it stopped.' } });
    await new Promise((r) => setTimeout(r, 600)); // longer than the rest of the pull would take
    expect(ollama.catalogue.installed('gemma3:1b')).toBeUndefined();
    expect(engine.settings.get('chatModel')).toBe('llama3.2');
  });

  it("a name Ollama's library does not have is said as such", async () => {
    const { jobId } = await engine.call('pullModel', { model: 'no-such-model' });
    expect((await finished(jobId)).at(-1)).toMatchObject({ error: { code: 'MODEL_NOT_FOUND', message: expect.stringContaining('https://ollama.com/library') } });
  });
});
