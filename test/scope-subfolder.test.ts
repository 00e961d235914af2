import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AnswerResult } from '../shared/answer';
import type { ScopeRef } from '../shared/contract';
import { main } from '../electron/cli/run';
import { storedResult } from '../electron/core/db/runs';
import { useEngineFixture } from './support/engine-fixture';

/**
 * A question limited to a folder inside an imported folder. `work/` and `workshop/` hold the same
 * words with different numbers, so a prefix match that ignores the folder boundary would be seen.
 */
const f = useEngineFixture({
  prefix: 'quire-subscope',
  notes: {
    'work/rotation.md': '# Key rotation\n\nAt work the deploy keys are rotated every 90 days by the platform team.\n',
    'work/deep/rotation.md': '# Key rotation\n\nThe archive keys at work are rotated every 45 days by the backup job.\n',
    'workshop/rotation.md': '# Key rotation\n\nIn the workshop the padlock keys are rotated every 700 days by the caretaker.\n',
    'recipes/bread.md': '# Bread\n\nThe sourdough keys: rotated flour every 3 days.\n',
  },
});

async function ask(question: string, collections: ScopeRef[]): Promise<AnswerResult> {
  for await (const e of f.engine.ask({ question, chatModel: 'llama3.2', collections })) {
    if (e.type === 'done' || e.type === 'error') return e.result;
  }
  throw new Error('no result');
}
const cli = async (args: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = await main([...args, '--db', f.dbFile], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env: { OLLAMA_HOST: f.ollama.url } });
  return { code, stdout, stderr };
};

describe('a question limited to a subfolder of an imported folder', () => {
  let notes: { id: string; name: string; root: string };
  beforeEach(async () => {
    await f.engine.importFolder({ path: f.notes.root });
    notes = (await f.engine.call('library', {})).collections[0]!;
  });

  it('search in every mode returns the subfolder only (work/ holds work/deep/, never workshop/), by object, path or name/path', async () => {
    const everywhere = await f.engine.search({ query: 'keys rotated days', mode: 'lexical', k: 20 });
    expect(new Set(everywhere.results.map((r) => r.path.split('/')[0]))).toEqual(new Set(['work', 'workshop', 'recipes']));
    const refs: ScopeRef[] = [{ collectionId: notes.id, path: 'work' }, { collectionId: notes.id, path: '/work/' }, path.join(notes.root, 'work'), `${notes.name}/work`];
    for (const ref of refs) {
      for (const mode of ['lexical', 'dense', 'hybrid'] as const) {
        const scoped = await f.engine.search({ query: 'keys rotated days', mode, k: 20, collections: [ref] });
        const paths = scoped.results.map((r) => r.path);
        expect(new Set(paths), `${JSON.stringify(ref)} ${mode}`).toEqual(new Set(['work/rotation.md', 'work/deep/rotation.md']));
      }
    }
    const shop = await f.engine.search({ query: 'keys rotated days', mode: 'hybrid', k: 20, collections: [{ collectionId: notes.id, path: 'workshop' }] });
    expect(shop.results.map((r) => r.path)).toEqual(['workshop/rotation.md']);
    // The whole folder named with one of its subfolders: the whole folder.
    const both = await f.engine.search({ query: 'keys rotated days', mode: 'lexical', k: 20, collections: [notes.name, { collectionId: notes.id, path: 'work' }] });
    expect(both.results.length).toBe(everywhere.results.length);
  });

  it("ask's retrieval trace and sources stay in the subfolder, and the run records it", async () => {
    const r = await ask('How often are the keys rotated?', [{ collectionId: notes.id, path: 'workshop' }]);
    expect(r.status).toBe('answered');
    expect(r.scope).toEqual([{ id: notes.id, name: notes.name, path: 'workshop' }]);
    expect(r.retrieval.length).toBeGreaterThan(0);
    expect(r.retrieval.every((c) => c.path.startsWith('workshop/'))).toBe(true);
    expect(r.answer).toContain('700');
    expect(r.answer).not.toContain('90 days');
    const stored = f.db.prepare('SELECT scope FROM runs WHERE id = ?').pluck().get(r.runId) as string;
    expect(JSON.parse(stored)).toEqual([{ id: notes.id, name: notes.name, path: 'workshop' }]);
    // Reopened, the answer still names its subfolder; a run stored before subfolders reads as the whole folder.
    expect(storedResult(f.db, r.runId!)!.scope).toEqual([{ id: notes.id, name: notes.name, path: 'workshop' }]);
    f.db.prepare('UPDATE runs SET scope = ? WHERE id = ?').run(JSON.stringify([{ id: notes.id, name: notes.name }]), r.runId);
    expect(storedResult(f.db, r.runId!)!.scope).toEqual([{ id: notes.id, name: notes.name, path: '' }]);
  });

  it('refuses a subfolder that holds no document and a path outside every folder, in sentences that say so', async () => {
    await expect(f.engine.search({ query: 'keys', collections: [{ collectionId: notes.id, path: 'work/nothing' }] })).rejects.toMatchObject({
      code: 'COLLECTION_NOT_FOUND',
      message: /no imported document lies in a folder “work\/nothing”/,
    });
    await expect(f.engine.search({ query: 'keys', collections: [{ collectionId: notes.id, path: '../elsewhere' }] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    // A file is not a folder.
    await expect(f.engine.search({ query: 'keys', collections: [path.join(notes.root, 'work', 'rotation.md')] })).rejects.toMatchObject({ code: 'COLLECTION_NOT_FOUND' });
    const outside = path.join(path.dirname(notes.root), 'not-imported-anywhere');
    await expect(f.engine.search({ query: 'keys', collections: [outside] })).rejects.toMatchObject({
      code: 'COLLECTION_NOT_FOUND',
      message: new RegExp(`No imported folder is called or found at “${outside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”, and it is not inside one\\. Folders: “${notes.name}”`),
    });
  });

  it('the CLI takes --collection with a path inside an imported folder and says which subfolder the answer was limited to', async () => {
    const searched = await cli(['search', 'keys rotated', '--json', '--k', '20', '--collection', path.join(notes.root, 'work')]);
    expect(searched.code).toBe(0);
    expect(new Set((JSON.parse(searched.stdout).results as Array<{ path: string }>).map((r) => r.path))).toEqual(new Set(['work/rotation.md', 'work/deep/rotation.md']));
    // The scope as ask --json says it: the folder's name and the subfolder, not the path typed.
    expect(JSON.parse(searched.stdout).scope).toEqual([`${notes.name}/work`]);
    const listed = await cli(['search', 'keys rotated', '--collection', path.join(notes.root, 'work')]);
    expect(listed.stdout).toMatch(new RegExp(`^\\d+ passages? \\([^)]*\\) in “${notes.name}/work” only\n`));
    const asked = await cli(['ask', 'How often are the keys rotated?', '--collection', `${notes.name}/workshop`, '--model', 'llama3.2']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain(`(Asked of “${notes.name}/workshop” only.)`);
    expect(asked.stdout).toContain('700');
    const refused = await cli(['search', 'keys', '--collection', path.join(path.dirname(notes.root), 'not-imported-anywhere')]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/not inside one/);
  });
});
