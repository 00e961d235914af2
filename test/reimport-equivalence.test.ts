import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetCollection, listCollections } from '../electron/core/db/collections';
import { getActiveEmbeddingModel } from '../electron/core/db/embedding-models';
import { buildBatch, buildOf, startBuild } from '../electron/core/db/keyword-index-build';
import { refreshKeywordStatistics } from '../electron/core/db/keyword-statistics';
import { openDatabase, type Db } from '../electron/core/db/open';
import { DEFAULT_CHUNKER, type ChunkerConfig } from '../electron/core/ingest/chunkers/types';
import { EmbeddingSession } from '../electron/core/ingest/embedding-session';
import { importFolder } from '../electron/core/ingest/pipeline';
import { OllamaGateway } from '../electron/core/ollama/gateway';
import { seededPicks, type SeededPicks } from './support/synthetic-index';
import { NotesFolder } from './support/notes';
import { startStandin, type Standin } from './support/ollama-standin/server';

/**
 * A folder people keep editing, imported after each round of edits, must leave exactly the index
 * one import of the final folder builds: the same documents, chunks, sections, full-text postings,
 * bm25 statistics and vectors, and nothing of a note that is gone (a stale chunk would be quoted, a
 * lost one never found). Each seed is a different sequence of adds, edits, renames, moves, copies,
 * deletions and saves that change nothing; a failure names the seed and the first table to differ.
 */

let standin: Standin;
let gateway: OllamaGateway;

beforeAll(async () => {
  standin = await startStandin();
  gateway = new OllamaGateway({ host: standin.url, retries: 0, backoffMs: 1 });
});
afterAll(async () => {
  await standin?.close();
});


const CHUNKERS: readonly ChunkerConfig[] = [DEFAULT_CHUNKER, { kind: 'heading', maxTokens: 64 }, { kind: 'recursive', chunkSize: 96, overlap: 16 }];

const WORDS = 'deploy key rotate bread dough rise garden tomato water bicycle chain oil tax receipt guitar string tune server backup disk cron schedule invoice vendor portal kettle recipe oven flour yeast meeting budget decision'.split(' ');

function note(r: SeededPicks): string {
  const sentence = () => `${Array.from({ length: 6 + r.int(10) }, () => r.pick(WORDS)).join(' ')}.`;
  const paragraph = () => Array.from({ length: 1 + r.int(6) }, sentence).join(' ');
  const parts = [`# ${r.pick(WORDS)} ${r.pick(WORDS)}`, paragraph()];
  for (let s = r.int(4); s > 0; s--) {
    parts.push(`${'#'.repeat(2 + r.int(2))} ${r.pick(WORDS)} ${r.pick(WORDS)}`);
    for (let p = 1 + r.int(4); p > 0; p--) parts.push(r.next() < 0.2 ? `\`\`\`sh\n${r.pick(WORDS)} --${r.pick(WORDS)}\n\`\`\`` : paragraph());
  }
  return `${parts.join('\n\n')}\n`;
}

/** One round of the edits a person makes between two imports; returns the paths it touched, as a watcher reports them. */
function edit(notes: NotesFolder, files: Map<string, string>, r: SeededPicks): string[] {
  const touched = new Set<string>();
  const names = () => [...files.keys()];
  const put = (rel: string, text: string) => {
    notes.write(rel, text);
    files.set(rel, text);
    touched.add(rel);
  };
  const drop = (rel: string) => {
    notes.remove(rel);
    files.delete(rel);
    touched.add(rel);
  };
  for (let n = 1 + r.int(4); n > 0; n--) {
    const op = files.size === 0 ? 'add' : r.pick(['add', 'edit', 'edit', 'append', 'rename', 'move', 'copy', 'delete', 'resave', 'broken', 'text', 'swap', 'empty', 'retitle'] as const);
    const rel = files.size > 0 ? r.pick(names()) : '';
    const text = files.get(rel) ?? '';
    switch (op) {
      case 'add':
        put(`${r.pick(['', 'work/', 'home/', 'work/old/'])}n${r.int(1000)}.md`, note(r));
        break;
      case 'edit': {
        // Replace one paragraph: the chunks before it keep their text, those after it may move.
        const paras = text.split('\n\n');
        paras[r.int(paras.length)] = note(r).split('\n\n')[1]!;
        put(rel, `${paras.join('\n\n').trimEnd()}\n`);
        break;
      }
      case 'append':
        put(rel, `${text}\n## ${r.pick(WORDS)} added\n\n${note(r).split('\n\n')[1]}\n`);
        break;
      case 'rename':
      case 'move': {
        const to = op === 'rename' ? rel.replace(/[^/]+$/, `r${r.int(1000)}.md`) : `${r.pick(['work/', 'home/', 'archive/'])}${rel.split('/').pop()}`;
        if (to === rel) break;
        drop(rel);
        put(to, text);
        break;
      }
      case 'copy':
        put(`copies/${rel.split('/').pop()}`, text);
        break;
      case 'delete':
        drop(rel);
        break;
      case 'swap': {
        // Two notes trade names: each file's bytes are the other's document now.
        const other = r.pick(names());
        if (other === rel) break;
        const theirs = files.get(other)!;
        put(other, text);
        put(rel, theirs);
        break;
      }
      case 'empty':
        put(rel, '');
        break;
      case 'retitle':
        put(rel, text.replace(/^# .*$/m, `# ${r.pick(WORDS)} renamed`));
        break;
      case 'broken':
        // A file that cannot be read: recorded with its reason, never half indexed.
        put(`attachments/scan${r.int(100)}.pdf`, `%PDF-1.7\n${r.pick(WORDS)} not really a pdf\n`);
        break;
      case 'text':
        put(`${r.pick(['', 'home/'])}t${r.int(100)}.txt`, note(r).replace(/^#+ /gm, ''));
        break;
      case 'resave':
        // Saved again unchanged: a new mtime, the same bytes.
        put(rel, text);
        break;
    }
  }
  return [...touched];
}

interface Snapshot {
  documents: string[];
  chunks: string[];
  sections: string[];
  postings: Record<'chunks_fts' | 'sections_fts', string[]>;
  bm25: Record<'chunks_fts' | 'sections_fts', string[]>;
  vectors: string[];
  orphans: number;
}

/** Everything an import leaves that search, answers and citations read, keyed by path and ordinal (rowids differ by history). */
function snapshot(db: Db): Snapshot {
  const all = (sql: string) => db.prepare(sql).all() as Array<Record<string, unknown>>;
  const line = (r: Record<string, unknown>) => Object.values(r).map((v) => (v instanceof Buffer ? v.toString('hex') : String(v))).join(' | ');
  const chunkKey = `d.rel_path || '#' || c.ordinal`;
  const sectionKey = `d.rel_path || '#' || s.first_ordinal`;
  const postings = (table: 'chunks_fts' | 'sections_fts', key: string, join: string) => {
    db.exec(`DROP TABLE IF EXISTS temp.${table}_v; CREATE VIRTUAL TABLE temp.${table}_v USING fts5vocab(main, ${table}, instance)`);
    return all(`SELECT ${key} AS at, v.term, v.col, v.offset FROM temp.${table}_v v ${join.replace('v.rowid', 'v.doc')} ORDER BY at, v.col, v.offset, v.term`).map(line);
  };
  const bm25 = (table: 'chunks_fts' | 'sections_fts', key: string, join: string) =>
    all(`SELECT ${key} AS at, printf('%.9f', bm25(${table}, 2, 1, 1)) AS s FROM ${table} v ${join} WHERE ${table} MATCH '${WORDS.join(' OR ')}' ORDER BY at`).map(line);
  const chunkJoin = 'JOIN chunks c ON c.rowid = v.rowid JOIN documents d ON d.id = c.document_id';
  const sectionJoin = 'JOIN sections s ON s.rowid = v.rowid JOIN documents d ON d.id = s.document_id';
  const model = getActiveEmbeddingModel(db);
  return {
    documents: all('SELECT rel_path, title, size, sha256, reader, reader_version, chunker, chunk_count, status FROM documents ORDER BY rel_path').map(line),
    chunks: all(`SELECT ${chunkKey} AS at, c.heading_path, c.text, c.token_count, c.start_line, c.end_line, c.flags FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY at`).map(line),
    sections: all(`SELECT ${sectionKey} AS at, s.last_ordinal, s.heading_path FROM sections s JOIN documents d ON d.id = s.document_id ORDER BY at`).map(line),
    postings: { chunks_fts: postings('chunks_fts', chunkKey, chunkJoin), sections_fts: postings('sections_fts', sectionKey, sectionJoin) },
    bm25: { chunks_fts: bm25('chunks_fts', chunkKey, chunkJoin), sections_fts: bm25('sections_fts', sectionKey, sectionJoin) },
    vectors: model
      ? all(`SELECT ${chunkKey} AS at, v.embedding FROM ${model.tableName} v JOIN chunks c ON c.rowid = v.rowid JOIN documents d ON d.id = c.document_id ORDER BY at`).map(line)
      : [],
    // Vectors of chunks that no longer exist: read by nothing, but a sign a deletion missed a table.
    orphans: model ? (db.prepare(`SELECT count(*) FROM ${model.tableName} WHERE rowid NOT IN (SELECT rowid FROM chunks)`).pluck().get() as number) : 0,
  };
}

/** More sequences than `npm test` runs, when looking for trouble: QUIRE_REIMPORT_SEEDS=500 npx vitest run test/reimport-equivalence.test.ts */
const SEEDS = Number(process.env.QUIRE_REIMPORT_SEEDS ?? 24);

describe('a folder edited between imports', () => {
  it('a renamed note titled by its file name is embedded again under its new title', async () => {
    const notes = new NotesFolder('quire-reimport-rename-');
    const [db, fresh] = [openDatabase(':memory:'), openDatabase(':memory:')];
    try {
      const embedding = { gateway, model: 'embeddinggemma' };
      const body = 'Water the tomatoes every second morning. The kettle descaler is under the sink.\n';
      notes.write('untitled.md', body);
      await importFolder(db, notes.root, { embedding });
      notes.remove('untitled.md');
      notes.write('garden-chores.md', body);
      const report = await importFolder(db, notes.root, { embedding });
      expect(report.documents.moved).toBe(1);
      await importFolder(fresh, notes.root, { embedding });
      const [edited, once] = [snapshot(db), snapshot(fresh)];
      expect(once.chunks.join('\n')).toContain('garden-chores');
      expect(edited.chunks).toEqual(once.chunks);
      expect(once.vectors).toHaveLength(1);
      expect(edited.vectors).toEqual(once.vectors);
    } finally {
      db.close();
      fresh.close();
      notes.dispose();
    }
  });

  it.each([1, 2, 3, 4])('a folder forgotten beside one kept leaves the kept one as its own import would (seed %i)', async (seed) => {
    const r = seededPicks(1000 + seed);
    const kept = new NotesFolder(`quire-reimport-kept-${seed}-`);
    const gone = new NotesFolder(`quire-reimport-gone-${seed}-`);
    const [db, fresh] = [openDatabase(':memory:'), openDatabase(':memory:')];
    try {
      const embedding = { gateway, model: 'embeddinggemma' };
      const folders = [
        { notes: kept, files: new Map<string, string>() },
        { notes: gone, files: new Map<string, string>() },
      ];
      for (const f of folders) {
        for (let i = 0; i < 6; i++) {
          f.files.set(`n${i}.md`, note(r));
          f.notes.write(`n${i}.md`, f.files.get(`n${i}.md`)!);
        }
      }
      for (let round = 0; round < 4; round++) {
        for (const f of folders) {
          if (round > 0) edit(f.notes, f.files, r);
          await importFolder(db, f.notes.root, { embedding });
        }
      }
      const forgotten = listCollections(db).find((c) => c.root === gone.root)!;
      forgetCollection(db, forgotten);
      await refreshKeywordStatistics(db, 0);
      await importFolder(fresh, kept.root, { embedding });
      expect(listCollections(db).map((c) => c.root)).toEqual([kept.root]);
      const [left, once] = [snapshot(db), snapshot(fresh)];
      expect(once.chunks.length).toBeGreaterThan(0);
      expect(left).toEqual(once);
    } finally {
      db.close();
      fresh.close();
      kept.dispose();
      gone.dispose();
    }
  });

  it('a renamed note imported without embedding (import --no-embed) is embedded by the next embed run as by a fresh import', async () => {
    const notes = new NotesFolder('quire-reimport-noembed-');
    const [db, fresh] = [openDatabase(':memory:'), openDatabase(':memory:')];
    try {
      const embedding = { gateway, model: 'embeddinggemma' };
      const body = 'The bicycle chain wants oil after rain. Spare tubes are in the shed.\n';
      notes.write('untitled.md', body);
      notes.write('kept.md', '# Kept\n\nThe oven takes twenty minutes to heat.\n');
      await importFolder(db, notes.root, { embedding });
      notes.remove('untitled.md');
      notes.write('bike-care.md', body);
      expect((await importFolder(db, notes.root, { embedding: null })).documents.moved).toBe(1);
      expect(snapshot(db).vectors).toHaveLength(1); // the kept note's only
      expect(await new EmbeddingSession(db, embedding).embedMissing()).toBe(1);
      await importFolder(fresh, notes.root, { embedding });
      expect(snapshot(db)).toEqual(snapshot(fresh));
    } finally {
      db.close();
      fresh.close();
      notes.dispose();
    }
  });

  /**
   * Three ways the edits reach the index, by seed: a whole-folder import after each round (the CLI,
   * a rescan); an import of only the paths a round touched (what a watcher reports); a whole-folder
   * import cancelled partway through some rounds (the app quit, Cancel pressed), the next one
   * finishing the job.
   */
  const HOW = ['whole folder', 'only the touched paths', 'cancelled partway'] as const;
  it.each(Array.from({ length: SEEDS }, (_, i) => ({ seed: i + 1, how: HOW[i % HOW.length]! })))('indexes as one import of its final state (seed $seed, $how)', async ({ seed, how }) => {
    const r = seededPicks(seed);
    const notes = new NotesFolder(`quire-reimport-${seed}-`);
    const dbs: Db[] = [];
    try {
      const files = new Map<string, string>();
      for (let i = 0; i < 8; i++) {
        const rel = `${r.pick(['', 'work/', 'home/'])}n${i}.md`;
        files.set(rel, note(r));
        notes.write(rel, files.get(rel)!);
      }
      const db = openDatabase(':memory:');
      dbs.push(db);
      const embedding = { gateway, model: 'embeddinggemma' };
      await importFolder(db, notes.root, { embedding });
      let cancelled = 0;
      // Now and then the chunk settings change, and every document is cut again on the next whole-folder import.
      let chunker: ChunkerConfig = DEFAULT_CHUNKER;
      for (let round = 0; round < 6; round++) {
        // Now and then a keyword index rebuild is under way, a few batches in, while the round's
        // import writes (db/keyword-index-build.ts): its shadow must end as the index those writes leave.
        if (r.next() < 0.4) {
          for (const fts of ['chunks_fts', 'sections_fts'] as const) {
            if (!buildOf(db, fts)) db.transaction(() => startBuild(db, fts)).immediate();
            for (let b = r.int(4); b > 0; b--) buildBatch(db, fts, 1 + r.int(6));
          }
        }
        const touched = edit(notes, files, r);
        const recut = r.next() < 0.15;
        if (recut) chunker = r.pick(CHUNKERS);
        if (how === 'only the touched paths' && !recut) await importFolder(db, notes.root, { embedding, chunker, only: touched });
        else if (how === 'cancelled partway' && r.next() < 0.6) {
          const controller = new AbortController();
          let steps = 1 + r.int(6);
          const report = await importFolder(db, notes.root, { embedding, chunker, signal: controller.signal, onProgress: () => void (--steps === 0 && controller.abort()) });
          if (report.cancelled) cancelled++;
        } else await importFolder(db, notes.root, { embedding, chunker });
      }
      if (how === 'cancelled partway') await importFolder(db, notes.root, { embedding, chunker });
      if (how === 'cancelled partway' && seed <= HOW.length * 3) expect(cancelled).toBeGreaterThan(0);
      const fresh = openDatabase(':memory:');
      dbs.push(fresh);
      await importFolder(fresh, notes.root, { embedding, chunker });
      // What every row holds, before a rebuild from the stored rows could hide a row the triggers
      // or a shadow swapped in got wrong.
      expect(snapshot(db).postings).toEqual(snapshot(fresh).postings);
      // The statistics are rebuilt once deletions reach a tenth of the rows (db/keyword-statistics.ts):
      // up to then bm25's totals still count them, by design. Rebuilt here, they must equal a fresh index's.
      await refreshKeywordStatistics(db, 0);
      const [edited, once] = [snapshot(db), snapshot(fresh)];
      expect(once.documents).toHaveLength(files.size);
      expect(once.vectors).toHaveLength(once.chunks.length);
      expect(once.bm25.chunks_fts.length).toBeGreaterThan(0);
      expect(edited).toEqual(once);
      expect(edited.orphans).toBe(0);
    } finally {
      for (const db of dbs) db.close();
      notes.dispose();
    }
  });
});
