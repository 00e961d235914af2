import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Output } from '../../../../shared/contract';
import { renderWithFake } from '../../test/harness';
import { LibraryView } from './LibraryView';
import { watchSentence } from './WatchControls';

type Collection = Output<'library'>['collections'][number];
type Watch = Collection['watch'];

const doc = (relPath: string) => ({ id: relPath, relPath, title: null, type: 'markdown' as const, status: 'ready' as const, statusCode: null, statusMessage: null, chunks: 2, ingestedAt: '2026-03-01T10:00:00Z' });
const folder = (watch: Watch, pending: Collection['pending'] = []): Collection => ({
  id: 'c1',
  root: '/home/me/notes',
  name: 'notes',
  createdAt: '2026-03-01T10:00:00Z',
  documents: [doc('a.md'), doc('b.md')],
  watch,
  pending,
});
const watch = (over: Partial<Watch> = {}): Watch => ({ state: 'off', busy: false, queued: 0, error: null, ...over });

describe('watching a folder from the library', () => {
  it('turns watching on, then pauses, resumes and stops it, each through setWatch', async () => {
    let current = watch();
    const h = renderWithFake(<LibraryView />, {
      library: () => ({ collections: [folder(current)] }),
      setWatch: (input: { state: Watch['state'] }) => {
        current = watch({ state: input.state });
        return current;
      },
    });
    const card = await screen.findByRole('region', { name: 'Folder /home/me/notes' });
    expect(within(card).getByRole('status').textContent).toBe('Not watched: changes are imported when you Re-sync.');
    expect(within(card).queryByRole('button', { name: 'Pause' })).toBeNull();

    const step = async (button: string, expected: Watch['state'], buttonsAfter: string[]) => {
      fireEvent.click(within(card).getByRole('button', { name: button }));
      await waitFor(() => expect(h.transport.calls.at(-1)).toMatchObject({ method: 'setWatch', input: { collectionId: 'c1', state: expected } }));
      act(() => h.emit({ type: 'library.changed' }));
      for (const b of buttonsAfter) expect(await within(card).findByRole('button', { name: b })).toBeTruthy();
    };
    await step('Watch for changes', 'watching', ['Pause', 'Stop watching']);
    expect(within(card).getByRole('status').textContent).toBe('Watching · up to date');
    await step('Pause', 'paused', ['Resume', 'Stop watching']);
    expect(within(card).getByRole('status').textContent).toBe('Watching paused: changes will be imported when you resume.');
    await step('Resume', 'watching', ['Pause']);
    await step('Stop watching', 'off', ['Watch for changes']);
  });

  it('shows each file waiting to be imported: a changed document flagged, a new file as its own row', async () => {
    renderWithFake(<LibraryView />, {
      library: () => ({
        collections: [
          folder(watch({ state: 'watching', queued: 2 }), [
            { relPath: 'b.md', queuedAt: '2026-03-02T09:00:00Z' },
            { relPath: 'new/c.md', queuedAt: '2026-03-02T09:00:01Z' },
          ]),
        ],
      }),
    });
    const card = await screen.findByRole('region', { name: 'Folder /home/me/notes' });
    expect(within(card).getByRole('status').textContent).toBe('Watching · 2 changes waiting');
    const rows = within(card).getAllByRole('row').slice(1);
    const byPath = Object.fromEntries(rows.map((r) => [r.querySelector('.mono')!.textContent, r.querySelectorAll('.badge:not(.badge--type)')]));
    expect([...byPath['new/c.md']!].map((b) => b.textContent)).toEqual(['queued']);
    expect([...byPath['b.md']!].map((b) => b.textContent)).toEqual(['ready', 'changed']);
    expect([...byPath['a.md']!].map((b) => b.textContent)).toEqual(['ready']);
  });

  it('says why watching is not working, in a sentence', async () => {
    renderWithFake(<LibraryView />, {
      library: () => ({ collections: [folder(watch({ state: 'watching', error: 'The system limit on watched files was reached, so some changes may be missed.' }))] }),
    });
    expect((await screen.findByRole('note')).textContent).toMatch(/system limit on watched files/);
  });

  it('never says "up to date" under the watching light while watching has a problem (the folder gone)', async () => {
    const gone = 'The folder /home/me/notes is gone or cannot be read; its documents are kept until it is back or forgotten.';
    renderWithFake(<LibraryView />, { library: () => ({ collections: [folder(watch({ state: 'watching', error: gone }))] }) });
    const card = await screen.findByRole('region', { name: 'Folder /home/me/notes' });
    const state = within(card).getByRole('status');
    expect(state.textContent).toBe('Watching, with a problem');
    expect(state.className).toMatch(/watch__state--trouble/);
    expect(state.className).not.toMatch(/watch__state--watching/);
    expect(within(card).getByRole('note').textContent).toBe(gone);
    expect(watchSentence(watch({ state: 'watching', queued: 110, error: gone }))).toBe('Watching, with a problem · 110 changes waiting');
  });

  it('words each state and count', () => {
    expect(watchSentence(watch({ state: 'watching', busy: true, queued: 1 }))).toBe('Watching · importing 1 change…');
    expect(watchSentence(watch({ state: 'watching', busy: true }))).toBe('Watching · importing…');
    expect(watchSentence(watch({ state: 'paused', queued: 1200 }))).toBe('Watching paused · 1,200 changes waiting');
    expect(watchSentence(watch({ state: 'off', queued: 1 }))).toBe('Not watched · 1 change waiting (Re-sync imports them)');
  });
});

describe('the library under a stream of changes', () => {
  it('loads one at a time, and once more after a burst, never once per event', async () => {
    let calls = 0;
    let release: (() => void) | null = null;
    const h = renderWithFake(<LibraryView />, {
      library: async () => {
        calls++;
        if (calls === 2) await new Promise<void>((r) => (release = r));
        return { collections: [folder(watch({ state: 'watching', queued: calls }))] };
      },
    });
    await screen.findByRole('region', { name: 'Folder /home/me/notes' });
    expect(calls).toBe(1);
    act(() => h.emit({ type: 'library.changed' })); // load 2 starts and hangs
    await waitFor(() => expect(release).not.toBeNull());
    for (let i = 0; i < 20; i++) act(() => h.emit({ type: 'library.changed' }));
    expect(calls).toBe(2);
    act(() => release!());
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Watching · 3 changes waiting'));
    expect(calls).toBe(3);
  });
});

describe('a folder’s name', () => {
  it('is renamed in place through renameCollection', async () => {
    let name = 'notes';
    const h = renderWithFake(<LibraryView />, {
      library: () => ({ collections: [{ ...folder(watch()), name }] }),
      renameCollection: (input: { name: string }) => {
        name = input.name;
        return { name };
      },
    });
    const card = await screen.findByRole('region', { name: 'Folder /home/me/notes' });
    fireEvent.click(within(card).getByRole('button', { name: 'Rename notes' }));
    fireEvent.change(within(card).getByLabelText('Folder name'), { target: { value: 'Work notes' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'renameCollection')?.input).toEqual({ collectionId: 'c1', name: 'Work notes' }));
    act(() => h.emit({ type: 'library.changed' }));
    expect(await within(card).findByText('Work notes', { selector: 'strong' })).toBeTruthy();
  });
});

describe('a folder card with a failed file', () => {
  it('counts the documents as the status bar does, the failed file apart', async () => {
    const failed = { ...doc('broken.pdf'), type: 'pdf' as const, status: 'error' as const, statusCode: 'CORRUPT_FILE', statusMessage: 'Not a readable PDF.', chunks: 0 };
    renderWithFake(<LibraryView />, { library: () => ({ collections: [{ ...folder(watch()), documents: [doc('a.md'), doc('b.md'), failed] }] }) });
    const card = await screen.findByRole('region', { name: 'Folder /home/me/notes' });
    expect(within(card).getByTestId('collection-counts').textContent).toMatch(/^2 documents · 1 failed · 4 chunks · added /);
  });
});

describe('removing a folder with failed and skipped files', () => {
  it('counts in its dialog what the card counts: documents in the index, the failed and skipped files named apart', async () => {
    const failed = { ...doc('broken.pdf'), type: 'pdf' as const, status: 'error' as const, statusCode: 'CORRUPT_FILE', statusMessage: 'Not a readable PDF.', chunks: 0 };
    const skipped = { ...doc('huge.md'), status: 'skipped' as const, statusCode: 'too-large', statusMessage: 'Too large.', chunks: 0 };
    renderWithFake(<LibraryView />, { library: () => ({ collections: [{ ...folder(watch()), documents: [doc('a.md'), doc('b.md'), failed, skipped] }] }) });
    const card = await screen.findByRole('region', { name: 'Folder /home/me/notes' });
    expect(within(card).getByTestId('collection-counts').textContent).toMatch(/^2 documents · 1 failed · 1 skipped · 4 chunks/);
    fireEvent.click(within(card).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByTestId('remove-counts').textContent).toBe(
      'This deletes 2 documents, their 4 passages, their vectors and full-text entries, and the records of 1 failed file and 1 skipped file, from Quire\'s index for /home/me/notes, and with them the answers given from those passages, the questions saved for this folder and its evaluation reports.',
    );
  });
});

describe('a warning from upkeep after an import or a forget', () => {
  it('is shown above the folders, in its own sentence', async () => {
    const message = "Keyword search's statistics could not be rebuilt after this forget: the disk is full [SQLITE_FULL].";
    renderWithFake(<LibraryView />, { library: () => ({ collections: [folder(watch())], warnings: [{ code: 'WRITE_FAILED', message }] }) });
    expect((await screen.findByTestId('library-warning')).textContent).toBe(message);
  });
});
