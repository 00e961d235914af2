import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError, type Output } from '../../../../shared/contract';
import type { EvalConfigResult } from '../../../../shared/eval';
import { metrics, report } from '../../test/eval-fixtures';
import { renderWithFake } from '../../test/harness';
import { settingsView } from '../../test/settings-fixtures';
import { UseConfiguration } from './UseConfiguration';

const base: EvalConfigResult = { chatModel: 'llama3.2:latest', embedModel: 'embeddinggemma:latest', chunker: 'heading:256', k: 5, mode: 'hybrid', fusion: 'rrf:60', metrics: metrics({ hit1: 0.4, answerHasFact: 0.5 }), errors: 0 };
const CONFIGS: EvalConfigResult[] = [
  base,
  // Keyword search, bigger chunks and fewer passages: the best answers and the best retrieval.
  { ...base, chunker: 'heading:512', k: 4, mode: 'lexical', metrics: metrics({ hit1: 0.7, answerHasFact: 0.8 }) },
  { ...base, embedModel: 'nomic-embed-text:latest', chunker: 'fixed:128/25', fusion: 'weighted:0.3', metrics: metrics({ hit1: 0.2, answerHasFact: 0.3 }) },
  // Every run failed: it measured nothing and is not offered.
  { ...base, k: 9, metrics: metrics({ hit1: 0, answerHasFact: null }), errors: 4 },
];
const REPORT = report({ configs: CONFIGS });

const STATUS: Output<'status'> = {
  ollama: { host: 'http://127.0.0.1:11434', connected: true, version: '0.12.6', error: null, remote: false, headers: [] },
  chatModel: 'llama3.2',
  documents: { ready: 12, needsEmbedding: 0, skipped: 0, error: 0, total: 12 },
  chunks: 80,
  migration: null,
  collections: 1,
  activeModel: { name: 'embeddinggemma:latest', dimension: 768, vectors: 80 },
  desktop: false,
  evaluation: null,
};
const store = (name: string, documentsMissing: number) => ({ modelId: 1, name, digest: 'd', dimension: 768, vectors: 80, documentsMissing, active: name === 'embeddinggemma:latest', chosen: false, bytes: 1 });

function show(handlers: Parameters<typeof renderWithFake>[1] = {}) {
  return renderWithFake(<UseConfiguration report={REPORT} failed={new Set([3])} />, {
    getSettings: () => settingsView(),
    status: () => STATUS,
    vectorStores: () => ({ stores: [store('embeddinggemma:latest', 0)] }),
    setSettings: () => settingsView(),
    ...handlers,
  });
}

const setCalls = (h: { transport: { calls: Array<{ method: string; input: unknown }> } }) => h.transport.calls.filter((c) => c.method === 'setSettings').map((c) => c.input);
const select = () => screen.getByLabelText('Configuration') as HTMLSelectElement;
const review = () => fireEvent.click(screen.getByRole('button', { name: 'Use these settings…' }));

describe('Use these settings', () => {
  it('offers the configurations that measured something, the report’s leader first', () => {
    show();
    expect([...select().options].map((o) => o.textContent)).toEqual([
      // A hybrid row names its fusion, the default too.
      'llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid · rrf:60',
      'llama3.2 · heading:512 · k=4 · lexical — best answers and retrieval',
      'llama3.2 · nomic-embed-text · fixed:128/25 · k=5 · hybrid · weighted:0.3',
    ]);
    expect(select().value).toBe('1');
  });

  it('shows each setting that would change, old → new, and saves only once confirmed; Cancel saves nothing', async () => {
    const h = show();
    review();
    const dialog = await screen.findByRole('alertdialog', { name: 'Use these settings?' });
    expect(dialog.textContent).toContain('From the configuration llama3.2 · heading:512 · k=4 · lexical, these settings change:');
    const rows = within(screen.getByTestId('eval-apply-changes')).getAllByRole('row').slice(1).map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Chunk size (tokens)', '256', '→ 512'],
      ['Passages per answer (k)', '6', '→ 4'],
      ['Search mode', 'Keyword and meaning (hybrid)', '→ Keyword only (lexical)'],
    ]);
    // What the new chunk size costs, as the engine does it, and why the embedding model is not touched.
    expect(screen.getAllByTestId('eval-apply-note').map((n) => n.textContent)).toEqual([
      'At each folder’s next import or Re-sync, 12 documents are cut again and 80 chunks’ worth of text re-embedded. Until then, documents stay cut as they are now.',
    ]);
    expect(screen.getByTestId('eval-apply-not-applied').textContent).toBe('Your embedding model (embeddinggemma) is left as it is: keyword search uses none.');
    // Cancel has the focus: Enter on a stray focus does not apply anything.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(setCalls(h)).toEqual([]);

    review();
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Use these settings' }));
    await waitFor(() => expect(setCalls(h)).toEqual([{ chunkTokens: 512, k: 4, searchMode: 'lexical' }]));
    expect((await screen.findByTestId('eval-apply-saved')).textContent).toBe(
      'Saved: Chunk size (tokens) is now 512; Passages per answer (k) is now 4; Search mode is now Keyword only (lexical). Re-sync each folder in the Library to cut its documents at the new size.',
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('a new embedding model: says its vectors are computed again and what searches use meanwhile, then offers Re-embed; the chunker it cannot apply is said', async () => {
    const h = show();
    fireEvent.change(select(), { target: { value: '2' } });
    review();
    await screen.findByRole('alertdialog');
    expect(screen.getAllByTestId('eval-apply-note').map((n) => n.textContent)).toEqual([
      'The vectors of every document must be computed again with nomic-embed-text (12 documents): once applied, choose Re-embed now (or run quire embed); a folder’s next import or Re-sync also computes them. No file is read again. Until every document has them, searches keep using embeddinggemma’s vectors.',
    ]);
    expect(screen.getByTestId('eval-apply-not-applied').textContent).toBe(
      'The chunker fixed:128/25 cannot be applied as a setting: the app cuts documents by heading, up to a chunk size in tokens. The rest is applied.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Use these settings' }));
    await waitFor(() => expect(setCalls(h)).toEqual([{ embedModel: 'nomic-embed-text', k: 5, fusion: 'weighted:0.3' }]));
    expect(await screen.findByRole('region', { name: 'Re-embedding' })).toBeTruthy();
  });

  it('a model whose vectors are already stored for every document: the switch is said to be instant, and no Re-embed is offered', async () => {
    show({ vectorStores: () => ({ stores: [store('embeddinggemma:latest', 0), store('nomic-embed-text:latest', 0)] }) });
    fireEvent.change(select(), { target: { value: '2' } });
    review();
    await screen.findByRole('alertdialog');
    expect(screen.getByTestId('eval-apply-note').textContent).toBe('Searches switch to nomic-embed-text’s vectors at once: every document already has them.');
    fireEvent.click(screen.getByRole('button', { name: 'Use these settings' }));
    await screen.findByTestId('eval-apply-saved');
    expect(screen.queryByRole('region', { name: 'Re-embedding' })).toBeNull();
  });

  it('says when the settings already match, without a dialog', async () => {
    const h = show({ getSettings: () => settingsView({ k: 5 }) });
    fireEvent.change(select(), { target: { value: '0' } });
    review();
    expect((await screen.findByTestId('eval-apply-same')).textContent).toMatch(/^Your settings already match this configuration: nothing to change\./);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(setCalls(h)).toEqual([]);
  });

  it('a model Ollama lacks: the error as a sentence, nothing saved, and "Use anyway" sends what was reviewed with force', async () => {
    let attempt = 0;
    const h = show({
      setSettings: () => {
        if (attempt++ === 0) throw new ApiError('MODEL_NOT_FOUND', 'Ollama at http://127.0.0.1:11434 has no model "nomic-embed-text". Installed: embeddinggemma.');
        return settingsView();
      },
    });
    fireEvent.change(select(), { target: { value: '2' } });
    review();
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Use these settings' }));
    await screen.findByText(/Installed: embeddinggemma/);
    expect(screen.queryByTestId('eval-apply-saved')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Use anyway' }));
    await screen.findByTestId('eval-apply-saved');
    expect(setCalls(h)).toEqual([
      { embedModel: 'nomic-embed-text', k: 5, fusion: 'weighted:0.3' },
      { embedModel: 'nomic-embed-text', k: 5, fusion: 'weighted:0.3', force: true },
    ]);
  });
});
