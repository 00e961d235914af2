import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnswerResult } from '../shared/answer';
import { main } from '../electron/cli/run';
import { useEngineFixture } from './support/engine-fixture';
import { NotesFolder } from './support/notes';

/**
 * A question limited to some folders: two folders that share their words, so that anything from
 * outside the scope would be found if the scope were not applied.
 */
const f = useEngineFixture({
  prefix: 'quire-scope-work',
  notes: { 'rotation.md': '# Key rotation\n\nAt work the deploy keys are rotated every 90 days by the platform team.\n' },
});
let home: NotesFolder;
beforeEach(() => {
  home = new NotesFolder('quire-scope-home-');
  home.write('rotation.md', '# Key rotation\n\nAt home the house keys are rotated every 365 days by the landlord.\n');
});
afterEach(() => home.dispose());

const folders = async () => (await f.engine.call('library', {})).collections;
async function ask(question: string, collections?: string[]): Promise<AnswerResult> {
  for await (const e of f.engine.ask({ question, chatModel: 'llama3.2', ...(collections ? { collections } : {}) })) {
    if (e.type === 'done' || e.type === 'error') return e.result;
  }
  throw new Error('no result');
}
const rootOf = (path: string) => (path.includes('work') ? 'work' : 'home');

describe('a question limited to some folders', () => {
  beforeEach(async () => {
    await f.engine.importFolder({ path: f.notes.root });
    await f.engine.importFolder({ path: home.root });
  });

  it('search returns passages of the named folders only, in every mode, by name, path or id', async () => {
    const [a, b] = await folders();
    expect(new Set([a!.name, b!.name]).size).toBe(2);
    const work = (await folders()).find((c) => c.root === f.notes.root)!;
    const everywhere = await f.engine.search({ query: 'keys rotated days', mode: 'lexical' });
    expect(new Set(everywhere.results.map((r) => r.root))).toEqual(new Set([f.notes.root, home.root]));
    for (const ref of [work.name, work.root, work.id, work.name.toUpperCase()]) {
      for (const mode of ['lexical', 'dense', 'hybrid'] as const) {
        const scoped = await f.engine.search({ query: 'keys rotated days', mode, collections: [ref] });
        expect(scoped.results.length, `${ref} ${mode}`).toBeGreaterThan(0);
        expect(scoped.results.every((r) => r.root === f.notes.root), `${ref} ${mode}`).toBe(true);
      }
    }
  });

  it('an answer is written from the scope only, and the run records it', async () => {
    const homeFolder = (await folders()).find((c) => c.root === home.root)!;
    const r = await ask('How often are the keys rotated?', [homeFolder.name]);
    expect(r.status).toBe('answered');
    expect(r.scope).toEqual([{ id: homeFolder.id, name: homeFolder.name, path: '' }]);
    expect(r.retrieval.length).toBeGreaterThan(0);
    expect(r.retrieval.every((c) => c.chunkId.split('#')[0] && rootOf(c.path) === 'home')).toBe(true);
    expect(r.answer).toContain('365');
    expect(r.answer).not.toContain('90 days');
    const stored = f.db.prepare('SELECT scope FROM runs WHERE id = ?').pluck().get(r.runId) as string;
    expect(JSON.parse(stored)).toEqual([{ id: homeFolder.id, name: homeFolder.name, path: '' }]);
    // No scope: every folder, recorded as none.
    expect((await ask('How often are the keys rotated?')).scope).toEqual([]);
  });

  it('a folder renamed in the library is found by its new name; an unknown one is refused, naming the folders there are', async () => {
    const homeFolder = (await folders()).find((c) => c.root === home.root)!;
    await f.engine.call('renameCollection', { collectionId: homeFolder.id, name: 'Flat' });
    expect((await f.engine.search({ query: 'keys', mode: 'lexical', collections: ['flat'] })).results.every((r) => r.root === home.root)).toBe(true);
    await expect(f.engine.search({ query: 'keys', collections: ['Flatt'] })).rejects.toMatchObject({ code: 'COLLECTION_NOT_FOUND', message: /“Flatt”.*“Flat”/ });
    // The job refuses at once, before it starts: the person is still looking at the question box.
    await expect(f.engine.call('ask', { question: 'keys?', collections: ['Flatt'] })).rejects.toMatchObject({ code: 'COLLECTION_NOT_FOUND' });
    const other = (await folders()).find((c) => c.root === f.notes.root)!;
    await expect(f.engine.call('renameCollection', { collectionId: other.id, name: 'FLAT' })).rejects.toMatchObject({ message: /already called/ });
  });

  it('the CLI takes --collection, repeatable, and says the answer was limited', async () => {
    const homeFolder = (await folders()).find((c) => c.root === home.root)!;
    let stdout = '';
    const code = await main(['search', 'keys rotated', '--json', '--collection', homeFolder.name, '--db', f.dbFile], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => {} },
      env: { OLLAMA_HOST: f.ollama.url },
    });
    expect(code).toBe(0);
    const results = JSON.parse(stdout).results as Array<{ path: string }>;
    expect(results.length).toBeGreaterThan(0);
    // The human list says it was limited, as the answer does.
    let listed = '';
    await main(['search', 'keys rotated', '--collection', homeFolder.name, '--db', f.dbFile], {
      stdout: { write: (t: string) => (listed += t) },
      stderr: { write: () => {} },
      env: { OLLAMA_HOST: f.ollama.url },
    });
    expect(listed).toMatch(new RegExp(`^1 passage \\((hybrid|lexical) search[^)]*, \\d+ ms\\) in “${homeFolder.name}” only\n`));
    let human = '';
    const asked = await main(['ask', 'How often are the keys rotated?', '--collection', homeFolder.root, '--collection', homeFolder.name, '--model', 'llama3.2', '--db', f.dbFile], {
      stdout: { write: (t: string) => (human += t) },
      stderr: { write: () => {} },
      env: { OLLAMA_HOST: f.ollama.url },
    });
    expect(asked).toBe(0);
    expect(human).toContain(`(Asked of “${homeFolder.name}” only.)`);
    expect(human).toContain('365');
    // status names each folder as --collection takes it.
    let status = '';
    await main(['status', '--db', f.dbFile], { stdout: { write: (t: string) => (status += t) }, stderr: { write: () => {} }, env: { OLLAMA_HOST: f.ollama.url } });
    expect(status).toContain(`  ${homeFolder.name}: ${homeFolder.root} (1 document)`);
  });
});
