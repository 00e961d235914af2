import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Output } from '../../../../shared/contract';
import { renderWithFake } from '../../test/harness';
import { storeRole, VectorStores } from './VectorStores';

type Store = Output<'vectorStores'>['stores'][number];
const store = (over: Partial<Store>): Store => ({ modelId: 1, name: 'embeddinggemma:latest', digest: 'a'.repeat(64), dimension: 768, vectors: 1200, documentsMissing: 0, active: false, chosen: false, bytes: 1200 * 768 * 4, ...over });

describe('stored vectors in Settings', () => {
  it('offers to delete only an earlier model, says what it frees and costs, and deletes after confirming', async () => {
    let stores = [
      store({ modelId: 2, name: 'nomic-embed-text:latest', active: true, chosen: true }),
      store({ modelId: 1 }),
    ];
    const h = renderWithFake(<VectorStores />, {
      vectorStores: () => ({ stores }),
      dropVectorStore: (input: { modelId: number }) => {
        stores = stores.filter((s) => s.modelId !== input.modelId);
        return { vectors: 1200 };
      },
    });
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('searches use these'), expect.stringContaining('kept: switching back is instant')]);
    expect(within(rows[0]!).queryByRole('button')).toBeNull();
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Delete the vectors of embeddinggemma:latest' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toMatch(/frees about 3\.7 MB/);
    expect(dialog.textContent).toMatch(/embedding 1,200 passages\s+again/);
    expect(h.transport.calls.some((c) => c.method === 'dropVectorStore')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete vectors' }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(h.transport.calls.find((c) => c.method === 'dropVectorStore')?.input).toEqual({ modelId: 1 });
  });

  it('words each state', () => {
    expect(storeRole(store({ chosen: true, documentsMissing: 12 }))).toBe('being built · 12 documents to go');
    expect(storeRole(store({ documentsMissing: 3 }))).toBe('incomplete · 3 documents lack them');
  });
});
