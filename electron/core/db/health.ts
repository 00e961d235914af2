import fs from 'node:fs';
import { SETTINGS } from '../../../shared/settings';
import { bitTableName, denseIndexStatus, getQuantization, rescoreTableName, type DenseIndexStatus } from './bit-vectors';
import { getActiveEmbeddingModel, listEmbeddingModels, type EmbeddingModelRow } from './embedding-models';
import { STALE_CLAIM_MS } from './keyword-index-build';
import { dueForRebuild, keywordIndexChurn } from './keyword-statistics';
import { schemaVersion } from './migrate';
import { folderOfSql, sectionOfChunk } from './sections';
import type { Db } from './open';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** Whole, but something a person should know (`quire doctor` prints WARN and still exits 0). */
  warning?: boolean;
}

/**
 * Verifies the index is whole: SQLite's and FTS5's own integrity checks, every committed document
 * has exactly the chunks it was committed with, every chunk is in the full-text index and in a
 * section (itself indexed), a keyword index rebuild under way holds what it should, and each
 * model's table holds exactly the vectors of the documents recorded as embedded with it.
 */
export function runDoctor(db: Db): Check[] {
  const checks: Check[] = [];
  const one = (sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number;

  const integrity = db.pragma('integrity_check', { simple: false }) as Array<{ integrity_check: string }>;
  const integrityOk = integrity.length === 1 && integrity[0]?.integrity_check === 'ok';
  checks.push({ name: 'sqlite integrity_check', ok: integrityOk, detail: integrityOk ? 'ok' : integrity.map((r) => r.integrity_check).slice(0, 5).join('; ') });

  const fk = db.pragma('foreign_key_check') as unknown[];
  checks.push({ name: 'foreign keys', ok: fk.length === 0, detail: fk.length === 0 ? 'ok' : `${fk.length} rows point at nothing` });

  try {
    // The index's own structure. chunks_fts is contentless (migration 0013), so whether it holds
    // every chunk is the rowid comparison below, not this check.
    db.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)").run();
    checks.push({ name: 'fts5 integrity-check', ok: true, detail: 'ok' });
  } catch (e) {
    checks.push({ name: 'fts5 integrity-check', ok: false, detail: (e as Error).message });
  }

  // Both indexes are contentless, so nothing but these rowids ties a full-text row to its chunk or
  // section: equal counts can hide a row for nothing standing in for a missing one.
  const unmatched = (table: 'chunks' | 'sections') => {
    const missing = one(`SELECT count(*) FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM ${table}_fts_docsize f WHERE f.id = t.rowid)`);
    const stale = one(`SELECT count(*) FROM ${table}_fts_docsize f WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.rowid = f.id)`);
    const said = missing + stale > 0 ? `, ${missing} without a full-text row, ${stale} full-text ${stale === 1 ? 'row' : 'rows'} for nothing` : '';
    return { ok: missing + stale === 0, said };
  };

  const chunks = one('SELECT count(*) FROM chunks');
  const ftsRows = one('SELECT count(*) FROM chunks_fts_docsize');
  const chunkRows = unmatched('chunks');
  checks.push({ name: 'chunks = full-text rows', ok: chunks === ftsRows && chunkRows.ok, detail: `${chunks} chunks, ${ftsRows} full-text rows${chunkRows.said}` });

  const sections = one('SELECT count(*) FROM sections');
  const sectionRows = one('SELECT count(*) FROM sections_fts_docsize');
  const sectionMatch = unmatched('sections');
  const uncovered = one(
    `SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM sections s WHERE ${sectionOfChunk('c')})`,
  );
  checks.push({
    name: 'sections cover every chunk',
    ok: sections === sectionRows && sectionMatch.ok && uncovered === 0,
    detail: `${sections} sections, ${sectionRows} section full-text rows${sectionMatch.said}${uncovered > 0 ? `, ${uncovered} chunks in no section` : ''}`,
  });

  const rebuild = rebuildCheck(db);
  if (rebuild) checks.push(rebuild);
  const statistics = statisticsCheck(db);
  if (statistics) checks.push(statistics);

  checks.push(folderWordsCheck(db));

  const partial = db
    .prepare(
      `SELECT d.rel_path FROM documents d
        WHERE d.chunk_count != (SELECT count(*) FROM chunks c WHERE c.document_id = d.id)
           OR (d.chunk_count > 0 AND (SELECT max(ordinal) FROM chunks c WHERE c.document_id = d.id) != d.chunk_count - 1)`,
    )
    .pluck()
    .all() as string[];
  checks.push({
    name: 'documents complete',
    ok: partial.length === 0,
    detail: partial.length === 0 ? `${one('SELECT count(*) FROM documents')} documents, each with all its chunks` : `incomplete: ${partial.slice(0, 5).join(', ')}`,
  });

  const active = getActiveEmbeddingModel(db);
  for (const model of listEmbeddingModels(db)) {
    const { expected, actual, orphans } = vectorCounts(db, model);
    const ok = expected === actual && orphans === 0;
    checks.push({
      name: `vectors of ${model.name}${model.id === active?.id ? ' (active)' : ''}`,
      ok,
      detail: `${actual} vectors for ${expected} chunks of embedded documents${orphans > 0 ? `, ${orphans} belong to no chunk` : ''}`,
    });
    // Once built, the sign bits for two-stage search follow every write of the float vectors.
    if (getQuantization(db, model.id)?.bitsReady) {
      const bits = db.prepare(`SELECT count(*) FROM ${bitTableName(model)}`).pluck().get() as number;
      const copies = db.prepare(`SELECT count(*) FROM ${rescoreTableName(model)}`).pluck().get() as number;
      checks.push({ name: `sign bits of ${model.name}`, ok: bits === actual && copies === actual, detail: `${bits} bit vectors and ${copies} rescoring copies for ${actual} vectors` });
    }
  }
  return checks;
}

/**
 * A keyword index rebuild under way (db/keyword-index-build.ts) is swapped in as it stands, so its
 * shadow is held to the same rowid comparison as the live index: every row of the table at or
 * below the cursor, and nothing else. Null when no build is under way.
 */
function rebuildCheck(db: Db): Check | null {
  if (!db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'keyword_index_builds'").get()) return null;
  const builds = db.prepare('SELECT fts, cursor FROM keyword_index_builds ORDER BY fts').all() as Array<{ fts: 'chunks_fts' | 'sections_fts'; cursor: number }>;
  if (builds.length === 0) return null;
  const one = (sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number;
  let ok = true;
  const said = builds.map(({ fts, cursor }) => {
    const table = fts === 'chunks_fts' ? 'chunks' : 'sections';
    const docsize = `${fts}_next_docsize`;
    if (!db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').get(docsize)) {
      ok = false;
      return `${fts}: its shadow table is missing`;
    }
    const missing = one(`SELECT count(*) FROM ${table} t WHERE t.rowid <= ? AND NOT EXISTS (SELECT 1 FROM ${docsize} f WHERE f.id = t.rowid)`, cursor);
    const stale = one(`SELECT count(*) FROM ${docsize} f WHERE f.id > ? OR NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.rowid = f.id)`, cursor);
    if (missing + stale > 0) ok = false;
    const copied = one(`SELECT count(*) FROM ${docsize}`);
    const total = one(`SELECT count(*) FROM ${table}`);
    return `${fts}: ${copied} of ${total} rows copied${missing + stale > 0 ? `, ${missing} without a shadow row, ${stale} shadow ${stale === 1 ? 'row' : 'rows'} for nothing` : ''}`;
  });
  return { name: 'keyword index rebuild', ok, detail: said.join('; ') };
}

/**
 * Keyword search's statistics still counting deleted rows past the share that makes a rebuild due
 * (db/keyword-statistics.ts). Nothing is missing, so it is a warning, not a failure: an import or a
 * forget rebuilds them as it ends (in the app, just after), so one due for long means that rebuild
 * failed (a full disk) or was held off, and bm25 ranks with drifted statistics meanwhile.
 */
function statisticsCheck(db: Db): Check | null {
  if (!db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'keyword_index_churn'").get()) return null;
  const due = new Set(dueForRebuild(db));
  const churn = keywordIndexChurn(db);
  const said = churn.map((c) => `${c.fts}: ${c.deleted} deleted ${c.deleted === 1 ? 'row' : 'rows'} still counted beside ${c.rows}${due.has(c.fts) ? ' (rebuild due)' : ''}`);
  if (due.size === 0) return { name: 'keyword statistics', ok: true, detail: said.join('; ') };
  const building = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'keyword_index_builds'").get() ? (db.prepare('SELECT heartbeat FROM keyword_index_builds').pluck().all() as number[]) : [];
  const last = building.length > 0 ? Math.round((Date.now() - Math.max(...building)) / 1000) : null;
  const state =
    last === null
      ? 'not rebuilt yet: the next import or forget, or the app as it starts, tries again'
      : // A heartbeat of 0: its Quire gave the build up as it closed (keyword-index-build.ts releaseClaims).
        Math.max(...building) === 0
        ? 'a rebuild was stopped partway as Quire closed: the next import or forget, or the app as it starts, carries it on'
        : `a rebuild is under way, its last batch ${last} s ago${last * 1000 >= STALE_CLAIM_MS ? ' (stopped: the next import or forget, or the app as it starts, carries it on)' : ''}`;
  return { name: 'keyword statistics', ok: true, warning: true, detail: `${said.join('; ')}; ${state}. Keyword search ranks with drifted statistics meanwhile.` };
}

/**
 * The folder column (migration 0013) is written from the document's path when a row is written, and
 * nothing compares it later: per word of a folder, the rows each index says hold it against the
 * chunks and sections whose document's folder has it now. Folders are split by the indexes' own
 * tokenizer (a temporary table), and the indexes' vocabularies are read by column (fts5vocab).
 */
function folderWordsCheck(db: Db): Check {
  const folderOf = folderOfSql('d.rel_path');
  const tokenizer = (db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'chunks_fts'").pluck().get() as string).match(/tokenize\s*=\s*('[^']*')/)?.[1] ?? "'unicode61'";
  try {
    db.exec(`CREATE VIRTUAL TABLE temp.doctor_folders USING fts5(folder, tokenize = ${tokenizer});
             CREATE VIRTUAL TABLE temp.doctor_folder_words USING fts5vocab(temp, doctor_folders, instance);
             CREATE VIRTUAL TABLE temp.doctor_chunk_words USING fts5vocab(main, chunks_fts, col);
             CREATE VIRTUAL TABLE temp.doctor_section_words USING fts5vocab(main, sections_fts, col);`);
    const want = new Map<string, number>();
    const insert = db.prepare('INSERT INTO temp.doctor_folders (rowid, folder) VALUES (?, ?)');
    const counted = db
      .prepare(
        `SELECT ${folderOf} AS folder, (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) + (SELECT count(*) FROM sections s WHERE s.document_id = d.id) AS n
           FROM documents d WHERE d.rel_path LIKE '%/%'`,
      )
      .all() as Array<{ folder: string; n: number }>;
    const rows = new Map<string, number>();
    for (const c of counted) rows.set(c.folder, (rows.get(c.folder) ?? 0) + c.n);
    [...rows.keys()].forEach((folder, i) => insert.run(i + 1, folder));
    const byFolder = [...rows.values()];
    for (const w of db.prepare('SELECT DISTINCT doc, term FROM temp.doctor_folder_words').all() as Array<{ doc: number; term: string }>) {
      want.set(w.term, (want.get(w.term) ?? 0) + byFolder[w.doc - 1]!);
    }
    const have = new Map<string, number>();
    for (const table of ['doctor_chunk_words', 'doctor_section_words']) {
      for (const w of db.prepare(`SELECT term, doc FROM temp.${table} WHERE col = 'folder'`).all() as Array<{ term: string; doc: number }>) {
        have.set(w.term, (have.get(w.term) ?? 0) + w.doc);
      }
    }
    const off = [...new Set([...want.keys(), ...have.keys()])].filter((t) => (want.get(t) ?? 0) !== (have.get(t) ?? 0)).sort();
    const said = off.slice(0, 3).map((t) => `“${t}” in ${have.get(t) ?? 0} rows, ${want.get(t) ?? 0} expected`).join('; ');
    return { name: 'folder words follow the documents', ok: off.length === 0, detail: off.length === 0 ? `${want.size} folder words` : `${off.length} folder words out of step: ${said}` };
  } catch (e) {
    return { name: 'folder words follow the documents', ok: false, detail: (e as Error).message };
  } finally {
    db.exec('DROP TABLE IF EXISTS temp.doctor_folder_words; DROP TABLE IF EXISTS temp.doctor_folders; DROP TABLE IF EXISTS temp.doctor_chunk_words; DROP TABLE IF EXISTS temp.doctor_section_words;');
  }
}

function vectorCounts(db: Db, model: EmbeddingModelRow): { expected: number; actual: number; orphans: number } {
  const expected = db
    .prepare('SELECT count(*) FROM chunks c JOIN document_embeddings e ON e.document_id = c.document_id WHERE e.model_id = ?')
    .pluck()
    .get(model.id) as number;
  const actual = db.prepare(`SELECT count(*) FROM ${model.tableName}`).pluck().get() as number;
  const orphans = db
    .prepare(
      `SELECT count(*) FROM ${model.tableName} v
        WHERE NOT EXISTS (SELECT 1 FROM chunks c JOIN document_embeddings e ON e.document_id = c.document_id AND e.model_id = ? WHERE c.rowid = v.rowid)`,
    )
    .pluck()
    .get(model.id) as number;
  return { expected, actual, orphans };
}

export interface IndexStatus {
  schemaVersion: number;
  sizeBytes: number | null;
  collections: Array<{ id: string; root: string; name: string; documents: number }>;
  documents: { ready: number; needsEmbedding: number; skipped: number; error: number; total: number };
  chunks: number;
  activeModel: { name: string; digest: string; dimension: number; vectors: number; dense: DenseIndexStatus } | null;
  models: Array<{ name: string; digest: string; dimension: number; vectors: number }>;
  /** The first FAILED_LISTED documents that failed, by folder and path, with why: a count alone sends people re-importing to find them. */
  failed: Array<{ folder: string; path: string; code: string | null; message: string | null }>;
}

/** How many failed documents a status names; the Library lists them all. */
export const FAILED_LISTED = 10;

export function indexStatus(db: Db, file?: string, quantizeAbove: number = SETTINGS.denseQuantizeAbove.fallback): IndexStatus {
  const active = getActiveEmbeddingModel(db);
  const count = (sql: string, ...p: unknown[]) => db.prepare(sql).pluck().get(...p) as number;
  const listed = listEmbeddingModels(db);
  // Polled while imports run (target p95 < 100 ms at 100k chunks): one pass over documents, without
  // a sort, gives the counts by status, the documents still lacking the active model's vectors (as
  // countDocumentsMissingVectors) and each model's vector count (as storedVectorCount), where a query
  // each (and count(*) of each vec0 table) scanned them again. A LEFT JOIN per model on
  // document_embeddings' key is one probe per document; an EXISTS used twice was evaluated twice.
  const activeAt = listed.findIndex((m) => m.id === active?.id);
  const tally = db
    .prepare(
      `SELECT count(*) AS total, coalesce(sum(d.status = 'ready'), 0) AS ready, coalesce(sum(d.status = 'skipped'), 0) AS skipped,
              coalesce(sum(d.status = 'error'), 0) AS error,
              coalesce(sum(d.status = 'ready' AND d.chunk_count > 0${activeAt >= 0 ? ` AND e${activeAt}.model_id IS NULL` : ''}), 0) AS missing
              ${listed.map((_, i) => `, coalesce(sum(CASE WHEN e${i}.model_id IS NOT NULL THEN d.chunk_count END), 0) AS v${i}`).join('')}
         FROM documents d
         ${listed.map((m, i) => `LEFT JOIN document_embeddings e${i} ON e${i}.document_id = d.id AND e${i}.model_id = ${Number(m.id)}`).join('\n')}`,
    )
    .get() as { total: number; ready: number; skipped: number; error: number; missing: number } & Record<string, number>;
  const needs = tally.missing;
  const models = listed.map((m, i) => ({ name: m.name, digest: m.digest, dimension: m.dimension, vectors: tally[`v${i}`]!, id: m.id }));
  const activeRow = models.find((m) => m.id === active?.id);
  let sizeBytes: number | null = null;
  if (file && file !== ':memory:') {
    sizeBytes = ['', '-wal'].reduce((n, suffix) => n + (fs.existsSync(file + suffix) ? fs.statSync(file + suffix).size : 0), 0);
  }
  return {
    schemaVersion: schemaVersion(db),
    sizeBytes,
    collections: (db.prepare('SELECT c.id, c.root, coalesce(c.name, c.root) AS name, (SELECT count(*) FROM documents d WHERE d.collection_id = c.id) AS documents FROM collections c ORDER BY c.root').all() as IndexStatus['collections']),
    documents: { ready: tally.ready - needs, needsEmbedding: needs, skipped: tally.skipped, error: tally.error, total: tally.total },
    chunks: count('SELECT count(*) FROM chunks'),
    activeModel: activeRow && active
      ? { name: activeRow.name, digest: activeRow.digest, dimension: activeRow.dimension, vectors: activeRow.vectors, dense: denseIndexStatus(db, active, activeRow.vectors, quantizeAbove) }
      : null,
    models: models.map(({ id: _id, ...m }) => m),
    // Read only when there are any: the count above is polled while imports run.
    failed:
      tally.error > 0
        ? (db
            .prepare(
              `SELECT coalesce(c.name, c.root) AS folder, d.rel_path AS path, d.status_code AS code, d.status_message AS message
                 FROM documents d JOIN collections c ON c.id = d.collection_id WHERE d.status = 'error' ORDER BY folder, path LIMIT ?`,
            )
            .all(FAILED_LISTED) as IndexStatus['failed'])
        : [],
  };
}
