import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../electron/core/db/open';
import { insertSavedQuestion } from '../electron/core/db/saved-questions';
import { createEngine, type Engine } from '../electron/core/engine';
import { startStandin, type Standin } from './support/ollama-standin/server';
import { NotesFolder, tempDbPath } from './support/notes';

/**
 * Deletion is complete: after a file leaves its folder, or a folder is forgotten, nothing derived
 * from its text surfaces anywhere — chunks, full-text rows, sections, vectors, answers given from
 * it, questions saved for it, evaluation reports over the folder — and an event says so.
 */
let ollama: Standin;
let ops: NotesFolder;
let food: NotesFolder;
let dbFile: ReturnType<typeof tempDbPath>;
let db: Db;
let engine: Engine;

const count = (sql: string, ...p: unknown[]) => db.prepare(sql).pluck().get(...p) as number;
async function askFor(question: string): Promise<void> {
  for await (const e of engine.ask({ question })) if (e.type === 'error') throw new Error(e.error.message);
}
/** Every place a word of the document could surface from. */
function traces(word: string): Record<string, number> {
  const like = `%${word}%`;
  return {
    chunks: count('SELECT count(*) FROM chunks WHERE text LIKE ?', like),
    chunksFts: count('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?', `"${word}"`),
    sectionsFts: count('SELECT count(*) FROM sections_fts WHERE sections_fts MATCH ?', `"${word}"`),
    runs: count('SELECT count(*) FROM runs WHERE question LIKE ? OR answer LIKE ? OR retrieval LIKE ? OR citations LIKE ?', like, like, like, like),
    savedQuestions: count('SELECT count(*) FROM saved_questions WHERE question LIKE ? OR chunk_fact LIKE ?', like, like),
  };
}
const none = { chunks: 0, chunksFts: 0, sectionsFts: 0, runs: 0, savedQuestions: 0 };
const vectorsOf = () => {
  const model = db.prepare('SELECT table_name FROM embedding_models').pluck().get() as string;
  return count(`SELECT count(*) FROM ${model}`);
};

beforeAll(async () => {
  ollama = await startStandin();
  ops = new NotesFolder('quire-del-ops-');
  food = new NotesFolder('quire-del-food-');
  ops.write('keys.md', '# Keys\n\nWe rotate the zanzibar deploy keys every 90 days.\n');
  ops.write('backup.md', '# Backups\n\nThe quokka backup runs nightly at two.\n');
  food.write('bread.md', '# Bread\n\nBake the marmalade loaf at 250 degrees.\n');
  dbFile = tempDbPath('quire-del-db-');
  engine = createEngine({ dbPath: dbFile.file, env: { OLLAMA_HOST: ollama.url } });
  db = openDatabase(dbFile.file); // a second connection, to look at every table
  await engine.importFolder({ path: ops.root });
  await engine.importFolder({ path: food.root });
  await askFor('How often are the zanzibar deploy keys rotated?');
  await askFor('When does the quokka backup run?');
  await askFor('How hot for the marmalade loaf?');
  insertSavedQuestion(db, { id: 'z1', question: 'zanzibar key rotation?', expect: { answerable: true, chunkFact: 'every 90 days' }, file: 'keys.md', root: fs.realpathSync(ops.root) });
  insertSavedQuestion(db, { id: 'q1', question: 'quokka backup time?', expect: { answerable: true, chunkFact: 'runs nightly' }, file: 'backup.md', root: fs.realpathSync(ops.root) });
});
afterAll(async () => {
  db?.close();
  await engine?.close();
  await ollama?.close();
  ops?.dispose();
  food?.dispose();
  dbFile?.dispose();
});

describe('deletion is complete', () => {
  it('the check sees every trace before anything is deleted', () => {
    expect(traces('zanzibar')).toMatchObject({ chunks: 1, chunksFts: 1, sectionsFts: 1, savedQuestions: 1 });
    expect(traces('zanzibar').runs).toBeGreaterThan(0);
  });

  it('a file gone from its folder leaves no trace; the others are untouched; an event records it', async () => {
    const vectors = vectorsOf();
    fs.rmSync(ops.path('keys.md'));
    const report = await engine.importFolder({ path: ops.root });
    expect(report.documents.deleted).toBe(1);
    expect(traces('zanzibar')).toEqual(none);
    expect(vectorsOf()).toBe(vectors - 1);
    expect(traces('quokka').runs).toBeGreaterThan(0);
    expect(traces('marmalade').runs).toBeGreaterThan(0);
    const event = db.prepare("SELECT detail FROM events WHERE kind = 'document.deleted' AND path = 'keys.md'").pluck().get() as string;
    expect(JSON.parse(event)).toMatchObject({ savedQuestions: 1 });
    expect(JSON.parse(event).runs).toBeGreaterThan(0);
    expect((await engine.search({ query: 'zanzibar deploy keys', mode: 'hybrid' })).results.every((r) => !r.text.includes('zanzibar'))).toBe(true);
  });

  it('a forgotten folder leaves no trace either: documents, vectors, runs, saved questions, reports', async () => {
    db.prepare("INSERT INTO eval_reports (created_at, docs, question_set, configs, questions, ms, report) VALUES ('now', ?, 'set', 1, 1, 1, '{}')").run(fs.realpathSync(ops.root));
    const outcome = await engine.forgetFolder(ops.root);
    expect(outcome.documents).toBe(1);
    expect(traces('quokka')).toEqual(none);
    expect(count("SELECT count(*) FROM documents WHERE rel_path = 'backup.md'")).toBe(0);
    expect(vectorsOf()).toBe(1); // the bread note's one chunk
    expect(count('SELECT count(*) FROM eval_reports WHERE docs = ?', fs.realpathSync(ops.root))).toBe(0);
    expect(traces('marmalade').runs).toBeGreaterThan(0);
    const event = JSON.parse(db.prepare("SELECT detail FROM events WHERE kind = 'collection.forgotten'").pluck().get() as string);
    expect(event).toMatchObject({ documents: 1, savedQuestions: 1, evalReports: 1 });
    expect(event.runs).toBeGreaterThan(0);
    expect(engine.doctor().filter((c) => !c.ok)).toEqual([]);
  });
});

describe('an answer streaming while its source is deleted', () => {
  /** Asks, and at the first streamed token runs `meanwhile`; returns the stored run's id. */
  async function askWhile(question: string, meanwhile: () => Promise<void> | void): Promise<number> {
    let ran = false;
    let runId: number | null = null;
    for await (const e of engine.ask({ question })) {
      if (e.type === 'token' && !ran) {
        ran = true;
        await meanwhile();
      }
      if (e.type === 'error') throw new Error(e.error.message);
      if (e.type === 'done') runId = e.result.runId;
    }
    expect(ran).toBe(true);
    return runId!;
  }

  it('is not stored with the text of a file removed (and imported again) before the answer ended', async () => {
    const garden = new NotesFolder('quire-del-garden-');
    try {
      garden.write('tulips.md', '# Tulips\n\nPlant the xylophone tulips in late October.\n');
      await engine.importFolder({ path: garden.root });
      const runId = await askWhile('When are the xylophone tulips planted?', async () => {
        garden.remove('tulips.md');
        expect((await engine.importFolder({ path: garden.root })).documents.deleted).toBe(1);
        garden.write('tulips.md', '# Tulips\n\nPlant the xylophone tulips in late October.\n');
        expect((await engine.importFolder({ path: garden.root })).documents.added).toBe(1);
      });
      expect(db.prepare('SELECT count(*) FROM runs WHERE id = ?').pluck().get(runId)).toBe(0);
      expect(traces('xylophone').runs).toBe(0);
      await engine.forgetFolder(garden.root);
    } finally {
      garden.dispose();
    }
  });

  it('follows a file renamed before the answer ended: stored, citing the passages under their new id', async () => {
    const garden = new NotesFolder('quire-del-garden-');
    try {
      garden.write('lilies.md', '# Lilies\n\nWater the zircon lilies every morning.\n');
      await engine.importFolder({ path: garden.root });
      const runId = await askWhile('How often are the zircon lilies watered?', async () => {
        fs.renameSync(garden.path('lilies.md'), garden.path('zircon-lilies.md'));
        expect((await engine.importFolder({ path: garden.root })).documents.moved).toBe(1);
      });
      const newId = db.prepare("SELECT id FROM documents WHERE rel_path = 'zircon-lilies.md'").pluck().get() as string;
      const run = db.prepare('SELECT sent_chunk_ids, citations FROM runs WHERE id = ?').get(runId) as { sent_chunk_ids: string; citations: string } | undefined;
      expect(run).toBeDefined();
      const sent = JSON.parse(run!.sent_chunk_ids) as string[];
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.every((id) => id.startsWith(`${newId}#`))).toBe(true);
      expect((JSON.parse(run!.citations) as Array<{ chunkId: string }>).every((c) => c.chunkId.startsWith(`${newId}#`))).toBe(true);
      await engine.forgetFolder(garden.root);
    } finally {
      garden.dispose();
    }
  });

  it('is not stored with the text of a folder forgotten before the answer ended', async () => {
    const garden = new NotesFolder('quire-del-garden-');
    try {
      garden.write('roses.md', '# Roses\n\nPrune the vermilion roses in February.\n');
      await engine.importFolder({ path: garden.root });
      const runId = await askWhile('When are the vermilion roses pruned?', () => void engine.forgetFolder(garden.root));
      expect(db.prepare('SELECT count(*) FROM runs WHERE id = ?').pluck().get(runId)).toBe(0);
      expect(traces('vermilion')).toEqual(none);
      expect(engine.doctor().filter((c) => !c.ok)).toEqual([]);
    } finally {
      garden.dispose();
    }
  });
});

describe('a folder known by a symlink', () => {
  const reportOver = (docs: string) => db.prepare("INSERT INTO eval_reports (created_at, docs, question_set, configs, questions, ms, report) VALUES ('now', ?, 'set', 1, 1, 1, '{}')").run(docs);
  const reportsOver = (...docs: string[]) => count(`SELECT count(*) FROM eval_reports WHERE docs IN (${docs.map(() => '?').join(', ')})`, ...docs);

  for (const how of ['quire forget <link>', 'Remove in the library'] as const) {
    it(`takes with it the evaluation reports run through the link or the folder (${how})`, async () => {
      const shed = new NotesFolder('quire-del-shed-');
      const link = `${shed.root}-link`;
      try {
        shed.write('tools.md', '# Tools\n\nThe quizzical rake hangs by the door.\n');
        fs.symlinkSync(shed.root, link);
        const report = await engine.importFolder({ path: link });
        expect(report.collection.root).toBe(shed.root);
        reportOver(link); // `quire eval --docs <link>` by a Quire that kept the path as given
        reportOver(shed.root);
        expect(reportsOver(link, shed.root)).toBe(2);
        if (how === 'quire forget <link>') await engine.forgetFolder(link);
        else await engine.call('removeCollection', { collectionId: report.collection.id });
        expect(reportsOver(link, shed.root)).toBe(0);
        expect(traces('quizzical')).toEqual(none);
      } finally {
        fs.rmSync(link, { force: true });
        shed.dispose();
      }
    });
  }
});
