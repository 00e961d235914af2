import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open';
import { importFolder } from '../ingest/pipeline';
import { toMatchExpression } from './fts-query';
import { lexicalSearch } from './lexical';
import { toPassages } from './passages';
import { search } from './search';

// A chapter whose topic is named in its heading and first paragraph while the detail a person asks
// about sits in the next chunk, sharing none of the question's words; and a page that shares two
// of them in passing, the way many pages of a real folder do.
const CHAPTER = [
  '# Integers',
  '',
  '## Integer Overflow',
  '',
  'Integer overflow happens when a u8 variable goes over 255, the largest value that type can hold. What Rust does then depends on how the program was compiled.',
  '',
  'Rust then performs two’s complement wrapping in optimised code: 256 becomes 0 and 257 becomes 1. The program keeps running with a value nobody expected.',
  '',
  'In debug mode the compiler adds checks that make the program panic at runtime, so the mistake shows itself the first time the code runs with such a value.',
  '',
  'Those checks cost time on every arithmetic operation, so the compiler leaves them out of code that is meant to be shipped to people.',
  '',
  'The standard library offers explicit methods for each behaviour you might want, such as wrapping_add, checked_add, overflowing_add and saturating_add.',
  '',
  '## Floating Point',
  '',
  'Floats are f32 and f64 and follow IEEE 754 for every operation they support, including the special values for infinity and not a number.',
  '',
].join('\n');
const OTHER = ['# Builds', '', 'A release build goes in target/release and takes longer to compile.', ''].join('\n');

describe('keyword search with sections and passages', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-retrieval-'));
    fs.mkdirSync(path.join(dir, 'notes'));
    fs.writeFileSync(path.join(dir, 'notes', 'integers.md'), CHAPTER);
    fs.writeFileSync(path.join(dir, 'notes', 'builds.md'), OTHER);
    // No headings: the whole diary is one section, many chunks long.
    const days = Array.from({ length: 20 }, (_, i) => `Day ${i + 1}. We walked along the river and wrote down the birds, the weather and the trains we saw that morning.`);
    days[0] += ' A kangaroo crossed the road.';
    days[19] += ' A wombat slept by the gate.';
    fs.writeFileSync(path.join(dir, 'notes', 'diary.txt'), days.join('\n\n'));
    db = openDatabase(path.join(dir, 'quire.db'));
    await importFolder(db, path.join(dir, 'notes'), { embedding: null, chunker: { kind: 'heading', maxTokens: 64 } });
  });
  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const chunkOf = (needle: string) => db.prepare("SELECT rowid FROM chunks WHERE text LIKE '%' || ? || '%'").pluck().get(needle) as number;

  it('writes one section per run of chunks under a heading, indexed whole', () => {
    const sections = db.prepare('SELECT heading_path, first_ordinal, last_ordinal FROM sections ORDER BY document_id, first_ordinal').all() as Array<{ heading_path: string; first_ordinal: number; last_ordinal: number }>;
    const overflow = sections.find((s) => s.heading_path.endsWith('Integer Overflow'))!;
    expect(overflow.last_ordinal - overflow.first_ordinal).toBeGreaterThanOrEqual(3);
    // The section's own index finds words that no single chunk of it has together.
    const hit = db.prepare("SELECT count(*) FROM sections_fts WHERE sections_fts MATCH 'wrapping AND shipped AND u8'").pluck().get();
    expect(hit).toBe(1);
  });

  it("finds the detail through its section and neighbours, though the chunk itself has none of the question's words", () => {
    const question = 'what happens when a u8 goes over 255 in a release build';
    const wrap = chunkOf('two’s complement wrapping');
    // Chunk by chunk, keywords alone cannot see it.
    const direct = db.prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?').pluck().all(toMatchExpression(question));
    expect(direct.length).toBeGreaterThan(0);
    expect(direct).not.toContain(wrap);
    const ranked = lexicalSearch(db, question, 10);
    const at = ranked.findIndex((r) => r.rowid === wrap);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(5);
  });

  it('a chunk that matches nothing is a candidate only beside one that does, in its section', () => {
    const ranked = lexicalSearch(db, 'u8 255', 50).map((r) => r.rowid);
    expect(ranked).toContain(chunkOf('two’s complement wrapping'));
    // Three chunks from the match, in the same section: not a candidate.
    expect(ranked).not.toContain(chunkOf('explicit methods'));
    expect(ranked).not.toContain(chunkOf('IEEE 754'));
  });

  it('a long document without headings is one section, yet only its matching chunks and their neighbours are ranked', () => {
    const diary = db.prepare("SELECT c.rowid, c.text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = 'diary.txt' ORDER BY c.ordinal").all() as Array<{ rowid: number; text: string }>;
    expect(diary.length).toBeGreaterThan(6);
    const ranked = new Set(lexicalSearch(db, 'kangaroo wombat', 50).map((r) => r.rowid));
    const fromDiary = diary.filter((c) => ranked.has(c.rowid));
    const matching = diary.filter((c) => /kangaroo|wombat/.test(c.text));
    expect(matching.length).toBe(2);
    // The two matches and at most one neighbour each: never the days in between.
    expect(fromDiary.length).toBeLessThanOrEqual(4);
    for (const m of matching) expect(ranked.has(m.rowid)).toBe(true);
  });

  it('grows a passage in a long section from its hit, toward a neighbour that matched (else before), within the bound; never into the next section, never a chunk twice', () => {
    const wrap = chunkOf('two’s complement wrapping');
    const before = chunkOf('u8 variable goes over 255');
    const after = chunkOf('compiler adds checks');
    const floats = chunkOf('IEEE 754');
    const size = (...rowids: number[]) => rowids.reduce((n, r) => n + (db.prepare('SELECT token_count FROM chunks WHERE rowid = ?').pluck().get(r) as number), 0);
    // A bound of exactly three chunks: the hit and one chunk either side.
    const three = size(before, wrap, after);
    const passages = toPassages(db, [wrap, after, floats], 10, { passageTokens: three });
    expect(passages[0]).toEqual({ rowid: wrap, rowids: [before, wrap, after] });
    // `after` is already sent inside the first passage; floats opens its own section, alone there
    // (its section is longer than the bound, and the chunk before it is another section's).
    expect(passages.map((p) => p.rowid)).toEqual([wrap, floats]);
    expect(passages[1]!.rowids[0]).toBe(floats);
    // One token less and the chunk before comes first: the topic's words precede its detail.
    expect(toPassages(db, [wrap], 1, { passageTokens: three - 1 })[0]!.rowids).toEqual([before, wrap]);
    // Toward a neighbour that matched too, when there is one: `after` ranks, `before` does not.
    expect(toPassages(db, [wrap, after], 1, { passageTokens: size(wrap, after) })[0]!.rowids).toEqual([wrap, after]);
    expect(toPassages(db, [wrap, floats, after], 1, { passageTokens: size(wrap, after) })[0]!.rowids).toEqual([wrap, after]);
    // A bound below the hit's own size still sends the hit, alone.
    expect(toPassages(db, [wrap], 1, { passageTokens: 1 })[0]!.rowids).toEqual([wrap]);
  });

  it('sends a hit in a short section with its whole section, in order, and never a chunk of it twice', () => {
    const section = db
      .prepare("SELECT c.rowid FROM chunks c JOIN sections s ON s.document_id = c.document_id AND c.ordinal BETWEEN s.first_ordinal AND s.last_ordinal WHERE s.heading_path LIKE '%Integer Overflow' ORDER BY c.ordinal")
      .pluck()
      .all() as number[];
    expect(section.length).toBeGreaterThan(3);
    const tokens = db.prepare(`SELECT sum(token_count) FROM chunks WHERE rowid IN (${section.join(',')})`).pluck().get() as number;
    const wrap = chunkOf('two’s complement wrapping');
    const last = chunkOf('wrapping_add, checked_add');
    const floats = chunkOf('IEEE 754');
    const passages = toPassages(db, [wrap, last, floats], 10, { passageTokens: tokens });
    expect(passages[0]).toEqual({ rowid: wrap, rowids: section });
    // The section's last chunk was in the first passage; the next section is a passage of its own.
    expect(passages.map((p) => p.rowid)).toEqual([wrap, floats]);
    // One token smaller a bound, and the section is too long to send whole: a run of it around the
    // hit, within the bound.
    const part = toPassages(db, [wrap], 1, { passageTokens: tokens - 1 })[0]!.rowids;
    expect(part).toContain(wrap);
    expect(part.length).toBeLessThan(section.length);
    expect(section.join(',')).toContain(part.join(','));
    expect(db.prepare(`SELECT sum(token_count) FROM chunks WHERE rowid IN (${part.join(',')})`).pluck().get()).toBeLessThanOrEqual(tokens - 1);
  });

  it('search returns passages: text, lines and chunk ids span the joined chunks', async () => {
    const res = await search(db, 'two’s complement wrapping', { gateway: null, mode: 'lexical', k: 3 });
    const top = res.results[0]!;
    expect(top.text).toContain('two’s complement wrapping');
    // The section is short: it is the passage, from its heading's first chunk to its last.
    const section = db
      .prepare("SELECT c.id FROM chunks c JOIN sections s ON s.document_id = c.document_id AND c.ordinal BETWEEN s.first_ordinal AND s.last_ordinal WHERE s.heading_path LIKE '%Integer Overflow' ORDER BY c.ordinal")
      .pluck()
      .all() as string[];
    expect(top.chunkIds).toEqual(section);
    expect(top.chunkIds.indexOf(top.chunkId)).toBeGreaterThan(0);
    expect(top.text).toContain('compiler adds checks');
    expect(top.text).toContain('saturating_add');
    expect(top.lines[1]).toBeGreaterThan(top.lines[0]);
    // The hit is marked inside the passage: its own text and lines.
    expect(top.text.slice(top.hit.start, top.hit.end)).toMatch(/^Rust then performs two’s complement wrapping/);
    expect(top.hit.lines[0]).toBeGreaterThan(top.lines[0]);
    expect(top.hit.lines[1]).toBeLessThan(top.lines[1]);
    // Each chunk's place in the passage: its own text, lines and pages, in order (the budget narrows by them).
    const stored = top.chunkIds.map((id) => db.prepare('SELECT text, start_line, end_line FROM chunks WHERE id = ?').get(id) as { text: string; start_line: number; end_line: number });
    expect(top.chunkSpans!.map((c) => top.text.slice(c.start, c.end))).toEqual(stored.map((c) => c.text));
    expect(top.chunkSpans!.map((c) => c.lines)).toEqual(stored.map((c) => [c.start_line, c.end_line]));
    expect(top.chunkSpans!.map((c) => c.pages)).toEqual(stored.map(() => null));
    expect(top.chunkSpans![top.chunkIds.indexOf(top.chunkId)]).toMatchObject({ start: top.hit.start, end: top.hit.end, lines: top.hit.lines });
  });
});
