import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotesFolder } from '../../../test/support/notes';
import { startStandin, type Standin } from '../../../test/support/ollama-standin/server';
import { runDoctor } from '../db/health';
import { openDatabase, type Db } from '../db/open';
import { OllamaGateway } from '../ollama/gateway';
import { lexicalSearch } from '../retrieve/lexical';
import { importFolder } from './pipeline';

let notes: NotesFolder;
let outside: NotesFolder;
let db: Db;

beforeEach(() => {
  notes = new NotesFolder();
  outside = new NotesFolder('quire-outside-');
  db = openDatabase(':memory:');
});
afterEach(() => {
  db.close();
  notes.dispose();
  outside.dispose();
});

const paths = () => db.prepare('SELECT rel_path FROM documents ORDER BY rel_path').pluck().all();
const found = (word: string) => lexicalSearch(db, word, 10).length;

describe('importing only the paths a watcher reported', () => {
  it('reads only those paths, deletes what is gone under them, and leaves the rest of the folder alone', async () => {
    notes.write('a.md', '# A\n\nAardvarks.\n');
    notes.write('b.md', '# B\n\nBadgers.\n');
    notes.write('sub/c.md', '# C\n\nCapybaras.\n');
    notes.write('sub/d.md', '# D\n\nDingoes.\n');
    await importFolder(db, notes.root, { embedding: null });

    notes.write('a.md', '# A\n\nAlpacas now.\n');
    notes.remove('b.md'); // not reported: a partial import must not take it for deleted
    notes.remove('sub/d.md');
    notes.write('sub/e.md', '# E\n\nEchidnas.\n');
    const r = await importFolder(db, notes.root, { embedding: null, only: ['a.md', 'sub'] });
    expect(r.documents).toMatchObject({ added: 1, updated: 1, unchanged: 1, deleted: 1 });
    expect(paths()).toEqual(['a.md', 'b.md', 'sub/c.md', 'sub/e.md']);
    expect(found('alpacas')).toBe(1);
    expect(found('dingoes')).toBe(0);
    expect(found('echidnas')).toBe(1);

    // A reported path that is gone takes its document with it; one never indexed is no error.
    const gone = await importFolder(db, notes.root, { embedding: null, only: ['b.md', 'never-there.md'] });
    expect(gone.documents).toMatchObject({ deleted: 1, failed: 0, added: 0 });
    expect(paths()).toEqual(['a.md', 'sub/c.md', 'sub/e.md']);
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  });

  it('never leaves the folder: paths with .., absolute paths and links out are not read', async () => {
    notes.write('a.md', '# A\n\nAardvarks.\n');
    outside.write('secret.md', '# Secret\n\nPlatypus passwords.\n');
    fs.symlinkSync(outside.root, notes.path('out'));
    fs.symlinkSync(outside.path('secret.md'), notes.path('secret.md'));
    const rel = `../${outside.root.split('/').at(-1)}/secret.md`;
    const r = await importFolder(db, notes.root, { embedding: null, only: [rel, outside.path('secret.md'), 'out/secret.md', 'secret.md', 'out'] });
    expect(found('platypus')).toBe(0);
    expect(r.documents.added).toBe(0);
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual(expect.arrayContaining([['secret.md', 'symlink-outside-root'], ['out', 'symlink-outside-root']]));
  });
});

describe('a renamed or moved file', () => {
  let ollama: Standin;
  beforeEach(async () => {
    ollama = await startStandin();
  });
  afterEach(async () => {
    await ollama.close();
  });

  const embed = () => ({ gateway: new OllamaGateway({ host: ollama.url }), model: 'embeddinggemma' });
  const embedCalls = () => ollama.calls.count('/api/embed');

  it('is re-pointed to its new path without re-embedding, keeping its chunks, vectors and the answers that cited it', async () => {
    notes.write('inbox/heron.md', '# Herons\n\nHerons stand still in shallow water.\n\n## Nesting\n\nThey nest in colonies called heronries.\n');
    notes.write('other.md', '# Other\n\nNothing about birds.\n');
    await importFolder(db, notes.root, { embedding: embed() });
    const before = db.prepare("SELECT c.rowid, c.text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = 'inbox/heron.md' ORDER BY c.ordinal").all() as Array<{ rowid: number; text: string }>;
    const oldId = db.prepare("SELECT id FROM documents WHERE rel_path = 'inbox/heron.md'").pluck().get() as string;
    db.prepare("INSERT INTO runs (started_at, status, question, sent_chunk_ids, citations, answer) VALUES ('t', 'answered', 'q', ?, ?, ?)").run(
      JSON.stringify([`${oldId}#1`]),
      JSON.stringify([{ chunkId: `${oldId}#1` }]),
      `They nest in heronries [${oldId}#1].`,
    );
    const calls = embedCalls();
    expect(calls).toBeGreaterThan(0);

    fs.mkdirSync(notes.path('birds'));
    fs.renameSync(notes.path('inbox/heron.md'), notes.path('birds/grey-heron.md'));
    const r = await importFolder(db, notes.root, { embedding: embed(), only: ['inbox/heron.md', 'birds/grey-heron.md'] });

    expect(r.documents).toMatchObject({ moved: 1, added: 0, deleted: 0 });
    expect(embedCalls()).toBe(calls); // not one vector computed again
    expect(paths()).toEqual(['birds/grey-heron.md', 'other.md']);
    const newId = db.prepare("SELECT id FROM documents WHERE rel_path = 'birds/grey-heron.md'").pluck().get() as string;
    const after = db.prepare('SELECT c.rowid, c.text, c.id FROM chunks c WHERE c.document_id = ? ORDER BY c.ordinal').all(newId) as Array<{ rowid: number; text: string; id: string }>;
    expect(after.map((c) => [c.rowid, c.text])).toEqual(before.map((c) => [c.rowid, c.text]));
    expect(after.map((c) => c.id)).toEqual(after.map((_, i) => `${newId}#${i}`));
    expect(db.prepare('SELECT count(*) FROM document_embeddings WHERE document_id = ?').pluck().get(newId)).toBe(1);
    const run = db.prepare('SELECT sent_chunk_ids, citations, answer FROM runs').get() as Record<string, string>;
    expect(run.answer).toBe(`They nest in heronries [${newId}#1].`);
    expect(JSON.parse(run.sent_chunk_ids!)).toEqual([`${newId}#1`]);
    expect(found('heronries')).toBe(1);
    expect(db.prepare("SELECT kind, path FROM events WHERE kind = 'document.moved'").get()).toEqual({ kind: 'document.moved', path: 'birds/grey-heron.md' });
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  });

  it('is found as a rename by a whole-folder import too, and a copy is a new document', async () => {
    notes.write('heron.md', '# Herons\n\nHerons stand still in shallow water.\n');
    await importFolder(db, notes.root, { embedding: embed() });
    fs.renameSync(notes.path('heron.md'), notes.path('heron-renamed.md'));
    fs.copyFileSync(notes.path('heron-renamed.md'), notes.path('heron-copy.md'));
    const r = await importFolder(db, notes.root, { embedding: embed() });
    // One of the two took the old document's place; the other is new. Nothing was deleted and re-added.
    expect(r.documents).toMatchObject({ moved: 1, added: 1, deleted: 0 });
    expect(paths()).toEqual(['heron-copy.md', 'heron-renamed.md']);
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  });

  it('with a title from its file name gets the new name in its heading paths and is embedded again under it', async () => {
    notes.write('old-name.md', 'Plain text without a heading, about kingfishers.\n');
    await importFolder(db, notes.root, { embedding: embed() });
    const calls = embedCalls();
    expect(calls).toBeGreaterThan(0);
    fs.renameSync(notes.path('old-name.md'), notes.path('new-name.md'));
    const r = await importFolder(db, notes.root, { embedding: embed(), only: ['old-name.md', 'new-name.md'] });
    expect(r.documents.moved).toBe(1);
    // Its vector embedded the old name with the text (ingest/embedding-input.ts): it is computed again.
    expect(embedCalls()).toBe(calls * 2);
    expect(db.prepare('SELECT count(*) FROM document_embeddings').pluck().get()).toBe(1);
    expect(db.prepare('SELECT title FROM documents').pluck().get()).toBe('new-name');
    expect(db.prepare('SELECT heading_path FROM chunks').pluck().all()).toEqual(['new-name']);
    expect(db.prepare('SELECT heading_path FROM sections').pluck().all()).toEqual(['new-name']);
    expect(lexicalSearch(db, 'new name', 5)).toHaveLength(1);
    expect(lexicalSearch(db, 'old', 5)).toHaveLength(0);
    expect(runDoctor(db).filter((c) => !c.ok)).toEqual([]);
  });

  it('whose content changed on the way is re-read, not re-pointed', async () => {
    notes.write('a.md', '# A\n\nOriginal words.\n');
    await importFolder(db, notes.root, { embedding: null });
    fs.renameSync(notes.path('a.md'), notes.path('b.md'));
    notes.write('b.md', '# A\n\nEdited words.\n');
    const r = await importFolder(db, notes.root, { embedding: null, only: ['a.md', 'b.md'] });
    expect(r.documents).toMatchObject({ moved: 0, added: 1, deleted: 1 });
    expect(found('edited')).toBe(1);
    expect(found('original')).toBe(0);
  });
});
