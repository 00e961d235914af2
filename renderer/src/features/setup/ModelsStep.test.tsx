import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ApiEvent } from '../../../../shared/contract';
import { renderWithFake } from '../../test/harness';
import { setupStatus } from '../../test/setup-fixtures';
import { ModelsStep } from './ModelsStep';

const progress = (jobId: string, completed: number | null, total: number | null, status = 'pulling 1a2b3c4d5e6f'): ApiEvent => ({ type: 'job.progress', jobId, kind: 'pull', progress: { status, completed, total } });
const done = (jobId: string, model: string | null, error: { code: string; message: string } | null = null): ApiEvent => ({ type: 'job.done', jobId, kind: 'pull', result: model ? { model } : null, error });

function renderStep(status = setupStatus('no-models'), handlers: Parameters<typeof renderWithFake>[1] = {}) {
  const onChanged = vi.fn();
  let n = 0;
  const h = renderWithFake(<ModelsStep status={status} onChanged={onChanged} onKeywordOnly={() => {}} />, {
    pullModel: () => ({ jobId: `pull-${++n}` }),
    cancel: () => ({ cancelled: true }),
    ...handlers,
  });
  const inputs = (method: string) => h.transport.calls.filter((c) => c.method === method).map((c) => c.input);
  return { ...h, onChanged, inputs };
}

describe('ModelsStep: downloads', () => {
  it('shows bytes, percentage and a bar, and Cancel stops this download and the rest', async () => {
    const h = renderStep();
    fireEvent.click(screen.getByRole('button', { name: 'Download both (3.1 GB)' }));
    await waitFor(() => expect(h.inputs('pullModel')).toEqual([{ model: 'embeddinggemma', saveAs: 'embedModel' }]));
    const box = await screen.findByTestId('pull-progress');
    expect(box.textContent).toContain('Downloading embeddinggemma (1 of 2)');
    expect(box.textContent).toContain('Starting…');
    act(() => h.emit(progress('pull-1', 311_000_000, 622_000_000)));
    await waitFor(() => expect(screen.getByTestId('pull-bytes').textContent).toBe('311 MB of 622 MB · 50%'));
    const bar = screen.getByRole('progressbar', { name: 'Downloading embeddinggemma' });
    expect(bar.getAttribute('aria-valuenow')).toBe('311000000');
    expect(bar.getAttribute('aria-valuemax')).toBe('622000000');
    // Nothing else starts while one downloads.
    expect(screen.getByRole('button', { name: 'Download qwen3:4b' })).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(h.inputs('cancel')).toEqual([{ jobId: 'pull-1' }]));
    act(() => h.emit(done('pull-1', null, { code: 'CANCELLED', message: 'Cancelled.' })));
    expect((await screen.findByRole('status')).textContent).toBe('Download cancelled.');
    expect(screen.queryByTestId('pull-progress')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(h.inputs('pullModel')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Download both (3.1 GB)' })).toHaveProperty('disabled', false);
  });

  it('downloads one after the other, each saved as its setting, then reads Settings again', async () => {
    const h = renderStep(setupStatus('no-models'), { getSettings: () => ({ chatModel: 'qwen3:4b' }) });
    fireEvent.click(screen.getByRole('button', { name: 'Download both (3.1 GB)' }));
    await screen.findByTestId('pull-progress');
    act(() => h.emit(done('pull-1', 'embeddinggemma')));
    await waitFor(() =>
      expect(h.inputs('pullModel')).toEqual([
        { model: 'embeddinggemma', saveAs: 'embedModel' },
        { model: 'qwen3:4b', saveAs: 'chatModel' },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('pull-progress').textContent).toContain('Downloading qwen3:4b (2 of 2)'));
    act(() => h.emit(progress('pull-2', 2_500_000_000, 2_500_000_000, 'verifying sha256 digest')));
    await waitFor(() => expect(screen.getByTestId('pull-progress').textContent).toContain('Checking the download…'));
    act(() => h.emit(done('pull-2', 'qwen3:4b')));
    await waitFor(() => expect(screen.queryByTestId('pull-progress')).toBeNull());
    expect(h.onChanged).toHaveBeenCalledTimes(2);
    expect(h.inputs('getSettings')).toHaveLength(2);
  });

  it('says why a download failed, as a sentence, and does not go on to the next', async () => {
    const h = renderStep();
    fireEvent.click(screen.getByRole('button', { name: 'Download both (3.1 GB)' }));
    await screen.findByTestId('pull-progress');
    act(() => h.emit(done('pull-1', null, { code: 'OLLAMA_ERROR', message: 'pull model manifest: file does not exist' })));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Ollama reported an error.');
    expect(alert.textContent).toContain('pull model manifest: file does not exist');
    expect(h.inputs('pullModel')).toHaveLength(1);
  });

  it('a download that cannot start says why', async () => {
    renderStep(setupStatus('embedding-only'), {
      pullModel: () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'OLLAMA_UNREACHABLE' });
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Download qwen3:4b' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Start it with "ollama serve".');
    expect(alert.textContent).not.toContain('`');
    expect(screen.queryByTestId('pull-progress')).toBeNull();
  });
});
