import { describe, expect, it } from 'vitest';
import type { AnswerResult, AskEvent } from '../shared/answer';
import type { Input } from '../shared/contract';
import { runCli } from './support/cli-run';
import { useEngineFixture } from './support/engine-fixture';

// The searchMode setting: answers, follow-ups and passage searches search the way Settings says
// whenever the call names no mode of its own, through the contract (what browser mode and the
// desktop app call), the engine's in-process operations and the CLI alike.

const f = useEngineFixture({
  prefix: 'quire-search-mode',
  notes: {
    'ops/keys.md': '# Keys\n\nWe rotate the deploy keys every 90 days. The platform team owns the rotation.\n',
    'kitchen/bread.md': '# Sourdough\n\nThe sourdough loaf bakes at 250 degrees for 40 minutes.\n',
  },
});

async function setMode(searchMode: 'lexical' | 'dense' | 'hybrid'): Promise<void> {
  await f.engine.call('setSettings', { searchMode });
}

async function ask(input: Input<'ask'>): Promise<{ result: AnswerResult; retrieval: Extract<AskEvent, { type: 'retrieval' }> }> {
  let result: AnswerResult | null = null;
  let retrieval: Extract<AskEvent, { type: 'retrieval' }> | null = null;
  for await (const e of f.engine.ask(input)) {
    if (e.type === 'retrieval') retrieval = e;
    if (e.type === 'done' || e.type === 'error') result = e.result;
  }
  if (!result || !retrieval) throw new Error('ask ended without a result');
  return { result, retrieval };
}

const storedMode = (runId: number) => (f.db.prepare('SELECT retrieval_mode FROM runs WHERE id = ?').get(runId) as { retrieval_mode: string }).retrieval_mode;

describe('the searchMode setting', () => {
  it('is hybrid until changed: a search naming no mode fuses both lists', async () => {
    await f.engine.importFolder({ path: f.notes.root });
    expect((await f.engine.call('getSettings', {})).searchMode).toBe('hybrid');
    const res = await f.engine.call('search', { query: 'deploy keys rotation' });
    expect(res.mode).toBe('hybrid');
    expect(res.results.some((r) => r.lexicalRank !== null && r.denseRank !== null)).toBe(true);
  });

  it('keyword only: passage searches through the contract and in-process use keywords alone, and a mode the call names still wins', async () => {
    await f.engine.importFolder({ path: f.notes.root });
    await setMode('lexical');
    const viaContract = await f.engine.call('search', { query: 'deploy keys rotation' });
    expect(viaContract.mode).toBe('lexical');
    expect(viaContract.fallback).toBeUndefined();
    expect(viaContract.embedModel).toBeNull();
    expect(viaContract.results.length).toBeGreaterThan(0);
    expect(viaContract.results.every((r) => r.denseRank === null)).toBe(true);
    expect((await f.engine.search({ query: 'deploy keys rotation' })).mode).toBe('lexical');
    // Named by the call (the CLI's --mode, the search box's choice): the setting is not consulted.
    const named = await f.engine.call('search', { query: 'deploy keys rotation', mode: 'hybrid' });
    expect(named.mode).toBe('hybrid');
  });

  it('meaning only: searches use the vectors alone', async () => {
    await f.engine.importFolder({ path: f.notes.root });
    await setMode('dense');
    const res = await f.engine.call('search', { query: 'how often are the deploy keys rotated' });
    expect(res.mode).toBe('dense');
    expect(res.results.length).toBeGreaterThan(0);
    expect(res.results.every((r) => r.lexicalRank === null && r.denseRank !== null)).toBe(true);
  });

  it('answers and follow-ups search as the setting says, and the run and its trace record the mode used', async () => {
    await f.engine.importFolder({ path: f.notes.root });
    await setMode('lexical');
    const first = await ask({ question: 'How often are the deploy keys rotated?' });
    expect(first.retrieval.mode).toBe('lexical');
    expect(first.result.retrievalMode).toBe('lexical');
    expect(first.result.retrieval.every((c) => c.denseRank === null)).toBe(true);
    expect(storedMode(first.result.runId)).toBe('lexical');

    await setMode('dense');
    const followUp = await ask({ question: 'Who owns it?', conversationId: first.result.conversationId! });
    expect(followUp.result.retrievalMode).toBe('dense');
    expect(followUp.result.retrieval.every((c) => c.lexicalRank === null)).toBe(true);
    expect(storedMode(followUp.result.runId)).toBe('dense');
  });

  it('falls back to keyword search when the chosen mode needs vectors there are none of, and says why; the default stays quiet as before', async () => {
    await f.engine.importFolder({ path: f.notes.root, embed: false });
    const quiet = await f.engine.call('search', { query: 'deploy keys' });
    expect(quiet.mode).toBe('lexical');
    expect(quiet.fallback).toBeUndefined();

    await setMode('dense');
    const res = await f.engine.call('search', { query: 'deploy keys' });
    expect(res.mode).toBe('lexical');
    expect(res.fallback).toMatchObject({ requested: 'dense', code: 'NO_EMBEDDINGS' });
    expect(res.results.length).toBeGreaterThan(0);
    const answered = await ask({ question: 'How often are the deploy keys rotated?' });
    // The mode actually used is what the answer and its run record, with the reason beside it.
    expect(answered.result.retrievalMode).toBe('lexical');
    expect(storedMode(answered.result.runId)).toBe('lexical');
    expect(answered.retrieval.note).toMatch(/No document has vectors yet/);
  });

  it('falls back to keyword search when Ollama cannot embed the question, saying why', async () => {
    await f.engine.importFolder({ path: f.notes.root });
    await setMode('dense');
    await f.ollama.stop();
    try {
      const res = await f.engine.call('search', { query: 'deploy keys' });
      expect(res.mode).toBe('lexical');
      expect(res.fallback?.requested).toBe('dense');
      expect(res.fallback?.code).toBe('OLLAMA_UNREACHABLE');
    } finally {
      await f.ollama.start();
    }
  });

  it('the CLI searches and answers by the saved setting unless --mode says otherwise', async () => {
    await f.engine.importFolder({ path: f.notes.root });
    await setMode('lexical');
    const env = { OLLAMA_HOST: f.ollama.url, QUIRE_DB: f.dbFile };
    const search = await runCli(['search', 'deploy keys rotation', '--json'], env);
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout).mode).toBe('lexical');
    const overridden = await runCli(['search', 'deploy keys rotation', '--mode', 'hybrid', '--json'], env);
    expect(JSON.parse(overridden.stdout).mode).toBe('hybrid');
    const asked = await runCli(['ask', 'How often are the deploy keys rotated?', '--json'], env);
    expect(asked.code).toBe(0);
    expect(JSON.parse(asked.stdout).mode).toBe('lexical');
  });
});
