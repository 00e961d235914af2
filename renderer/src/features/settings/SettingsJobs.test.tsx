import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithFake } from '../../test/harness';
import { PullBox } from './PullBox';
import { ReembedBox } from './ReembedBox';

describe('PullBox', () => {
  it('shows the download, then says the model is ready', async () => {
    const onPulled = vi.fn();
    const h = renderWithFake(<PullBox onPulled={onPulled} />, { pullModel: () => ({ jobId: 'p-1' }), cancel: () => ({ cancelled: true }) });
    fireEvent.change(screen.getByLabelText('Model name'), { target: { value: ' gemma3:1b ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pull' }));
    await screen.findByText('starting');
    expect(h.transport.calls.find((c) => c.method === 'pullModel')?.input).toEqual({ model: 'gemma3:1b' });
    expect(screen.getByRole('button', { name: 'Pull' })).toHaveProperty('disabled', true);
    act(() => h.emit({ type: 'job.progress', jobId: 'p-1', kind: 'pull', progress: { status: 'pulling 1a2b', completed: 512, total: 2048 } }));
    await screen.findByText(/pulling 1a2b · 512 B of 2(\.0)? KB/);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'cancel')?.input).toEqual({ jobId: 'p-1' }));
    act(() => h.emit({ type: 'job.done', jobId: 'p-1', kind: 'pull', result: { model: 'gemma3:1b' }, error: null }));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'gemma3:1b is ready.');
    expect(onPulled).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('shows why a download failed', async () => {
    const onPulled = vi.fn();
    const h = renderWithFake(<PullBox onPulled={onPulled} />, { pullModel: () => ({ jobId: 'p-2' }) });
    fireEvent.change(screen.getByLabelText('Model name'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pull' }));
    await screen.findByText('starting');
    act(() => h.emit({ type: 'job.done', jobId: 'p-2', kind: 'pull', result: null, error: { code: 'INTERNAL', message: 'pull model manifest: file does not exist' } }));
    expect(await screen.findByText(/file does not exist/)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(onPulled).toHaveBeenCalledTimes(1);
  });
});

describe('ReembedBox', () => {
  it('counts the documents embedded, then says how many passages', async () => {
    const h = renderWithFake(<ReembedBox model="nomic-embed-text" />, { embedMissing: () => ({ jobId: 'e-1' }) });
    fireEvent.click(screen.getByRole('button', { name: 'Re-embed now' }));
    await screen.findByText('0 documents embedded so far');
    act(() => h.emit({ type: 'job.progress', jobId: 'e-1', kind: 'embed', progress: { documents: 3, chunks: 0 } }));
    await screen.findByText('3 documents embedded so far');
    act(() => h.emit({ type: 'job.done', jobId: 'e-1', kind: 'embed', result: { chunks: 42 }, error: null }));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Done: 42 passages embedded with nomic-embed-text.');
    expect(screen.getByRole('button', { name: 'Re-embed now' })).toHaveProperty('disabled', false);
  });
});
