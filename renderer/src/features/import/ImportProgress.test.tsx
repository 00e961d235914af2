import { extensionList } from '../../../../shared/document-types';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../shared/contract';
import { useImportJob } from './import-job';
import type { ImportProgress as Progress, ImportReport } from '../../common/types';
import { renderWithFake } from '../../test/harness';
import { ImportPanel } from './ImportPanel';
import { ImportProgress } from './ImportProgress';

const fact = (name: string) => document.querySelector(`[data-fact="${name}"]`)!.textContent;

const progress = (over: Partial<Progress> = {}): Progress => ({
  phase: 'indexing',
  filesDone: 120,
  filesTotal: 480,
  chunks: 1234,
  bytesDone: 2_500_000,
  bytesTotal: 10_000_000,
  currentFile: 'journal/2024-05.md',
  ...over,
});

function Harness() {
  const job = useImportJob();
  return <ImportPanel job={job} />;
}

const report: ImportReport = {
  collection: { id: 'c1', root: '/home/me/notes' },
  documents: { added: 3, updated: 1, unchanged: 10, moved: 0, deleted: 2, skipped: 2, failed: 1 },
  indexedByType: { markdown: 12, pdf: 1, html: 1 },
  warnings: [],
  notices: [],
  chunks: 42,
  embedded: 0,
  embedRequests: 0,
  errors: [{ path: 'photo.md', code: 'BINARY_FILE', message: 'The file contains NUL bytes.' }],
  skipped: [
    { path: 'scan.tiff', reason: 'unsupported-type' },
    { path: 'huge.txt', reason: 'too-large', message: '12 MB' },
  ],
  embedding: { model: 'embeddinggemma', status: 'unavailable', error: { code: 'OLLAMA_UNREACHABLE', message: 'connect ECONNREFUSED' } },
  cancelled: false,
  ms: 1500,
};

describe('import progress', () => {
  it('shows files, chunks, current file, elapsed and the remaining time estimated from bytes', () => {
    render(<ImportProgress progress={progress()} elapsedMs={10_000} onCancel={() => {}} />);
    expect(fact('files')).toBe('120 of 480');
    expect(fact('chunks')).toBe('1,234');
    expect(fact('bytes')).toBe('2.5 MB of 10 MB');
    expect(fact('elapsed')).toBe('10 s');
    // A quarter of the bytes in 10 s: three quarters left take about 30 s.
    expect(fact('remaining')).toBe('about 30 s');
    expect(screen.getByText('Now: journal/2024-05.md')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('120');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuemax')).toBe('480');
  });

  it('says it is estimating before any bytes are done, and formats long waits in minutes', () => {
    const { rerender } = render(<ImportProgress progress={progress({ bytesDone: 0 })} elapsedMs={3000} onCancel={() => {}} />);
    expect(fact('remaining')).toBe('estimating…');
    rerender(<ImportProgress progress={progress({ bytesDone: 1_000_000 })} elapsedMs={20_000} onCancel={() => {}} />);
    expect(fact('remaining')).toBe('about 3 min 00 s');
  });

  it('runs a job from the path field: progress from events, Cancel sends the job id, then the summary in words', async () => {
    const h = renderWithFake(<Harness />, { importFolder: () => ({ jobId: 'imp-7' }), cancel: () => ({ cancelled: true }) });
    fireEvent.change(screen.getByTestId('import-path'), { target: { value: ' /home/me/notes ' } });
    fireEvent.click(screen.getByTestId('import-start'));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'importFolder')?.input).toEqual({ path: '/home/me/notes' }));
    await screen.findByTestId('import-progress');
    act(() => h.emit({ type: 'job.progress', jobId: 'imp-7', kind: 'import', progress: progress({ filesDone: 7, filesTotal: 9, chunks: 55 }) }));
    await waitFor(() => expect(fact('files')).toBe('7 of 9'));
    expect(fact('chunks')).toBe('55');
    // Events of other jobs are not ours.
    act(() => h.emit({ type: 'job.progress', jobId: 'other', kind: 'import', progress: progress({ filesDone: 1, filesTotal: 1 }) }));

    fireEvent.click(screen.getByRole('button', { name: 'Cancel import' }));
    await waitFor(() => expect(h.transport.calls.filter((c) => c.method === 'cancel').map((c) => c.input)).toEqual([{ jobId: 'imp-7' }]));

    act(() => h.emit({ type: 'job.done', jobId: 'imp-7', kind: 'import', result: report, error: null }));
    const summary = await screen.findByTestId('import-summary');
    expect(screen.queryByTestId('import-progress')).toBeNull();
    expect(summary.textContent).toMatch(/3 added.*1 updated.*10 unchanged.*2 deleted.*2 skipped.*1 failed.*42 chunks written/);
    // "chunks" alone read as the folder's total: a re-sync of unchanged files said "0 chunks".
    expect(summary.textContent).toContain(`1 image (.tiff 1) — not a note format Quire reads (${extensionList(',')})`);
    expect(summary.textContent).toContain('scan.tiff');
    expect(within(summary).getByTestId('import-types').textContent).toBe('In the index now: 12 Markdown, 1 PDF, 1 HTML');
    expect(summary.textContent).toContain('photo.md — binary data, not text');
    expect(summary.textContent).toContain('Embedding was not available');
  });

  it('throttles a flood of progress events to a few renders, always landing on the last one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const h = renderWithFake(<Harness />, { importFolder: () => ({ jobId: 'imp-8' }) });
      fireEvent.change(screen.getByTestId('import-path'), { target: { value: '/n' } });
      fireEvent.click(screen.getByTestId('import-start'));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10);
      });
      act(() => {
        for (let i = 1; i <= 500; i++) h.emit({ type: 'job.progress', jobId: 'imp-8', kind: 'import', progress: progress({ filesDone: i, filesTotal: 500 }) });
      });
      expect(fact('files')).toBe('1 of 500');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(150);
      });
      expect(fact('files')).toBe('500 of 500');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the sentence for a refused path', async () => {
    renderWithFake(<Harness />, {
      importFolder: () => {
        throw new ApiError('NOT_A_FOLDER', '/nope is not a folder on this computer.');
      },
    });
    fireEvent.change(screen.getByTestId('import-path'), { target: { value: '/nope' } });
    fireEvent.click(screen.getByTestId('import-start'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('That path is not a folder Quire can read.');
    expect(alert.textContent).toContain('/nope is not a folder on this computer.');
    expect(screen.queryByTestId('import-progress')).toBeNull();
  });
});
