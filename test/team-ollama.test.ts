import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnswerResult } from '../shared/answer';
import { createEngine, type Engine } from '../electron/core/engine';
import { main } from '../electron/cli/run';
import { useGuardedOllama } from './support/guarded-ollama';
import { NotesFolder, tempDbPath } from './support/notes';

/**
 * A team's shared Ollama behind a reverse proxy that wants `Authorization: Bearer …` (#16.6): the
 * headers reach every request through the one gateway, from each source (environment, Settings,
 * CLI flag), end to end through an import with embeddings and an answer; the value is never
 * returned, printed or put in an error.
 */
const SECRET = 'Bearer team-s3cret-7f1c';
const KEYS = '# Key rotation\n\nRotate the deploy keys every ninety days with ssh-keygen.\n';

const proxy = useGuardedOllama(SECRET);
let notes: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;
const engines: Engine[] = [];

beforeEach(() => {
  notes = new NotesFolder('quire-team-');
  notes.write('keys.md', KEYS);
  dbFile = tempDbPath('quire-team-db-');
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  notes.dispose();
  dbFile.dispose();
});

function engine(env: Record<string, string> = {}, ollamaHeaders?: Record<string, string>): Engine {
  const e = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: proxy.url, ...env }, parseWorker: null, ...(ollamaHeaders ? { ollamaHeaders } : {}) });
  engines.push(e);
  return e;
}

async function answer(e: Engine): Promise<AnswerResult> {
  let result: AnswerResult | null = null;
  for await (const ev of e.ask({ question: 'How often are the deploy keys rotated?' })) if (ev.type === 'done' || ev.type === 'error') result = ev.result;
  return result!;
}

/** An import with vectors and a cited answer, every request through the proxy with the header. */
async function importAndAsk(e: Engine): Promise<void> {
  const report = await e.importFolder({ path: notes.root });
  expect(report.embedding).toMatchObject({ status: 'ok' });
  expect(report.embedded).toBeGreaterThan(0);
  const result = await answer(e);
  expect(result.status).toBe('answered');
  expect(result.citations.length).toBeGreaterThan(0);
  expect(proxy.refused).toEqual([]);
  expect(proxy.passed).toEqual(expect.arrayContaining(['/api/embed', '/api/chat']));
}

describe('a shared Ollama behind a proxy that requires a header', () => {
  it('without the header: refused with a sentence about the headers, and no vectors', async () => {
    const e = engine();
    const report = await e.importFolder({ path: notes.root });
    expect(report.embedding.status).toBe('unavailable');
    expect(report.embedding.error?.message).toMatch(/refused the request \(401.*check the Ollama request headers/);
    expect(proxy.passed).toEqual([]);
    expect(proxy.refused.length).toBeGreaterThan(0);
  });

  it('QUIRE_OLLAMA_HEADERS: import with embeddings and an answer pass the proxy', async () => {
    await importAndAsk(engine({ QUIRE_OLLAMA_HEADERS: JSON.stringify({ Authorization: SECRET }) }));
  });

  it('Settings: the header is saved write-only; getSettings and status show its name, never its value', async () => {
    const e = engine();
    const saved = await e.call('setSettings', { ollamaHeaders: { Authorization: SECRET } });
    expect(saved.ollamaHeaders).toEqual([{ name: 'Authorization', source: 'settings' }]);
    const view = await e.call('getSettings', {});
    const status = await e.call('status', {});
    expect(status.ollama).toMatchObject({ connected: true, headers: ['Authorization'], remote: false });
    for (const shown of [saved, view, status]) expect(JSON.stringify(shown)).not.toContain('s3cret');
    await importAndAsk(e);

    // Removing it (null) takes effect on the next request: the proxy refuses again.
    await e.call('setSettings', { ollamaHeaders: { authorization: null } });
    expect((await e.call('getSettings', {})).ollamaHeaders).toEqual([]);
    expect((await e.call('status', {})).ollama.connected).toBe(false);
  });

  it('Settings override QUIRE_OLLAMA_HEADERS name by name', async () => {
    const e = engine({ QUIRE_OLLAMA_HEADERS: JSON.stringify({ Authorization: 'Bearer wrong', 'X-Team': 'docs' }) });
    expect((await e.call('getSettings', {})).ollamaHeaders).toEqual([
      { name: 'Authorization', source: 'environment' },
      { name: 'X-Team', source: 'environment' },
    ]);
    expect((await e.call('status', {})).ollama.connected).toBe(false);
    await e.call('setSettings', { ollamaHeaders: { Authorization: SECRET } });
    expect((await e.call('getSettings', {})).ollamaHeaders).toEqual([
      { name: 'Authorization', source: 'settings' },
      { name: 'X-Team', source: 'environment' },
    ]);
    proxy.refused.length = 0; // the status above, with the environment's wrong token
    await importAndAsk(e);
  });

  it('a malformed QUIRE_OLLAMA_HEADERS or header is refused without repeating the value', async () => {
    await expect(engine({ QUIRE_OLLAMA_HEADERS: `{"Authorization": "${SECRET}"` }).call('status', {})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('QUIRE_OLLAMA_HEADERS must be a JSON object') });
    const e = engine();
    for (const bad of [{ Authorization: `${SECRET}\r\nX-Evil: 1` }, { [SECRET]: 'x' }, { Host: SECRET }]) {
      const r = await e.dispatch('setSettings', { ollamaHeaders: bad });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).not.toContain('s3cret');
    }
    expect((await e.call('getSettings', {})).ollamaHeaders).toEqual([]);
  });

  it('the CLI: --ollama-header for one run (import with vectors, an answer, status), never printed', async () => {
    const run = async (args: string[]) => {
      let out = '';
      let err = '';
      const code = await main([...args, '--ollama-header', `Authorization: ${SECRET}`], {
        stdout: { write: (t: string) => (out += t) },
        stderr: { write: (t: string) => (err += t) },
        env: { OLLAMA_HOST: proxy.url, QUIRE_DB: dbFile.file },
      });
      expect(out + err).not.toContain('s3cret');
      return { code, out };
    };
    const imported = await run(['import', notes.root, '--json']);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.out).embedding.status).toBe('ok');
    const asked = await run(['ask', 'How often are the deploy keys rotated?', '--json']);
    expect(asked.code).toBe(0);
    expect(JSON.parse(asked.out).citations.length).toBeGreaterThan(0);
    const status = await run(['status']);
    expect(status.out).toMatch(/connected at http:\/\/127\.0\.0\.1:\d+ .*\n.*request headers: Authorization \(values not shown\)/);
    expect(proxy.refused).toEqual([]);
    // Not remembered: the next run without the flag is refused.
    expect(engine().settings.view().ollamaHeaders).toEqual([]);
  });
});
