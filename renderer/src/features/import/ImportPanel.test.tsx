import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithFake } from '../../test/harness';
import { ApiError } from '../../../../shared/contract';
import { LibraryView } from '../library/LibraryView';

describe('the import field', () => {
  it('suggests folders completing the typed path, asked after a pause in typing', async () => {
    const h = renderWithFake(<LibraryView />, {
      library: () => ({ collections: [] }),
      completeFolder: (input: { prefix: string }) => ({ folders: input.prefix === '~/no' ? ['/home/me/notebooks', '/home/me/Notes'] : [] }),
    });
    const field = await screen.findByTestId('import-path');
    expect(field.getAttribute('list')).toBe('import-path-completions');
    fireEvent.change(field, { target: { value: 'notes' } }); // a bare word: nothing to complete, nothing asked
    fireEvent.change(field, { target: { value: '~/no' } });
    await waitFor(() => expect([...screen.getByTestId('import-path-completions').querySelectorAll('option')].map((o) => o.value)).toEqual(['/home/me/notebooks', '/home/me/Notes']));
    expect(h.transport.calls.filter((c) => c.method === 'completeFolder').map((c) => c.input)).toEqual([{ prefix: '~/no' }]);
  });

  it('a refused path’s error goes once the path is edited, instead of naming the old path under the new one', async () => {
    renderWithFake(<LibraryView />, {
      library: () => ({ collections: [] }),
      completeFolder: () => ({ folders: [] }),
      importFolder: () => {
        throw new ApiError('NOT_A_FOLDER', '/tmp/nope is not a folder on this computer.');
      },
    });
    const field = await screen.findByTestId('import-path');
    fireEvent.change(field, { target: { value: '/tmp/nope' } });
    fireEvent.click(screen.getByTestId('import-start'));
    await screen.findByText('/tmp/nope is not a folder on this computer.');
    fireEvent.change(field, { target: { value: '/tmp/notes' } });
    await waitFor(() => expect(screen.queryByText('/tmp/nope is not a folder on this computer.')).toBeNull());
  });

  it('says plainly that a dropped folder’s path is not known to the page, naming it', async () => {
    renderWithFake(<LibraryView />, { library: () => ({ collections: [] }) });
    const form = await screen.findByTestId('import-form');
    const file = new File([''], 'Work notes');
    act(() => {
      fireEvent.drop(form, { dataTransfer: { files: [file], items: [] } });
    });
    expect(screen.getByTestId('import-drop-note').textContent).toMatch(/does not tell Quire where “Work notes” is on this computer\. Type or paste its path/);
  });

  it('in the desktop app, imports a dropped folder from the path the preload gives', async () => {
    const asked: unknown[] = [];
    window.quire = { onEvent: () => () => {}, pathForFile: (f: File) => (asked.push(f), '/home/ana/Work notes') };
    try {
      const h = renderWithFake(<LibraryView />, { library: () => ({ collections: [] }), importFolder: () => ({ jobId: 'imp-2' }) });
      const form = await screen.findByTestId('import-form');
      const file = new File([''], 'Work notes');
      act(() => {
        fireEvent.drop(form, { dataTransfer: { files: [file], items: [] } });
      });
      expect(asked).toEqual([file]);
      await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'importFolder')?.input).toEqual({ path: '/home/ana/Work notes' }));
      expect((screen.getByTestId('import-path') as HTMLInputElement).value).toBe('/home/ana/Work notes');
      expect(screen.queryByTestId('import-drop-note')).toBeNull();
    } finally {
      delete window.quire;
    }
  });

  it('keeps “Try the sample notes” a click away in the library', async () => {
    const h = renderWithFake(<LibraryView />, {
      library: () => ({ collections: [] }),
      sampleNotes: () => ({ path: '/app/resources/sample-notes', questions: [] }),
      importFolder: () => ({ jobId: 'imp-1' }),
    });
    fireEvent.click(await screen.findByTestId('try-sample-notes'));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'importFolder')?.input).toEqual({ path: '/app/resources/sample-notes' }));
  });
});
