import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { runCli } from './support/cli-run';
import { NotesFolder, tempDbPath } from './support/notes';

let ollama: Standin;
let notes: NotesFolder;
let db: ReturnType<typeof tempDbPath>;

beforeAll(async () => {
  ollama = await startStandin();
  notes = new NotesFolder('quire-cli-snippet-');
  notes.write('db.md', ['# Database', '', '## [Mongo](https://github.com/fastify/fastify-mongodb)', '', 'Install the **plugin** with `npm i @fastify/mongodb` and [force it to close](#closing) when the app stops.', ''].join('\n'));
  db = tempDbPath('quire-cli-snippet-db-');
  expect((await runCli(['import', notes.root, '--no-embed'], { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file })).code).toBe(0);
});

afterAll(async () => {
  await ollama?.close();
  notes?.dispose();
  db?.dispose();
});

describe('quire search, read in a terminal', () => {
  // The snippet used to be the passage's Markdown source: "### [Mongo](https://github.com/…) … **plugin** …".
  it('shows a passage as the words a reader sees: no heading marks, link addresses, emphasis or backticks', async () => {
    const r = await runCli(['search', 'close the mongo plugin when the app stops'], { OLLAMA_HOST: ollama.url, QUIRE_DB: db.file });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Mongo Install the plugin with npm i @fastify/mongodb and force it to close when the app stops.');
    expect(r.stdout).not.toMatch(/\]\(|\*\*|###|`/);
  });
});
