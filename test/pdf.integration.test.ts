import { describe, expect, it } from 'vitest';
import type { AnswerResult } from '../shared/answer';
import { runDoctor } from '../electron/core/db/health';
import { getRun } from '../electron/core/db/runs';
import { useEngineFixture } from './support/engine-fixture';
import { makePdf, truncatedPdf, type PdfSpec } from './support/pdf';

/**
 * PDFs end to end through the engine and the Ollama stand-in: pages carried from the reader into
 * chunks, search results, the prompt and the answer's citations; the PDFs Quire cannot read
 * reported each with its own reason while the rest of the folder is indexed.
 */

// Each page is its own section (a heading set large) and long enough not to share a chunk, so a
// passage, and a citation, falls on one page.
const filler = (topic: string) =>
  Array.from({ length: 9 }, (_, i) => `Paragraph ${i + 1} on ${topic} repeats general remarks about maintenance schedules, staffing rotas and weather.`);

const HANDBOOK: PdfSpec = {
  title: 'Lighthouse handbook',
  pages: [
    [{ text: 'Lamp room', size: 18 }, ...filler('the lamp room')],
    [{ text: 'Supplies', size: 18 }, ...filler('supplies')],
    [{ text: 'Fog signals', size: 18 }, 'The fog horn sounds every thirty seconds whenever visibility drops below two nautical miles.', ...filler('fog signals')],
    [{ text: 'Log books', size: 18 }, ...filler('log books')],
  ],
};

const f = useEngineFixture({
  prefix: 'quire-pdf',
  notes: { 'keys.md': '# Deploy keys\n\nThe deploy keys are rotated every 90 days by the platform team.\n' },
});

function writePdfs(): void {
  f.notes.write('handbook.pdf', makePdf(HANDBOOK));
  f.notes.write('locked.pdf', makePdf({ ...HANDBOOK, userPassword: 'keeper' }));
  f.notes.write('cut-off.pdf', truncatedPdf(HANDBOOK));
  f.notes.write('scan.pdf', makePdf({ pages: [[], []] }));
}

async function ask(question: string): Promise<AnswerResult> {
  for await (const e of f.engine.ask({ question, chatModel: 'llama3.2' })) {
    if (e.type === 'done' || e.type === 'error') return e.result;
  }
  throw new Error('the answer stream ended without a result');
}

describe('PDF import', () => {
  it('indexes a readable PDF with pages beside the notes; skips or fails the others, each with its reason', async () => {
    writePdfs();
    const report = await f.engine.importFolder({ path: f.notes.root });
    expect(report.documents).toMatchObject({ added: 2, skipped: 2, failed: 1 });
    expect(report.indexedByType).toEqual({ markdown: 1, pdf: 1 });
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { path: 'locked.pdf', reason: 'password-protected', message: expect.stringMatching(/password/) },
        { path: 'scan.pdf', reason: 'no-text-layer', message: expect.stringMatching(/text layer/) },
      ]),
    );
    expect(report.errors).toEqual([{ path: 'cut-off.pdf', code: 'CORRUPT_FILE', message: expect.stringMatching(/not a readable PDF/) }]);

    const docs = f.db.prepare('SELECT rel_path, status, status_code, reader FROM documents ORDER BY rel_path').all();
    expect(docs).toEqual([
      { rel_path: 'cut-off.pdf', status: 'error', status_code: 'CORRUPT_FILE', reader: 'pdf' },
      { rel_path: 'handbook.pdf', status: 'ready', status_code: null, reader: 'pdf' },
      { rel_path: 'keys.md', status: 'ready', status_code: null, reader: 'markdown' },
      { rel_path: 'locked.pdf', status: 'skipped', status_code: 'PASSWORD_PROTECTED', reader: 'pdf' },
      { rel_path: 'scan.pdf', status: 'skipped', status_code: 'NO_TEXT_LAYER', reader: 'pdf' },
    ]);
    // Every chunk of the PDF knows its pages, one page each here; the note's chunks have none.
    const pages = f.db
      .prepare("SELECT c.heading_path, c.page_start, c.page_end FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path = ? ORDER BY c.ordinal")
      .all('handbook.pdf') as Array<{ heading_path: string; page_start: number; page_end: number }>;
    expect(pages.map((p) => [p.heading_path, p.page_start, p.page_end])).toEqual([
      ['Lighthouse handbook > Lamp room', 1, 1],
      ['Lighthouse handbook > Supplies', 2, 2],
      ['Lighthouse handbook > Fog signals', 3, 3],
      ['Lighthouse handbook > Log books', 4, 4],
    ]);
    expect(f.db.prepare("SELECT count(*) FROM chunks WHERE page_start IS NOT NULL AND id NOT LIKE ?").pluck().get(`${pagesDocId()}#%`)).toBe(0);
    expect(runDoctor(f.db).filter((c) => !c.ok)).toEqual([]);

    // Unchanged bytes that failed are reported again without being read again.
    const again = await f.engine.importFolder({ path: f.notes.root });
    expect(again.documents).toMatchObject({ unchanged: 2, skipped: 2, failed: 1, added: 0 });
    expect(again.skipped.map((s) => s.reason).sort()).toEqual(['no-text-layer', 'password-protected']);
  });

  it('search results carry the pages of the passage and of its hit', async () => {
    writePdfs();
    await f.engine.importFolder({ path: f.notes.root });
    const res = await f.engine.search({ query: 'fog horn visibility nautical miles', k: 3 });
    const top = res.results[0]!;
    expect(top.path).toBe('handbook.pdf');
    expect(top.pages).toEqual([3, 3]);
    expect(top.hit.pages).toEqual([3, 3]);
    // A section running over two pages is a short one, sent whole: its pages are both, each chunk's its own.
    f.notes.write('manual.pdf', makePdf({ title: 'Engine manual', pages: [[{ text: 'Engine room', size: 18 }, ...filler('the engine room')], ['The bilge pump is tested every Tuesday at dawn by the duty keeper.', ...filler('pumps')]] }));
    await f.engine.importFolder({ path: f.notes.root });
    const pump = (await f.engine.search({ query: 'bilge pump tested Tuesday dawn', k: 3 })).results[0]!;
    expect(pump.path).toBe('manual.pdf');
    expect(pump.chunkIds.length).toBeGreaterThan(1);
    expect(pump.pages).toEqual([1, 2]);
    expect(pump.hit.pages![1]).toBe(2);
    expect(pump.chunkSpans!.map((c) => c.pages![0])).toEqual([...pump.chunkSpans!.map((c) => c.pages![0])].sort());
    expect([pump.chunkSpans![0]!.pages![0], pump.chunkSpans!.at(-1)!.pages![1]]).toEqual(pump.pages);
    expect(pump.chunkSpans![pump.chunkIds.indexOf(pump.chunkId)]!.pages).toEqual(pump.hit.pages);
    const note = (await f.engine.search({ query: 'deploy keys rotated', k: 1 })).results[0]!;
    expect(note.path).toBe('keys.md');
    expect(note.pages).toBeNull();
  });

  it('answers with a citation pointing at the PDF page, and tells the model the page', async () => {
    writePdfs();
    await f.engine.importFolder({ path: f.notes.root });
    const result = await ask('How often does the fog horn sound?');
    expect(result.status).toBe('answered');
    expect(result.answer).toMatch(/every thirty seconds/);
    expect(result.citations).toHaveLength(1);
    expect(result.citations[0]).toMatchObject({ path: 'handbook.pdf', pages: [3, 3], check: 'supported' });
    expect(result.sources.find((s) => s.chunkId === result.citations[0]!.chunkId)?.pages).toEqual([3, 3]);
    expect(result.retrieval.find((c) => c.chunkId === result.citations[0]!.chunkId)?.pages).toEqual([3, 3]);
    const prompt = JSON.stringify(f.ollama.calls.last('/api/chat')!.body);
    expect(prompt).toMatch(/path=\\"handbook.pdf\\"[^>]*pages=\\"3\\"/);
    // The stored run gives back the same pages.
    const run = getRun(f.db, result.runId)!;
    expect((JSON.parse(run.citations) as AnswerResult['citations'])[0]!.pages).toEqual([3, 3]);
    // And the source panel's view of the chunk.
    const view = await f.engine.call('getChunk', { chunkId: result.citations[0]!.chunkId });
    expect(view.pages).toEqual([3, 3]);
  });
});

function pagesDocId(): string {
  return f.db.prepare("SELECT id FROM documents WHERE rel_path = 'handbook.pdf'").pluck().get() as string;
}
