import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open';
import { importFolder } from '../ingest/pipeline';
import { lexicalSearch } from './lexical';
import { search } from './search';
import { chunkView } from '../api/views';

// A contents page whose links' addresses and anchors spell out other pages' topics, a chapter that
// ends in reference definitions, and the page that really is about probes.
const CONTENTS = [
  '# Contents',
  '',
  '- [Deployment](https://kubernetes.io/docs/tasks/configure-liveness-readiness-startup-probes/#configure-probes)',
  '- [Errors](#fst_err_duplicated_route)',
  '- [Testing][testing-guide]',
  '',
  '[testing-guide]: https://example.com/guides/readiness-probes-and-kubernetes.html',
  '',
].join('\n');
const PROBES = ['# Deployment', '', 'Kubernetes runs a readiness probe against the pod: listen on 0.0.0.0 or the probe cannot reach the app.', ''].join('\n');
// Long enough that its linked section is a chunk of its own.
const DATABASES = ['# Database', '', 'Plugins exist for the usual stores. '.repeat(60), '', '## [Mongo](https://github.com/fastify/fastify-mongodb)', '', 'Install the plugin and pass it the connection string of your replica set.', ''].join('\n');
const ROUTES = ['# Routes', '', 'Registering the same method and URL twice fails with a duplicated route error.', '', '```js', "app.get('/kubernetes', handler)", '```', ''].join('\n');

describe('keyword search indexes what a reader sees of a page', () => {
  let dir: string;
  let db: Db;
  const paths = (q: string) =>
    lexicalSearch(db, q, 10).map((r) => db.prepare('SELECT d.rel_path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.rowid = ?').pluck().get(r.rowid));

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-links-'));
    fs.mkdirSync(path.join(dir, 'notes'));
    fs.writeFileSync(path.join(dir, 'notes', 'contents.md'), CONTENTS);
    fs.writeFileSync(path.join(dir, 'notes', 'probes.md'), PROBES);
    fs.writeFileSync(path.join(dir, 'notes', 'routes.md'), ROUTES);
    fs.writeFileSync(path.join(dir, 'notes', 'databases.md'), DATABASES);
    db = openDatabase(path.join(dir, 'q.db'));
    await importFolder(db, path.join(dir, 'notes'), { embedding: null });
  });
  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a word only in a link's address, anchor or reference definition does not find the page", () => {
    // Before, the contents page matched all of these through its addresses.
    expect(paths('readiness probes')).toEqual(['probes.md']);
    expect(paths('fst_err_duplicated_route')).toEqual([]);
    expect(paths('guides html')).toEqual([]);
  });

  it("a link's text, and code in a fence, still find theirs", () => {
    expect(paths('deployment')).toEqual(expect.arrayContaining(['contents.md', 'probes.md']));
    expect(paths('testing')).toEqual(['contents.md']);
    expect(paths('kubernetes')).toEqual(expect.arrayContaining(['probes.md', 'routes.md']));
    expect(paths('kubernetes')).not.toContain('contents.md');
  });

  it('stores the passage as written: prompts and the source panel show the Markdown, addresses included', () => {
    const text = db.prepare("SELECT c.text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = 'contents.md'").pluck().all().join('\n');
    expect(text).toContain('https://kubernetes.io/docs/tasks/configure-liveness-readiness-startup-probes/#configure-probes');
    expect(text).toContain('[testing-guide]: https://example.com/guides/readiness-probes-and-kubernetes.html');
  });

  it('shows a linked heading as its text in results, and keeps it as written in the chunk', async () => {
    const { results } = await search(db, 'replica set connection string', { mode: 'lexical', gateway: null, k: 3 });
    expect(results[0]?.path).toBe('databases.md');
    expect(results[0]?.heading).toBe('Database > Mongo');
    expect(chunkView(db, results[0]!.chunkId).heading).toBe('Database > Mongo');
    expect(db.prepare("SELECT c.heading_path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = 'databases.md' AND c.text LIKE '%replica%'").pluck().get()).toBe(
      'Database > [Mongo](https://github.com/fastify/fastify-mongodb)',
    );
  });
});
