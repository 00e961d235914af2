import type { Statement } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { NotesFolder, tempDbPath } from '../../../test/support/notes';
import { openDatabase, type Db } from '../db/open';
import { importFolder } from './pipeline';

/** Every statement the connection runs from now on, by its SQL (statements are prepared through db.prepare). */
function countStatements(db: Db): Map<string, number> {
  const runs = new Map<string, number>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const s = prepare(sql) as Statement;
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      const original = s[method].bind(s) as (...args: unknown[]) => unknown;
      (s as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        runs.set(sql, (runs.get(sql) ?? 0) + 1);
        return original(...args);
      };
    }
    return s;
  }) as Db['prepare'];
  return runs;
}

describe('re-scanning an unchanged folder', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => cleanup.splice(0).forEach((f) => f()));

  /** Statements run by a re-scan of `files` unchanged notes. */
  async function rescanStatements(files: number): Promise<{ total: number; unchanged: number }> {
    const notes = new NotesFolder('quire-rescan-');
    const dbFile = tempDbPath();
    cleanup.push(() => notes.dispose(), () => dbFile.dispose());
    for (let i = 0; i < files; i++) notes.write(`d${i % 3}/n${i}.md`, `# Note ${i}\n\nAbout the heron number ${i}.\n`);
    const first = openDatabase(dbFile.file);
    await importFolder(first, notes.root, { embedding: null });
    first.close();
    const db = openDatabase(dbFile.file);
    try {
      const runs = countStatements(db);
      const report = await importFolder(db, notes.root, { embedding: null });
      return { total: [...runs.values()].reduce((a, b) => a + b, 0), unchanged: report.documents.unchanged };
    } finally {
      db.close();
    }
  }

  it('runs the same few statements for 10 files as for 60: none per file', async () => {
    const small = await rescanStatements(10);
    const large = await rescanStatements(60);
    expect(small.unchanged).toBe(10);
    expect(large.unchanged).toBe(60);
    expect(large.total).toBe(small.total);
    expect(large.total).toBeLessThan(20);
  });
});
