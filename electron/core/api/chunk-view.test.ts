import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open';
import { importFolder } from '../ingest/pipeline';
import { chunkView } from './views';

// One short section of several chunks (sent whole as a passage), between two others.
const NOTE = [
  '# Pumps',
  '',
  '## Before',
  '',
  'A section before the one cited.',
  '',
  '## Bilge',
  '',
  ...Array.from({ length: 6 }, (_, i) => `Paragraph ${i} about the bilge pump: ${'it is checked, oiled and run for a minute. '.repeat(3)}\n`),
  '## After',
  '',
  'A section after the one cited.',
  '',
].join('\n');

describe('the source panel\'s view of a cited chunk', () => {
  let dir: string;
  let db: Db;
  let section: Array<{ id: string; text: string; start_line: number; end_line: number }>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-chunk-view-'));
    fs.mkdirSync(path.join(dir, 'notes'));
    fs.writeFileSync(path.join(dir, 'notes', 'pumps.md'), NOTE);
    fs.writeFileSync(path.join(dir, 'notes', 'other.md'), '# Other\n\nAnother note.\n');
    db = openDatabase(path.join(dir, 'quire.db'));
    await importFolder(db, path.join(dir, 'notes'), { embedding: null, chunker: { kind: 'heading', maxTokens: 48 } });
    section = db.prepare("SELECT id, text, start_line, end_line FROM chunks WHERE heading_path LIKE '%Bilge' ORDER BY ordinal").all() as typeof section;
  });
  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the chunks sent with the cited one as its context, not only the chunk either side', () => {
    expect(section.length).toBeGreaterThanOrEqual(5);
    const cited = section[2]!;
    const view = chunkView(db, cited.id, section.map((c) => c.id));
    expect(view.text).toBe(cited.text);
    expect(view.before).toMatchObject({ chunkId: section[0]!.id, lines: [section[0]!.start_line, section[1]!.end_line] });
    const after = section.slice(3);
    expect(view.after).toMatchObject({ chunkId: after[0]!.id, lines: [after[0]!.start_line, after.at(-1)!.end_line] });
    // Each chunk of a run on its own lines, the blank lines between them kept, so numbering holds.
    for (const [run, chunks] of [
      [view.before!, section.slice(0, 2)],
      [view.after!, after],
    ] as const) {
      const lines = run.text.split('\n');
      expect(lines).toHaveLength(run.lines[1] - run.lines[0] + 1);
      // A chunk's text is on its lines (a line split between two chunks holds both halves).
      for (const c of chunks) expect(lines.slice(c.start_line - run.lines[0], c.end_line - run.lines[0] + 1).join('\n')).toContain(c.text);
    }
  });

  it('the note has blank lines between the section\'s chunks (what the alignment above is about)', () => {
    expect(section.some((c, i) => i > 0 && c.start_line > section[i - 1]!.end_line + 1)).toBe(true);
  });

  it('without the sent chunks (or on a side none was sent), the chunk next to it; a gap ends the run; another note\'s chunks are ignored', () => {
    const cited = section[2]!;
    const alone = chunkView(db, cited.id);
    expect(alone.before?.chunkId).toBe(section[1]!.id);
    expect(alone.after?.chunkId).toBe(section[3]!.id);
    const other = db.prepare("SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = 'other.md'").pluck().all() as string[];
    const gapped = chunkView(db, cited.id, [cited.id, section[3]!.id, section[5]!.id, ...other]);
    expect(gapped.before?.chunkId).toBe(section[1]!.id);
    expect(gapped.before?.text).toBe(section[1]!.text);
    expect(gapped.after).toEqual({ chunkId: section[3]!.id, text: section[3]!.text, lines: [section[3]!.start_line, section[3]!.end_line] });
  });
});
