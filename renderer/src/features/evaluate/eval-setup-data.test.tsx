import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/contract';
import type { QuestionSetSummary } from '../../../../shared/eval';
import { createFakeClient } from '../../api/fake-transport';
import { ClientProvider } from '../../app/client';
import { useEvalSetupData } from './eval-setup-data';

const set = (name: string): QuestionSetSummary => ({ ref: { kind: 'folder' }, name, answerable: 1, unanswerable: 0, error: null });

function setup(handlers: Record<string, (input: never) => unknown>) {
  const { client, transport } = createFakeClient(handlers);
  const wrapper = ({ children }: { children: ReactNode }) => <ClientProvider client={client}>{children}</ClientProvider>;
  return { transport, wrapper };
}

const base = {
  library: () => ({ collections: [{ id: 'c1', root: '/a', createdAt: '', documents: [] }] }),
  getSettings: () => ({ ollamaHost: 'h', chatModel: 'llama3.2', embedModel: 'e', k: 5, chunkTokens: 256, numCtx: 8192, fusion: 'rrf:60' }),
  listModels: () => ({ models: [] }),
};

describe('what the Evaluate form offers', () => {
  it('loads the folders, settings and models, and the chosen folder’s question sets', async () => {
    const { wrapper, transport } = setup({ ...base, questionSets: (({ collectionId }: { collectionId: string }) => ({ sets: [set(`sets of ${collectionId}`)] })) as never });
    const { result, rerender } = renderHook(({ id, v }) => useEvalSetupData(id, v), { wrapper, initialProps: { id: null as string | null, v: 0 } });
    await waitFor(() => expect(result.current.collections).toHaveLength(1));
    await waitFor(() => expect(result.current.settings?.chatModel).toBe('llama3.2'));
    expect(result.current.models).toEqual([]);
    expect(result.current.sets).toBeNull();
    rerender({ id: 'c1', v: 0 });
    await waitFor(() => expect(result.current.sets?.[0]?.name).toBe('sets of c1'));
    // Saved questions changed: the sets are asked for again, and stay shown meanwhile.
    rerender({ id: 'c1', v: 1 });
    expect(result.current.sets?.[0]?.name).toBe('sets of c1');
    await waitFor(() => expect(transport.calls.filter((c) => c.method === 'questionSets')).toHaveLength(2));
  });

  it('never shows one folder’s sets for another, even when the first answer comes last', async () => {
    const pending: Record<string, (v: { sets: QuestionSetSummary[] }) => void> = {};
    const { wrapper } = setup({ ...base, questionSets: (({ collectionId }: { collectionId: string }) => new Promise((r) => (pending[collectionId] = r))) as never });
    const { result, rerender } = renderHook(({ id }) => useEvalSetupData(id, 0), { wrapper, initialProps: { id: 'c1' as string | null } });
    rerender({ id: 'c2' });
    await waitFor(() => expect(pending.c2).toBeDefined());
    pending.c2?.({ sets: [set('two')] });
    await waitFor(() => expect(result.current.sets?.[0]?.name).toBe('two'));
    pending.c1?.({ sets: [set('one')] });
    await new Promise((r) => setTimeout(r, 20));
    expect(result.current.sets?.[0]?.name).toBe('two');
  });

  it('reports what could not be loaded', async () => {
    const { wrapper } = setup({
      library: () => {
        throw new ApiError('DB_CORRUPT', 'bad');
      },
      getSettings: () => {
        throw new ApiError('INTERNAL', 'x');
      },
      listModels: () => {
        throw new ApiError('OLLAMA_UNREACHABLE', 'down');
      },
      questionSets: () => {
        throw new ApiError('COLLECTION_NOT_FOUND', 'gone');
      },
    });
    const { result } = renderHook(() => useEvalSetupData('c1', 0), { wrapper });
    await waitFor(() => expect(result.current.loadError?.code).toBe('DB_CORRUPT'));
    await waitFor(() => expect(result.current.modelsError?.code).toBe('OLLAMA_UNREACHABLE'));
    await waitFor(() => expect(result.current.setsError?.code).toBe('COLLECTION_NOT_FOUND'));
    expect(result.current.settings).toBeNull();
    expect(result.current.sets).toEqual([]);
  });
});
