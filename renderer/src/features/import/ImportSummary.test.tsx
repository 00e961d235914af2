import { extensionList } from '../../../../shared/document-types';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ImportReport } from '../../common/types';
import { ImportSummary } from './ImportSummary';
import { groupSkipped } from './skip-groups';

const skipped: ImportReport['skipped'] = [
  ...Array.from({ length: 23 }, (_, i) => ({ path: `img/icon-${String(i).padStart(2, '0')}.svg`, reason: 'unsupported-type' as const })),
  ...Array.from({ length: 5 }, (_, i) => ({ path: `photos/p${i}.PNG`, reason: 'unsupported-type' as const })),
  { path: 'data/export.zip', reason: 'unsupported-type' },
  { path: 'Makefile', reason: 'unsupported-type' },
  { path: 'big.md', reason: 'too-large', message: '30 MB' },
  { path: 'huge.txt', reason: 'too-large', message: '40 MB' },
];

/** A finished import of three notes with nothing skipped or failed; each test changes what it is about. */
const reportWith = (over: Partial<Omit<ImportReport, 'documents'>> & { documents?: Partial<ImportReport['documents']> } = {}): ImportReport => ({
  collection: { id: 'c1', root: '/home/me/notes' },
  indexedByType: { markdown: 3 },
  warnings: [],
  notices: [],
  chunks: 9,
  embedded: 9,
  embedRequests: 1,
  errors: [],
  skipped: [],
  embedding: { model: 'embeddinggemma', status: 'ok' },
  cancelled: false,
  ms: 900,
  ...over,
  documents: { added: 3, updated: 0, unchanged: 0, moved: 0, deleted: 0, skipped: 0, failed: 0, ...over.documents },
});

describe('skipped files in an import summary', () => {
  it('groups them by reason and kind, largest first, with extensions by count', () => {
    const groups = groupSkipped(skipped);
    expect(groups.map((g) => [g.title, g.reason, g.paths.length])).toEqual([
      ['28 images (.svg 23, .png 5)', 'unsupported-type', 28],
      ['2 files (.md 1, .txt 1)', 'too-large', 2],
      ['1 archive (.zip 1)', 'unsupported-type', 1],
      ['1 file (no extension 1)', 'unsupported-type', 1],
    ]);
    expect(groups[0]!.why).toMatch(/^not a note format/);
  });

  it('shows one line per group with its file list one click away', () => {
    const report = reportWith({ documents: { skipped: skipped.length }, skipped });
    render(<ImportSummary report={report} />);
    const groups = within(screen.getByTestId('skip-groups')).getAllByRole('group');
    expect(groups).toHaveLength(4);
    const images = groups[0]!;
    expect(images.querySelector('summary')!.textContent).toBe(`28 images (.svg 23, .png 5) — not a note format Quire reads (${extensionList(',')})`);
    expect(images.hasAttribute('open')).toBe(false);
    fireEvent.click(images.querySelector('summary')!);
    expect(images.hasAttribute('open')).toBe(true);
    expect(images.querySelectorAll('li')).toHaveLength(28);
    expect(images.textContent).toContain('photos/p4.PNG');
  });
});

describe('failed files in an import summary', () => {
  it('come first, under their own heading, not under "Skipped"', () => {
    const report = reportWith({
      documents: { skipped: skipped.length, failed: 1 },
      errors: [{ path: 'rust-book/broken.pdf', code: 'CORRUPT_FILE', message: 'Invalid PDF structure.' }],
      skipped,
    });
    render(<ImportSummary report={report} />);
    const headings = screen.getAllByRole('heading', { level: 4 }).map((h) => h.textContent);
    expect(headings).toEqual(['Failed', 'Skipped']);
    const failed = screen.getByRole('heading', { name: 'Failed' });
    // What follows the heading, up to the next one, holds the failed file.
    expect(failed.nextElementSibling?.textContent).toContain('rust-book/broken.pdf');
    expect(failed.nextElementSibling?.textContent).not.toContain('icon-00.svg');
  });
});

describe('a warning after the import', () => {
  it('shows the import as finished, and the warning beside it', () => {
    const message = "Keyword search's statistics could not be rebuilt after this import: the disk is full [SQLITE_FULL].";
    const report = reportWith({ documents: { added: 0, unchanged: 3, deleted: 2 }, warnings: [{ code: 'WRITE_FAILED', message }], chunks: 0, embedded: 0, embedRequests: 0 });
    render(<ImportSummary report={report} />);
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Import finished');
    expect(screen.getByTestId('import-warning').textContent).toBe(message);
  });
});

describe('a file read in a guessed encoding', () => {
  it('is counted as added and listed with the encoding it was read in, apart from failures', () => {
    const report = reportWith({
      collection: { id: 'c1', root: '/home/me/notas' },
      documents: { added: 2 },
      indexedByType: { markdown: 2 },
      notices: [{ path: 'viejas/receta.md', code: 'GUESSED_ENCODING', message: 'Not UTF-8: read as windows-1252, the encoding its bytes point to. If its text looks wrong in a source (letters replaced by other signs), re-save it as UTF-8.', encoding: 'windows-1252' }],
      chunks: 4,
      embedded: 0,
      embedRequests: 0,
    });
    render(<ImportSummary report={report} />);
    const notes = screen.getByTestId('import-notices');
    expect(notes.textContent).toContain('viejas/receta.md');
    expect(notes.textContent).toContain('windows-1252');
    expect(screen.queryByRole('heading', { name: 'Failed' })).toBeNull();
  });
});

describe('counts of one', () => {
  it('say "1 chunk written", not "1 chunks"', () => {
    render(<ImportSummary report={reportWith({ documents: { added: 1 }, chunks: 1, embedded: 1 })} />);
    expect(screen.getByText('chunk written', { exact: false }).textContent).toMatch(/^1 chunk written/);
  });
});
