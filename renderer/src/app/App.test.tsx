import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Output } from '../../../shared/contract';
import { importDone, renderWithFake } from '../test/harness';
import { setupStatus, setupVerify } from '../test/setup-fixtures';
import { App } from './App';

type Status = Output<'status'>;
const status = (connected: boolean): Status => ({
  ollama: { host: 'http://127.0.0.1:11434', connected, version: connected ? '0.12.3' : null, error: connected ? null : 'connect ECONNREFUSED', remote: false, headers: [] },
  chatModel: 'llama3.2',
  documents: { ready: 4, needsEmbedding: 0, skipped: 1, error: 0, total: 5 },
  chunks: 17,
  migration: null,
  collections: 1,
  activeModel: connected ? { name: 'embeddinggemma', dimension: 768, vectors: 17 } : null,
  desktop: false,
  evaluation: null,
});

const collection = {
  id: 'c1',
  root: '/home/me/notes',
  name: 'notes',
  createdAt: '2026-03-01T10:00:00Z',
  documents: [
    { id: 'd1', relPath: 'keys.md', title: 'Keys', type: 'markdown' as const, status: 'ready' as const, statusCode: null, statusMessage: null, chunks: 3, ingestedAt: '2026-03-01T10:00:00Z' },
    { id: 'd2', relPath: 'bin.txt', title: null, type: 'text' as const, status: 'error' as const, statusCode: 'BINARY_FILE', statusMessage: null, chunks: 0, ingestedAt: '2026-03-01T10:00:00Z' },
  ],
  watch: { state: 'off' as const, busy: false, queued: 0, error: null },
  pending: [],
};

describe('App', () => {
  it('first run: the check passes, sample notes are imported, then their questions are offered and asked', async () => {
    let documents = 0;
    const h = renderWithFake(<App />, {
      library: () => ({ collections: [] }),
      status: () => status(true),
      setupStatus: () => setupStatus('ready', { documents, canAnswer: documents > 0 }),
      verifySetup: () => setupVerify(),
      sampleNotes: () => ({ path: '/app/resources/sample-notes', questions: ['How often are the deploy keys rotated?', 'When does the beta start?'] }),
      importFolder: () => ({ jobId: 'imp-1' }),
      ask: () => ({ jobId: 'ask-1' }),
      search: () => ({}),
    });
    await screen.findByTestId('first-run');
    fireEvent.click(await screen.findByRole('button', { name: 'Next: add your notes' }, { timeout: 5000 }));
    fireEvent.click(screen.getByRole('button', { name: 'Try the sample notes' }));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'importFolder')?.input).toEqual({ path: '/app/resources/sample-notes' }));
    const sampleIdx = h.transport.calls.findIndex((c) => c.method === 'sampleNotes');
    expect(sampleIdx).toBeGreaterThanOrEqual(0);
    expect(sampleIdx).toBeLessThan(h.transport.calls.findIndex((c) => c.method === 'importFolder'));
    await screen.findByTestId('import-progress');
    documents = 4;
    act(() => h.emit(importDone('imp-1', '/app/resources/sample-notes', 4)));
    fireEvent.click(await screen.findByRole('button', { name: 'When does the beta start?' }));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'ask')?.input).toEqual({ question: 'When does the beta start?', collections: [] }));
    expect(screen.queryByTestId('first-run')).toBeNull();
    expect(screen.getByTestId('answer')).toBeTruthy();
  });

  it('status bar: Ollama connected with version, or keyword search only when it is down', async () => {
    let up = true;
    const h = renderWithFake(<App />, { library: () => ({ collections: [collection] }), status: () => status(up), search: () => ({}) });
    const bar = await screen.findByTestId('status-bar');
    await waitFor(() => expect(bar.textContent).toContain('Ollama connected · version 0.12.3'));
    expect(bar.textContent).toContain('4 documents · 17 chunks · 1 skipped');
    expect(bar.textContent).toContain('Embedding model embeddinggemma');
    up = false;
    act(() => h.emit({ type: 'library.changed' }));
    await waitFor(() => expect(bar.textContent).toContain('Keyword search only · Ollama not running at 127.0.0.1:11434'));
    expect(bar.querySelector('[data-ollama="down"]')!.getAttribute('title')).toMatch(/^Keyword search only: Ollama is not running at http:\/\/127\.0\.0\.1:11434\. Start it there with "ollama serve", or correct the Ollama host in Settings/);
  });

  it('status bar: with Ollama down, Set up Ollama opens the setup steps, which lead back to asking', async () => {
    const h = renderWithFake(<App />, {
      library: () => ({ collections: [collection] }),
      status: () => status(false),
      setupStatus: () => setupStatus('unreachable', { documents: 4 }),
      search: () => ({}),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Set up Ollama…' }));
    expect(await screen.findByRole('heading', { name: 'Set up Ollama' })).toBeTruthy();
    await screen.findByRole('heading', { name: 'Install and start Ollama' });
    // Check again has the status bar look again too, not only the steps.
    const asked = (m: string) => h.transport.calls.filter((c) => c.method === m).length;
    const [bar, steps] = [asked('status'), asked('setupStatus')];
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect([asked('status'), asked('setupStatus')]).toEqual([bar + 1, steps + 1]));
    // The notes are in already: going on without Ollama is going back to them.
    fireEvent.click(screen.getByRole('button', { name: 'Continue with keyword search only' }));
    await waitFor(() => expect(screen.queryByTestId('first-run')).toBeNull());
    expect(screen.getByTestId('question')).toBeTruthy();
  });

  it('status bar: a connected Ollama is named with its version as its tooltip, and without a stray "version" when it sent none', async () => {
    const unknown: Status['ollama'] = { ...status(true).ollama, version: null };
    let ollama = status(true).ollama;
    const h = renderWithFake(<App />, { library: () => ({ collections: [collection] }), status: () => ({ ...status(true), ollama }), search: () => ({}) });
    const bar = await screen.findByTestId('status-bar');
    await waitFor(() => expect(bar.querySelector('[data-ollama="connected"]')?.getAttribute('title')).toBe('Ollama connected · version 0.12.3'));
    ollama = unknown;
    act(() => h.emit({ type: 'library.changed' }));
    await waitFor(() => expect(bar.querySelector('[data-ollama="connected"]')?.textContent?.trim()).toBe('Ollama connected'));
    expect(bar.querySelector('[data-ollama="connected"]')?.getAttribute('title')).toBe('Ollama connected');
  });

  it('status bar: nothing answering at a mistyped host names that host, so "not running" is not read as Ollama being down', async () => {
    const ollama: Status['ollama'] = { ...status(false).ollama, host: 'http://127.0.0.1:9', errorCode: 'OLLAMA_UNREACHABLE' };
    renderWithFake(<App />, { library: () => ({ collections: [collection] }), status: () => ({ ...status(false), ollama }), search: () => ({}) });
    const bar = await screen.findByTestId('status-bar');
    await waitFor(() => expect(bar.textContent).toContain('Ollama not running at 127.0.0.1:9'));
    expect(bar.querySelector('[data-ollama="down"]')!.getAttribute('title')).toContain('correct the Ollama host in Settings');
  });

  it('status bar: an Ollama that answers but fails (a certificate not trusted) is named as such, not "start ollama serve"', async () => {
    const error = 'The server at https://gpu.example.org presented a certificate this computer does not trust (self-signed certificate). If your team…';
    const ollama: Status['ollama'] = { ...status(false).ollama, host: 'https://gpu.example.org', remote: true, error, errorCode: 'OLLAMA_ERROR' };
    renderWithFake(<App />, { library: () => ({ collections: [collection] }), status: () => ({ ...status(false), ollama }), search: () => ({}) });
    const bar = await screen.findByTestId('status-bar');
    await waitFor(() => expect(bar.textContent).toContain(`Keyword search only: Ollama is not connected. ${error}`));
    expect(bar.textContent).not.toContain('ollama serve');
  });

  it('status bar: the chat model, and plainly where questions go when Ollama is on another machine', async () => {
    let ollama: Status['ollama'] = { ...status(true).ollama };
    const h = renderWithFake(<App />, { library: () => ({ collections: [collection] }), status: () => ({ ...status(true), ollama, chatModel: 'qwen2.5:0.5b' }), search: () => ({}) });
    const bar = await screen.findByTestId('status-bar');
    await waitFor(() => expect(bar.textContent).toContain('Chat model qwen2.5:0.5b'));
    expect(bar.textContent).not.toContain('go to');
    ollama = { ...ollama, host: 'https://gpu.example.org:443', remote: true, headers: ['Authorization'] };
    act(() => h.emit({ type: 'library.changed' }));
    await waitFor(() => expect(bar.textContent).toContain('Questions and document text go to https://gpu.example.org:443'));
  });

  it('status bar: a change of embedding model under way says which, and how many documents are left', async () => {
    let migration: Status['migration'] = { to: 'nomic-embed-text:latest', documentsLeft: 1234 };
    const h = renderWithFake(<App />, { library: () => ({ collections: [collection] }), status: () => ({ ...status(true), migration }), search: () => ({}) });
    const bar = await screen.findByTestId('status-bar');
    await waitFor(() => expect(bar.textContent).toContain('Embedding model embeddinggemma · switching to nomic-embed-text:latest: 1,234 documents left'));
    migration = null;
    act(() => h.emit({ type: 'library.changed' }));
    await waitFor(() => expect(bar.textContent).not.toContain('switching to'));
  });

  it('status bar: vector search in two stages names its measured oversampling; bits being built show their progress', async () => {
    type Dense = NonNullable<NonNullable<Status['activeModel']>['dense']>;
    const base: Dense = { method: 'exact', quantizeAbove: 20000, bits: { built: 12000, total: 100000, ready: false }, oversampling: null, recallAt10: null, depthOversampling: null, recallAtDepth: null, calibratedVectors: 0, reason: 'exact until the sign bits are built (12,000 of 100,000)' };
    let dense: Dense = base;
    const h = renderWithFake(<App />, { library: () => ({ collections: [collection] }), status: () => ({ ...status(true), activeModel: { name: 'embeddinggemma', dimension: 768, vectors: 100000, dense } }), search: () => ({}) });
    const bar = await screen.findByTestId('status-bar');
    await waitFor(() => expect(bar.textContent).toContain('Embedding model embeddinggemma · building search bits 12,000/100,000'));
    dense = { ...base, method: 'quantized', bits: { built: 100000, total: 100000, ready: true }, oversampling: 16, recallAt10: 0.983, calibratedVectors: 100000, reason: 'two-stage: …' };
    act(() => h.emit({ type: 'library.changed' }));
    await waitFor(() => expect(bar.textContent).toContain('Embedding model embeddinggemma · two-stage search ×16, recall@10 0.98'));
    expect(bar.querySelector('[data-dense="quantized"]')?.getAttribute('title')).toBe('two-stage: …');
    // Exact search below the threshold is the ordinary case: nothing to say.
    dense = { ...base, bits: null, reason: 'exact: 17 vectors, under the 20,000 from which search goes in two stages' };
    act(() => h.emit({ type: 'library.changed' }));
    await waitFor(() => expect(bar.querySelector('[data-dense]')).toBeNull());
  });

  it('after missed events (events.gap) the status and the library are read again', async () => {
    let up = true;
    const h = renderWithFake(<App />, { library: () => ({ collections: [collection] }), status: () => status(up), search: () => ({}) });
    const bar = await screen.findByTestId('status-bar');
    await waitFor(() => expect(bar.textContent).toContain('Ollama connected'));
    const libraryCalls = h.transport.calls.filter((c) => c.method === 'library').length;
    up = false;
    act(() => h.emit({ type: 'events.gap' }));
    await waitFor(() => expect(bar.textContent).toContain('Ollama not running'));
    expect(h.transport.calls.filter((c) => c.method === 'library').length).toBeGreaterThan(libraryCalls);
  });

  it('search box shows the mode used and why it fell back', async () => {
    renderWithFake(<App />, {
      library: () => ({ collections: [collection] }),
      status: () => status(false),
      search: () => ({
        mode: 'lexical',
        fallback: { requested: 'hybrid', reason: 'Ollama is not reachable', code: 'OLLAMA_UNREACHABLE' },
        embedModel: null,
        embedDigest: null,
        ms: 3,
        results: [{ chunkId: 'd1#0', documentId: 'd1', path: 'food/sourdough.md', root: '/n', heading: 'Sourdough', lines: [1, 3], text: 'Feed the starter\nBake the loaf', chunkIds: ['d1#0'], hit: { lines: [3, 3], start: 17, end: 30 }, score: 0.03, lexicalRank: 1, denseRank: null, distance: null, flags: [] }],
      }),
    });
    const input = await screen.findByTestId('search-box');
    fireEvent.change(input, { target: { value: 'sourdough loaf' } });
    fireEvent.submit(input.closest('form')!);
    expect(await screen.findByText('food/sourdough.md:1–3')).toBeTruthy();
    // The snippet is the chunk that matched, not the neighbour its passage opens with.
    const snippet = document.querySelector('.search-results__text')!;
    expect(snippet.textContent).toBe('Bake the loaf');
    expect(snippet.querySelector('mark')?.textContent).toBe('loaf');
    expect(screen.queryByText(/Feed the starter/)).toBeNull();
    expect(screen.getByText(/Mode used: lexical \(asked for hybrid: Ollama is not reachable\)/)).toBeTruthy();
  });

  it('library: Remove asks first, says files on disk are untouched, then removes', async () => {
    const h = renderWithFake(<App />, {
      library: () => ({ collections: [collection] }),
      status: () => status(true),
      removeCollection: () => ({ documents: 2 }),
    });
    fireEvent.click(await screen.findByTestId('nav-library'));
    const card = await screen.findByRole('region', { name: 'Folder /home/me/notes' });
    expect(within(card).getByText('failed')).toBeTruthy();
    expect(within(card).getByText('The file is binary, not text.')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('alertdialog');
    // The failed file is not counted as a document, as on the card and in the status bar.
    expect(dialog.textContent).toContain('This deletes 1 document, their 3 passages, their vectors and full-text entries, and the records of 1 failed file, from');
    expect(dialog.textContent).toContain('The files on disk are untouched.');
    // Everything forget removes is named: the answers, saved questions and reports go too.
    expect(dialog.textContent).toContain('the answers given from those passages, the questions saved for this folder and its evaluation reports');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(h.transport.calls.some((c) => c.method === 'removeCollection')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove from index' }));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'removeCollection')?.input).toEqual({ collectionId: 'c1' }));
  });
});

describe('App under a flood of library events (an import of thousands of files)', () => {
  it('asks for status and the library a few times, not once per event, and still shows the end state', async () => {
    let documents = 5;
    const h = renderWithFake(<App />, {
      library: () => ({ collections: [collection] }),
      status: () => ({ ...status(true), documents: { ...status(true).documents, total: documents, ready: documents - 1 } }),
    });
    await screen.findByTestId('status-bar');
    const count = (method: string) => h.transport.calls.filter((c) => c.method === method).length;
    const before = { status: count('status'), library: count('library') };
    documents = 2005;
    act(() => {
      for (let i = 0; i < 2000; i++) h.emit({ type: 'library.changed' });
    });
    await waitFor(() => expect(screen.getByTestId('status-bar').textContent).toContain('2,004'), { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 700)); // one more reload period: nothing else is owed
    expect(count('status') - before.status).toBeLessThanOrEqual(3);
    expect(count('library') - before.library).toBeLessThanOrEqual(6);
  });
});
