/**
 * The yardstick Quire's keyword search must beat: the 40-line script anyone would write first. Every
 * Markdown/text file is cut into whole heading sections (a heading line to the next, fences
 * respected), each section is one FTS5 row (porter stemmer), and a question's words are OR-ed and
 * ranked by bm25. Nothing is tuned; it is here to be measured against, never shipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface BaselineHit {
  file: string;
  text: string;
}

export function buildBaseline(root: string): { search(question: string, n: number): BaselineHit[]; sections: number; close(): void } {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE sections USING fts5(file UNINDEXED, body, tokenize = 'porter unicode61')");
  const insert = db.prepare('INSERT INTO sections VALUES (?, ?)');
  const add = (file: string, lines: string[]) => {
    if (lines.join('').trim() !== '') insert.run(file, lines.join('\n'));
  };
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(md|markdown|txt)$/i.test(entry.name)) {
        const file = path.relative(root, full).split(path.sep).join('/');
        let section: string[] = [];
        let fenced = false;
        for (const line of fs.readFileSync(full, 'utf8').split('\n')) {
          if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
          if (!fenced && /^\s{0,3}#{1,6}\s/.test(line)) {
            add(file, section);
            section = [];
          }
          section.push(line);
        }
        add(file, section);
      }
    }
  };
  db.transaction(() => walk(root))();
  const query = db.prepare('SELECT file, body AS text FROM sections WHERE sections MATCH ? ORDER BY bm25(sections) LIMIT ?');
  return {
    sections: db.prepare('SELECT count(*) FROM sections').pluck().get() as number,
    search(question, n) {
      const words = [...new Set(question.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])];
      if (words.length === 0) return [];
      return query.all(words.map((w) => `"${w}"`).join(' OR '), n) as BaselineHit[];
    },
    close: () => db.close(),
  };
}
