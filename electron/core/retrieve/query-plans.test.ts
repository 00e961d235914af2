import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gaussian, normalise, seeded, syntheticModel, writeSyntheticDocument } from '../../../test/support/synthetic-index';
import { bitTableName, missingBitsSql, rescoreTableName, resetBits, toBuildSql } from '../db/bit-vectors';
import type { EmbeddingModelRow } from '../db/embedding-models';
import { openDatabase, type Db } from '../db/open';
import { coarseSql, knnSql, rescoreSql } from './dense';
import { LOOKUP_SQL } from './lexical-rows';
import { toPassages } from './passages';
import { maintainQuantization } from './quantization';
import { PASSAGE_CHUNKS, search } from './search';

/**
 * The hot SQL of dense search and of result assembly uses the indexes meant for it: never a scan
 * of chunks, documents, sections or collections, only of the small lists passed in (json_each) and
 * vec0's own KNN. And assembling results costs the same number of statements however many there are.
 */
describe('query plans and statement counts', () => {
  let db: Db;
  let model: EmbeddingModelRow;
  const params = { query: Buffer.alloc(64), k: 10, scope: '[{"c":"c","p":"work/","e":"work0"}]', candidates: '[1,2]', limit: 10, rowids: '[1,2]' };
  // Named parameters, or the one JSON array the lookups (lexical-rows.ts) take.
  const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(sql.includes('?') ? '[1,2]' : params) as Array<{ detail: string }>).map((r) => r.detail);
  const noTableScan = (details: string[]) => expect(details.filter((d) => /^SCAN (c|d|s|sd|x|col|chunks|documents|sections|collections)\b/.test(d))).toEqual([]);

  beforeAll(() => {
    db = openDatabase(':memory:');
    model = syntheticModel(db, 'plans', 16);
    const g = gaussian(seeded(5));
    for (let d = 0; d < 30; d++) {
      const chunks = Array.from({ length: 6 }, (_, i) => `note ${d} line ${i} about ${i % 2 ? 'tar archives' : 'git branches'}`);
      writeSyntheticDocument(db, d % 2 ? '/a' : '/b', { relPath: `n${d}.md`, chunks, vectors: chunks.map(() => normalise(Float32Array.from({ length: 16 }, g))) }, model);
    }
    resetBits(db, model, new Float32Array(16), 180);
  });
  afterAll(() => db.close());

  it('exact KNN: a vec0 KNN plan, the scope applied inside it through the collection and chunk indexes', () => {
    expect(plan(knnSql(model.tableName, false))).toEqual([expect.stringMatching(new RegExp(`^SCAN ${model.tableName} VIRTUAL TABLE INDEX 0:3`)), 'USE TEMP B-TREE FOR ORDER BY']);
    const details = plan(knnSql(model.tableName, true));
    // 3 is vec0's KNN plan; '[' marks the rowid IN (…) constraint it applies while scanning.
    expect(details[0]).toMatch(new RegExp(`^SCAN ${model.tableName} VIRTUAL TABLE INDEX 0:3.*\\[`));
    // The scope's documents found once, each part a range of the (collection, path) index.
    expect(details).toContain('SEARCH sd USING INDEX sqlite_autoindex_documents_2 (collection_id=? AND rel_path>?)');
    expect(details).toContain('SEARCH c USING COVERING INDEX sqlite_autoindex_chunks_2 (document_id=?)');
    noTableScan(details);
  });

  it("the coarse pass scans only the compact bits table, or reads the scope's bits by rowid", () => {
    expect(plan(coarseSql(bitTableName(model), false))).toEqual(['SCAN b', 'USE TEMP B-TREE FOR ORDER BY']);
    const scoped = plan(coarseSql(bitTableName(model), true));
    expect(scoped).toContain('SEARCH sd USING INDEX sqlite_autoindex_documents_2 (collection_id=? AND rel_path>?)');
    expect(scoped).toContain('SEARCH c USING COVERING INDEX sqlite_autoindex_chunks_2 (document_id=?)');
    expect(scoped).toContain('SEARCH b USING INTEGER PRIMARY KEY (rowid=?)');
    noTableScan(scoped);
  });

  it('rescoring reads each candidate by rowid from the plain table', () => {
    const details = plan(rescoreSql(rescoreTableName(model)));
    expect(details).toEqual(['SCAN j VIRTUAL TABLE INDEX 1:', 'SEARCH v USING INTEGER PRIMARY KEY (rowid=?)', 'USE TEMP B-TREE FOR ORDER BY']);
  });

  it("result assembly: hits' positions, their neighbours and their passages' chunks, each by key", () => {
    const positions = plan(LOOKUP_SQL.positions);
    expect(positions).toContain('SEARCH c USING INTEGER PRIMARY KEY (rowid=?)');
    expect(positions).toContain('SEARCH x USING COVERING INDEX sqlite_autoindex_sections_1 (document_id=? AND first_ordinal<?)');
    noTableScan(positions);
    expect(plan(LOOKUP_SQL.rowidsAt)).toEqual(['SCAN j VIRTUAL TABLE INDEX 1:', 'SEARCH c USING COVERING INDEX sqlite_autoindex_chunks_2 (document_id=? AND ordinal=?)']);
    expect(plan(LOOKUP_SQL.windows)).toEqual(['SCAN j VIRTUAL TABLE INDEX 1:', 'SEARCH c USING INDEX sqlite_autoindex_chunks_2 (document_id=? AND ordinal>? AND ordinal<?)']);
    expect(plan(PASSAGE_CHUNKS)).toEqual([
      'SCAN j VIRTUAL TABLE INDEX 1:',
      'SEARCH c USING INTEGER PRIMARY KEY (rowid=?)',
      'SEARCH d USING INDEX sqlite_autoindex_documents_1 (id=?)',
      'SEARCH col USING INDEX sqlite_autoindex_collections_1 (id=?)',
    ]);
  });

  it('assembling results runs as many statements for 20 passages as for 2 (no query per hit)', async () => {
    const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<'get' | 'all' | 'run' | 'iterate', (...a: unknown[]) => unknown>;
    const counted = (['get', 'all', 'run', 'iterate'] as const).map((m) => vi.spyOn(statement, m));
    const executions = async (k: number) => {
      for (const c of counted) c.mockClear();
      const r = await search(db, 'tar archives git branches note', { mode: 'lexical', gateway: null, k });
      return { statements: counted.reduce((n, c) => n + c.mock.calls.length, 0), passages: r.results.length };
    };
    try {
      const few = await executions(2);
      const many = await executions(20);
      expect(few.passages).toBe(2);
      expect(many.passages).toBeGreaterThan(5);
      expect(many.statements).toBe(few.statements);
      // And toPassages alone: three statements (positions, section sizes, the chunks around them) whatever the number of hits.
      const rowids = db.prepare('SELECT rowid FROM chunks ORDER BY rowid LIMIT 40').pluck().all() as number[];
      for (const c of counted) c.mockClear();
      expect(toPassages(db, rowids, 40, { passageTokens: 0 }).length).toBeGreaterThan(10);
      expect(counted.reduce((n, c) => n + c.mock.calls.length, 0)).toBe(3);
    } finally {
      for (const c of counted) c.mockRestore();
    }
  });

  it('the bits build walks chunks by rowid range with point lookups in both vector tables', async () => {
    const fresh = openDatabase(':memory:');
    try {
      const m = syntheticModel(fresh, 'plans', 16);
      writeSyntheticDocument(fresh, '/a', { relPath: 'a.md', chunks: ['x', 'y'], vectors: [normalise(new Float32Array(16).fill(1)), normalise(new Float32Array(16).fill(-1))] }, m);
      await maintainQuantization(fresh, m, { quantizeAbove: 100 }); // under the threshold: nothing built
      resetBits(fresh, m, new Float32Array(16), 2);
      const details = (fresh.prepare(`EXPLAIN QUERY PLAN ${toBuildSql(m)}`).all(0, 10) as Array<{ detail: string }>).map((r) => r.detail);
      expect(details).toContain('SEARCH c USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)');
      expect(details).toContainEqual(expect.stringMatching(new RegExp(`^SCAN v VIRTUAL TABLE INDEX \\d+:2`))); // vec0's point lookup
      expect(details).toContain('SEARCH r USING INTEGER PRIMARY KEY (rowid=?)');
    } finally {
      fresh.close();
    }
  });

  it('the completeness check before bits are marked ready probes chunks by document and the copy by rowid', () => {
    const details = (db.prepare(`EXPLAIN QUERY PLAN ${missingBitsSql(model)}`).all(model.id) as Array<{ detail: string }>).map((r) => r.detail);
    expect(details.filter((d) => /^SCAN (c|r)\b/.test(d))).toEqual([]);
    expect(details).toContain('SEARCH r USING INTEGER PRIMARY KEY (rowid=?)');
    expect(details).toContain('SEARCH c USING COVERING INDEX sqlite_autoindex_chunks_2 (document_id=?)');
  });
});
