import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Output } from '../../../../shared/contract';
import { DocumentTable } from './DocumentTable';

type Doc = Output<'library'>['collections'][number]['documents'][number];

const doc = (relPath: string, type: Doc['type']): Doc => ({ id: relPath, relPath, title: null, type, status: 'ready', statusCode: null, statusMessage: null, chunks: 1, ingestedAt: '2026-03-01T10:00:00Z' });

describe('the document table', () => {
  it("shows each document's type, and none for a type this version does not know", () => {
    render(<DocumentTable documents={[doc('a.md', 'markdown'), doc('b.txt', 'text'), doc('c.pdf', 'pdf'), doc('d.docx', 'docx'), doc('e.html', 'html'), doc('f.epub', null)]} pending={[{ relPath: 'g.md', queuedAt: '2026-03-02T09:00:00Z' }]} />);
    const table = screen.getByRole('table');
    const column = within(table).getAllByRole('columnheader').findIndex((h) => h.textContent === 'Type');
    expect(column).toBeGreaterThan(-1);
    const types = Object.fromEntries(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => [row.querySelector('.mono')!.textContent, within(row).getAllByRole('cell')[column]!.textContent]),
    );
    expect(types).toEqual({ 'a.md': 'Markdown', 'b.txt': 'Text', 'c.pdf': 'PDF', 'd.docx': 'Word', 'e.html': 'HTML', 'f.epub': '', 'g.md': '' });
  });
});

describe('a folder with a failed file among many', () => {
  it('offers to show only the files with a problem, each with its reason, so one failure is not lost among hundreds', () => {
    const failed: Doc = { ...doc('rust-book/broken.pdf', 'pdf'), status: 'error', statusCode: 'CORRUPT_FILE', statusMessage: 'The file is not a readable PDF.', chunks: 0 };
    const docs = [...Array.from({ length: 40 }, (_, i) => doc(`notes/n${String(i).padStart(2, '0')}.md`, 'markdown')), failed];
    render(<DocumentTable documents={docs} />);
    const only = screen.getByRole('checkbox', { name: 'Only files with a problem (1)' });
    expect(screen.getAllByRole('row')).toHaveLength(42);
    fireEvent.click(only);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('.mono')!.textContent)).toEqual(['rust-book/broken.pdf']);
    expect(rows[0]!.textContent).toContain('The file is not a readable PDF.');
    fireEvent.click(only);
    expect(screen.getAllByRole('row')).toHaveLength(42);
  });

  it('offers no such filter when every file is fine', () => {
    render(<DocumentTable documents={[doc('a.md', 'markdown'), doc('b.md', 'markdown')]} />);
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});

describe('changes waiting to be imported', () => {
  // The engine sends only the changes that are rows (db/import-queue.ts waitingChanges), not the folders or pictures a watcher also reported.
  it('lists a new note as queued and flags a changed one', () => {
    const at = '2026-03-02T09:00:00Z';
    const pending = ['food/bread.md', 'garden/Plan.MD'].map((relPath) => ({ relPath, queuedAt: at }));
    render(<DocumentTable documents={[doc('food/bread.md', 'markdown'), doc('ops/keys.md', 'markdown')]} pending={pending} />);
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('.mono')!.textContent)).toEqual(['garden/Plan.MD', 'food/bread.md', 'ops/keys.md']);
    expect(within(rows[0]!).getByText('queued')).toBeTruthy();
    // The known note the watcher saw change keeps its row, marked as waiting.
    expect(within(rows[1]!).getByText('changed')).toBeTruthy();
  });

  it('says how many more are waiting than the rows it was sent', () => {
    const pending = [{ relPath: 'new.md', queuedAt: '2026-03-02T09:00:00Z' }];
    render(<DocumentTable documents={[doc('a.md', 'markdown')]} pending={pending} waiting={251} />);
    expect(screen.getByTestId('more-waiting').textContent).toBe('250 more changes waiting, not listed here.');
  });

  it('says nothing more when every change is a row', () => {
    render(<DocumentTable documents={[doc('a.md', 'markdown')]} pending={[{ relPath: 'new.md', queuedAt: '2026-03-02T09:00:00Z' }]} waiting={1} />);
    expect(screen.queryByTestId('more-waiting')).toBeNull();
  });
});
