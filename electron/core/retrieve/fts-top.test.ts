import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCollection } from '../db/collections';
import { deleteDocument, documentIdFor, writeDocumentVersion } from '../db/documents';
import { openDatabase, type Db } from '../db/open';
import { seeded } from '../../../test/support/synthetic-index';
import { ftsTop, orTerms, type FtsTable } from './fts-top';
import { LOOKUP_SQL } from './lexical-rows';
import { scopeParam } from './scope';

// Words drawn with a Zipf skew, as in language: a few are in most chunks, most in a few. Pruning
// pays (and can go wrong) exactly on such a mix.
const VOCAB = Array.from({ length: 400 }, (_, i) => `w${i}`);

function word(random: () => number): string {
  return VOCAB[Math.min(VOCAB.length - 1, Math.floor(1 / (random() + 0.0025)) - 1)]!;
}

/** The reference's JSON array of collection ids as the scope parameter ftsTop takes. */
const asParam = (ids: string | null) => (ids === null ? null : scopeParam({ collectionIds: JSON.parse(ids) as string[] }));

/** Every match scored, as keyword search did before pruning: the reference. */
function reference(db: Db, table: FtsTable, expression: string, limit: number, collections: string | null) {
  const join = table === 'chunks_fts' ? 'JOIN chunks c ON c.rowid = f.rowid JOIN documents d ON d.id = c.document_id' : 'JOIN sections s ON s.rowid = f.rowid JOIN documents d ON d.id = s.document_id';
  return db
    .prepare(
      `SELECT f.rowid AS rowid, -bm25(${table}, 2.0, 1.0) AS score FROM ${table} f ${join}
        WHERE ${table} MATCH ? AND (? IS NULL OR d.collection_id IN (SELECT value FROM json_each(?))) ORDER BY score DESC, f.rowid LIMIT ?`,
    )
    .all(expression, collections, collections, limit) as Array<{ rowid: number; score: number }>;
}

describe('ftsTop: the best rows by bm25 without scoring every match', () => {
  let dir: string;
  let db: Db;
  let collections: string[];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fts-top-'));
    db = openDatabase(path.join(dir, 'quire.db'));
    const random = seeded(3);
    collections = ['/a', '/b'].map((root) => ensureCollection(db, root).id);
    for (let d = 0; d < 300; d++) {
      const collectionId = collections[d % 2]!;
      const relPath = `n${d}.md`;
      const id = documentIdFor(collectionId, relPath);
      const chunks = Array.from({ length: 4 }, (_, o) => {
        const text = Array.from({ length: 8 + Math.floor(random() * 30) }, () => word(random)).join(' ');
        return { ordinal: o, headingPath: `T${d} > ${word(random)} ${word(random)}`, text, tokenCount: 10, startLine: o * 2 + 1, endLine: o * 2 + 1, flags: [] };
      });
      writeDocumentVersion(db, { meta: { id, collectionId, relPath, sourceUri: `file:///${relPath}`, title: `T${d}`, size: 1, mtimeMs: 0, sha256: id, reader: 'markdown', readerVersion: 1, chunker: 't' }, chunks });
    }
  });

  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('returns exactly the rows and scores of scoring every match, pruned or not, in and out of a scope', () => {
    const random = seeded(11);
    let exactPasses = 0;
    let fallbacks = 0;
    for (let q = 0; q < 120; q++) {
      const terms = [...new Set(Array.from({ length: 2 + Math.floor(random() * 8) }, () => word(random)))];
      const expression = terms.map((t) => `"${t}"`).join(' OR ');
      const table: FtsTable = q % 3 === 0 ? 'sections_fts' : 'chunks_fts';
      const limit = [1, 10, 50][q % 3]!;
      const scope = q % 4 === 0 ? JSON.stringify([collections[0]]) : null;
      const got = ftsTop(db, table, expression, limit, {
        weights: [2, 1],
        collections: asParam(scope),
        minPostings: 0,
        commonShare: 0.05,
        cutoffShare: 1,
        onPass: (p) => (p.exact ? exactPasses++ : fallbacks++),
      });
      const want = reference(db, table, expression, limit, scope);
      expect(got.map((r) => r.rowid), expression).toEqual(want.map((r) => r.rowid));
      got.forEach((r, i) => expect(r.score).toBeCloseTo(want[i]!.score, 9));
    }
    // Both paths were taken: pruned passes that proved exact, and ones that had to move the split.
    expect(exactPasses).toBeGreaterThan(20);
    expect(fallbacks).toBeGreaterThan(0);
  });

  it('lets a term above the cutoff score only rows that hold a rarer term, exactly so', () => {
    const random = seeded(17);
    const count = db.prepare('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?').pluck();
    const rows = db.prepare('SELECT max(rowid) FROM chunks').pluck().get() as number;
    const cutoffShare = 0.1;
    let cutApplied = 0;
    for (let q = 0; q < 60; q++) {
      const terms = [...new Set(['w0', ...Array.from({ length: 1 + Math.floor(random() * 6) }, () => word(random))])];
      const expression = terms.map((t) => `"${t}"`).join(' OR ');
      const rare = terms.filter((t) => (count.get(`"${t}"`) as number) <= rows * cutoffShare);
      const limit = [5, 30][q % 2]!;
      const got = ftsTop(db, 'chunks_fts', expression, limit, { weights: [2, 1], collections: null, minPostings: 0, cutoffShare });
      // The reference: every match scored in full, then only rows holding a term below the cutoff.
      let want = reference(db, 'chunks_fts', expression, 1_000_000, null);
      if (rare.length > 0) {
        const eligible = new Set(db.prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?').pluck().all(rare.map((t) => `"${t}"`).join(' OR ')) as number[]);
        if (eligible.size < want.length) cutApplied++;
        want = want.filter((r) => eligible.has(r.rowid));
      }
      want = want.slice(0, limit);
      expect(got.map((r) => r.rowid), expression).toEqual(want.map((r) => r.rowid));
      got.forEach((r, i) => expect(r.score).toBeCloseTo(want[i]!.score, 9));
    }
    // w0 is in most chunks: the cutoff left rows out for many questions (and none for those made only of common terms).
    expect(cutApplied).toBeGreaterThan(10);
  });

  it('scores the common terms in full when no row in reach holds a rarer term (a misspelt word, a scope without it)', () => {
    const rows = db.prepare('SELECT max(rowid) FROM chunks').pluck().get() as number;
    const count = db.prepare('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?').pluck();
    const cutoffShare = 0.1;
    const common = ['w0', 'w1', 'w2'].filter((t) => (count.get(`"${t}"`) as number) > rows * cutoffShare);
    expect(common.length).toBeGreaterThanOrEqual(2);
    // A word no row holds: the question's other words are all it has.
    const typo = [...common, 'zqxv'].map((t) => `"${t}"`).join(' OR ');
    const wantTypo = reference(db, 'chunks_fts', typo, 20, null);
    expect(wantTypo).toHaveLength(20);
    expect(ftsTop(db, 'chunks_fts', typo, 20, { weights: [2, 1], collections: null, minPostings: 0, cutoffShare }).map((r) => r.rowid)).toEqual(wantTypo.map((r) => r.rowid));

    // A rarer word only outside the scope: inside it, the common words still find their rows.
    const other = ensureCollection(db, '/c').id;
    const id = documentIdFor(other, 'only-here.md');
    const chunks = [{ ordinal: 0, headingPath: 'Elsewhere', text: 'qqelsewhere w0 w1', tokenCount: 3, startLine: 1, endLine: 1, flags: [] }];
    writeDocumentVersion(db, { meta: { id, collectionId: other, relPath: 'only-here.md', sourceUri: 'file:///only-here.md', title: 'E', size: 1, mtimeMs: 0, sha256: id, reader: 'markdown', readerVersion: 1, chunker: 't' }, chunks });
    const scoped = [...common, 'qqelsewhere'].map((t) => `"${t}"`).join(' OR ');
    const scope = JSON.stringify([collections[0]]);
    const wantScoped = reference(db, 'chunks_fts', scoped, 20, scope);
    expect(wantScoped).toHaveLength(20);
    expect(ftsTop(db, 'chunks_fts', scoped, 20, { weights: [2, 1], collections: asParam(scope), minPostings: 0, cutoffShare }).map((r) => r.rowid)).toEqual(wantScoped.map((r) => r.rowid));
    // Unscoped, the rarer word's row is there and the cutoff applies as before: only it.
    expect(ftsTop(db, 'chunks_fts', scoped, 20, { weights: [2, 1], collections: null, minPostings: 0, cutoffShare }).map((r) => r.rowid)).toEqual(
      db.prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?').pluck().all('"qqelsewhere"'),
    );
  });

  it('scores every match of anything but a plain OR of terms', () => {
    expect(orTerms('"a" OR "b c"')).toEqual(['"a"', '"b c"']);
    expect(orTerms('"a" AND "b"')).toBeNull();
    expect(orTerms('"a ""b""" OR "c"')).toEqual(['"a ""b"""', '"c"']);
    const want = reference(db, 'chunks_fts', '"w0" AND "w5"', 20, null);
    expect(ftsTop(db, 'chunks_fts', '"w0" AND "w5"', 20, { weights: [2, 1], collections: null, minPostings: 0 }).map((r) => r.rowid)).toEqual(want.map((r) => r.rowid));
  });
});

describe('ftsTop on rows that tie', () => {
  it('returns the rows of scoring every match when many rows score the same, with duplicate terms and phrases, in and out of a scope', () => {
    // The pruned pass keeps only the best `limit` rows of (rare) AND (common): a row of it beyond
    // them comes back through the rare-only query with a partial score, and must stay out, ties included.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fts-ties-'));
    const db = openDatabase(path.join(dir, 'quire.db'));
    try {
      const collections = ['/a', '/b'].map((root) => ensureCollection(db, root).id);
      const random = seeded(5);
      const texts = ['a b c', 'a b', 'a c', 'b c', 'a', 'b', 'c', 'd a', 'd b', 'd', 'a a b', 'c c a'];
      for (let d = 0; d < 400; d++) {
        const collectionId = collections[d % 2]!;
        const relPath = `n${d}.md`;
        const id = documentIdFor(collectionId, relPath);
        const chunk = { ordinal: 0, headingPath: random() < 0.5 ? 'x' : 'a', text: texts[Math.floor(random() * texts.length)]!, tokenCount: 3, startLine: 1, endLine: 1, flags: [] };
        writeDocumentVersion(db, { meta: { id, collectionId, relPath, sourceUri: `file:///${relPath}`, title: 't', size: 1, mtimeMs: 0, sha256: id, reader: 'markdown', readerVersion: 1, chunker: 't' }, chunks: [chunk] });
      }
      let pruned = 0;
      for (const expression of ['"d" OR "a" OR "b"', '"d" OR "c" OR "a" OR "b"', '"a" OR "a" OR "d"', '"d" OR "d" OR "a" OR "b"', '"c" OR "a b"', '"a b" OR "d" OR "a"']) {
        for (const limit of [1, 3, 7, 20, 60]) {
          for (const scope of [null, JSON.stringify([collections[0]])]) {
            for (const commonShare of [0, 0.1, 0.3]) {
              const got = ftsTop(db, 'chunks_fts', expression, limit, { weights: [2, 1], collections: asParam(scope), minPostings: 0, commonShare, cutoffShare: 1, onPass: () => pruned++ });
              expect(got.map((r) => r.rowid), `${expression} ${limit} ${scope} ${commonShare}`).toEqual(reference(db, 'chunks_fts', expression, limit, scope).map((r) => r.rowid));
            }
          }
        }
      }
      expect(pruned).toBeGreaterThan(100);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('keyword search lookups', () => {
  it('seek each candidate by index, never scanning chunks or sections', () => {
    const db = openDatabase(':memory:');
    try {
      for (const [name, sql] of Object.entries(LOOKUP_SQL)) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('[]') as Array<{ detail: string }>).map((r) => r.detail);
        expect(plan.some((d) => /SCAN (c|s|x)\b/.test(d)), `${name}: ${plan.join('; ')}`).toBe(false);
        expect(plan.some((d) => /SEARCH c USING (INTEGER PRIMARY KEY|(COVERING )?INDEX)/.test(d)), `${name}: ${plan.join('; ')}`).toBe(true);
      }
    } finally {
      db.close();
    }
  });
});

describe('ftsTop after the last rows were deleted', () => {
  it('still returns exactly the rows of scoring every match: bm25 counts the deleted rows until a rebuild', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fts-top-churn-'));
    const db = openDatabase(path.join(dir, 'quire.db'));
    try {
      const random = seeded(5);
      const collectionId = ensureCollection(db, '/a').id;
      const write = (d: number) => {
        const relPath = `n${d}.md`;
        const id = documentIdFor(collectionId, relPath);
        const chunks = Array.from({ length: 4 }, (_, o) => {
          const text = Array.from({ length: 8 + Math.floor(random() * 30) }, () => word(random)).join(' ');
          return { ordinal: o, headingPath: `T${d}`, text, tokenCount: 10, startLine: o + 1, endLine: o + 1, flags: [] };
        });
        writeDocumentVersion(db, { meta: { id, collectionId, relPath, sourceUri: `file:///${relPath}`, title: `T${d}`, size: 1, mtimeMs: random(), sha256: `${id}${random()}`, reader: 'markdown', readerVersion: 1, chunker: 't' }, chunks });
      };
      for (let d = 0; d < 100; d++) write(d);
      // The documents written last are deleted (a folder forgotten, under the share that rebuilds):
      // the largest rowid falls while FTS5 still counts their rows.
      for (let d = 40; d < 100; d++) deleteDocument(db, documentIdFor(collectionId, `n${d}.md`));
      expect(db.prepare('SELECT max(rowid) FROM chunks').pluck().get()).toBe(160);
      const q = seeded(23);
      for (let n = 0; n < 80; n++) {
        const terms = [...new Set(Array.from({ length: 2 + Math.floor(q() * 8) }, () => word(q)))];
        const expression = terms.map((t) => `"${t}"`).join(' OR ');
        const got = ftsTop(db, 'chunks_fts', expression, 10, { weights: [2, 1], collections: null, minPostings: 0, commonShare: 0.05, cutoffShare: 1 });
        const want = reference(db, 'chunks_fts', expression, 10, null);
        expect(got.map((r) => r.rowid), expression).toEqual(want.map((r) => r.rowid));
      }
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ftsTop while another connection writes', () => {
  it('reads one snapshot: rows another process deletes between its passes change neither its counts nor its rows', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fts-top-snapshot-'));
    const db = openDatabase(path.join(dir, 'quire.db'));
    const other = openDatabase(path.join(dir, 'quire.db'));
    try {
      const random = seeded(11);
      const collectionId = ensureCollection(db, '/a').id;
      for (let d = 0; d < 300; d++) {
        const relPath = `n${d}.md`;
        const id = documentIdFor(collectionId, relPath);
        const chunks = Array.from({ length: 4 }, (_, o) => {
          const text = Array.from({ length: 8 + Math.floor(random() * 30) }, () => word(random)).join(' ');
          return { ordinal: o, headingPath: `T${d}`, text, tokenCount: 10, startLine: o + 1, endLine: o + 1, flags: [] };
        });
        writeDocumentVersion(db, { meta: { id, collectionId, relPath, sourceUri: `file:///${relPath}`, title: `T${d}`, size: 1, mtimeMs: 0, sha256: id, reader: 'markdown', readerVersion: 1, chunker: 't' }, chunks });
      }
      const documentOf = db.prepare('SELECT document_id FROM chunks WHERE rowid = ?').pluck();
      const q = seeded(29);
      let passes = 0;
      let outside = 0;
      for (let n = 0; n < 120; n++) {
        const terms = [...new Set(Array.from({ length: 3 + Math.floor(q() * 8) }, () => word(q)))];
        const expression = terms.map((t) => `"${t}"`).join(' OR ');
        const want = reference(db, 'chunks_fts', expression, 10, null);
        let first = true;
        const got = ftsTop(db, 'chunks_fts', expression, 10, {
          weights: [2, 1],
          collections: null,
          minPostings: 0,
          commonShare: 0.01,
          cutoffShare: 1,
          onPass: () => {
            passes++;
            if (!db.inTransaction) outside++;
            if (!first) return;
            first = false;
            // Another process deletes the document of the best row while this search is under way.
            const doc = want[0] && (documentOf.get(want[0].rowid) as string | undefined);
            if (doc) deleteDocument(other, doc);
          },
        });
        expect(got.map((r) => r.rowid), expression).toEqual(want.map((r) => r.rowid));
      }
      expect(passes).toBeGreaterThan(20);
      expect(outside).toBe(0);
    } finally {
      other.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
