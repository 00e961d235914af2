import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../electron/core/db/open';
import { containsFact } from '../electron/core/eval/metrics';
import { importFolder } from '../electron/core/ingest/pipeline';
import { toMatchExpression } from '../electron/core/retrieve/fts-query';
import { search } from '../electron/core/retrieve/search';
import { tempDbPath } from './support/notes';

// Notes in Spanish and Portuguese (and two in English), questions typed as people type them: half
// with accents, half without. The index folds accents and stems with Porter, an English stemmer.
const NOTES = path.resolve(import.meta.dirname, 'fixtures/notes-es-pt');
interface Entry {
  id: string;
  question: string;
  chunk_fact?: string;
  file?: string;
  answerable: boolean;
  accents: boolean;
}
const QUESTIONS = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'bench/questions/es-pt.json'), 'utf8')) as Entry[]).filter((q) => q.answerable);
const stripAccents = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

describe('notes in Spanish and Portuguese', () => {
  const tmp = tempDbPath('quire-es-pt-');
  let db: Db;
  beforeAll(async () => {
    db = openDatabase(tmp.file);
    await importFolder(db, NOTES, { embedding: null });
  });
  afterAll(() => {
    db.close();
    tmp.dispose();
  });

  const rankOf = async (question: string, fact: string) => {
    const res = await search(db, question, { gateway: null, mode: 'lexical', k: 5 });
    return res.results.findIndex((r) => containsFact(r.text, fact));
  };

  it('has questions typed both with and without accents', () => {
    expect(QUESTIONS.filter((q) => q.accents).length).toBeGreaterThanOrEqual(10);
    expect(QUESTIONS.filter((q) => !q.accents).length).toBeGreaterThanOrEqual(10);
  });

  it.each(QUESTIONS.map((q) => [q.id, q] as const))('%s finds its note in the top 3, as typed and with every accent dropped', async (_id, q) => {
    expect(await rankOf(q.question, q.chunk_fact!)).toBeGreaterThanOrEqual(0);
    expect(await rankOf(q.question, q.chunk_fact!)).toBeLessThan(3);
    expect(await rankOf(stripAccents(q.question), q.chunk_fact!)).toBeLessThan(3);
    expect(await rankOf(stripAccents(q.question), q.chunk_fact!)).toBeGreaterThanOrEqual(0);
  });

  it('stemming never ranks a note lower than an index without stemming would', () => {
    // Quire's chunks in two indexes that differ only in the stemmer: Quire's (porter) and none.
    const rank = (tokenize: string) => {
      const fts = new Database(':memory:');
      fts.exec(`CREATE VIRTUAL TABLE t USING fts5(heading_path, text, tokenize = '${tokenize}')`);
      const insert = fts.prepare('INSERT INTO t (rowid, heading_path, text) VALUES (?, ?, ?)');
      for (const c of db.prepare('SELECT rowid, heading_path, text FROM chunks').all() as Array<{ rowid: number; heading_path: string; text: string }>) insert.run(c.rowid, c.heading_path, c.text);
      const texts = db.prepare('SELECT text FROM chunks WHERE rowid = ?').pluck();
      const ranks = QUESTIONS.map((q) => {
        const rows = fts.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t, 2, 1) LIMIT 10').pluck().all(toMatchExpression(q.question)) as number[];
        return rows.findIndex((r) => containsFact(texts.get(r) as string, q.chunk_fact!));
      });
      fts.close();
      return ranks;
    };
    const tokenizer = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").pluck().get() as string;
    const stemmed = rank(/tokenize\s*=\s*'([^']+)'/.exec(tokenizer)![1]!);
    const plain = rank('unicode61 remove_diacritics 2');
    QUESTIONS.forEach((q, i) => {
      if (plain[i]! < 0) return;
      expect(stemmed[i], q.id).toBeGreaterThanOrEqual(0);
      expect(stemmed[i], q.id).toBeLessThanOrEqual(plain[i]!);
    });
    expect(plain.filter((r) => r >= 0).length).toBeGreaterThan(QUESTIONS.length / 2);
  });
});
