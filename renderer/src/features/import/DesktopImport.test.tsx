import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useImportJob } from './import-job';
import { renderWithFake } from '../../test/harness';
import { ImportPanel } from './ImportPanel';

function Panel() {
  const job = useImportJob();
  return <ImportPanel job={job} />;
}

const status = (desktop: boolean) => () => ({
  ollama: { host: 'h', connected: true, version: '1', error: null },
  documents: { ready: 0, needsEmbedding: 0, skipped: 0, error: 0, total: 0 },
  chunks: 0,
  collections: 0,
  activeModel: null,
  desktop,
});

describe('import with the desktop shell', () => {
  it('offers the native folder picker and imports what was chosen', async () => {
    const importFolder = vi.fn(() => ({ jobId: 'j1' }));
    renderWithFake(<Panel />, { status: status(true), chooseFolder: () => ({ supported: true, path: '/home/ana/notes' }), importFolder });
    fireEvent.click(await screen.findByRole('button', { name: 'Choose…' }));
    await waitFor(() => expect(importFolder).toHaveBeenCalledWith({ path: '/home/ana/notes' }));
    expect((screen.getByLabelText('Folder to import') as HTMLInputElement).value).toBe('/home/ana/notes');
  });

  it('shows no picker in browser mode', async () => {
    const statusCalls = vi.fn(status(false));
    renderWithFake(<Panel />, { status: statusCalls });
    await waitFor(() => expect(statusCalls).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: 'Choose…' })).toBeNull();
  });
});
