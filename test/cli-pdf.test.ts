import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';
import { makePdf } from './support/pdf';

/** The CLI names a PDF passage by its page ("p. 2") for people, and gives `pages` in --json. */
let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

const quire = (args: string[]) => runCli(args, { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file });

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-pdf-');
  notes.write('guide.pdf', makePdf({ title: 'Tide guide', pages: [['Spring tides follow the new and full moon.'], ['Neap tides come at the quarter moons, with the smallest range.']] }));
  notes.write('keys.md', '# Keys\n\nRotate the deploy keys every ninety days.\n');
  db = tempDbPath('quire-cli-pdf-db-');
  expect((await quire(['import', notes.root, '--json'])).code).toBe(0);
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('quire CLI with PDFs', () => {
  it('search: pages in --json, "p. N" for people (lines for notes)', async () => {
    const json = JSON.parse((await quire(['search', 'neap tides quarter moons', '--json', '--k', '2'])).stdout);
    expect(json.results[0]).toMatchObject({ path: 'guide.pdf', pages: [1, 2] });
    expect(json.results.find((r: { path: string }) => r.path === 'keys.md')?.pages ?? null).toBeNull();
    const human = (await quire(['search', 'neap tides quarter moons', '--k', '1'])).stdout;
    expect(human).toMatch(/^1\. guide\.pdf, pp\. 1–2 {2}\[/m);
    expect((await quire(['search', 'rotate deploy keys', '--k', '1'])).stdout).toMatch(/^1\. keys\.md:1-3 {2}\[/m);
  });

  it('ask: the citation says the pages, in --json and for people', async () => {
    const json = JSON.parse((await quire(['ask', 'When do neap tides come?', '--json'])).stdout);
    expect(json.citations[0]).toMatchObject({ path: 'guide.pdf', pages: [1, 2], check: 'supported' });
    const human = (await quire(['ask', 'When do neap tides come?'])).stdout;
    expect(human).toMatch(/\] guide\.pdf, pp\. 1–2 — supported/);
  });
});
