import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithFake } from '../../test/harness';
import { settingsView } from '../../test/settings-fixtures';
import { SearchBox } from './SearchBox';

const NOTHING = { mode: 'lexical' as const, embedModel: null, embedDigest: null, results: [], ms: 1 };
const searches = (h: { transport: { calls: Array<{ method: string; input: unknown }> } }) => h.transport.calls.filter((c) => c.method === 'search').map((c) => c.input);

function search(words: string) {
  fireEvent.change(screen.getByTestId('search-box'), { target: { value: words } });
  fireEvent.submit(screen.getByTestId('search-box').closest('form')!);
}

describe('the passage search’s mode', () => {
  it('searches as Settings say unless a mode is chosen for this search, and names the saved mode', async () => {
    const h = renderWithFake(<SearchBox onOpenSource={() => {}} />, { getSettings: () => settingsView({ searchMode: 'lexical' }), search: () => NOTHING });
    const mode = screen.getByLabelText('Search mode') as HTMLSelectElement;
    await waitFor(() => expect(mode.options[0]!.textContent).toBe('As in Settings (lexical)'));
    expect(mode.value).toBe('setting');
    search('keys');
    await waitFor(() => expect(searches(h)).toHaveLength(1));
    expect(searches(h)[0]).toMatchObject({ query: 'keys', k: 10 });
    expect(searches(h)[0]).not.toHaveProperty('mode');

    fireEvent.change(mode, { target: { value: 'dense' } });
    search('keys');
    await waitFor(() => expect(searches(h)).toHaveLength(2));
    expect(searches(h)[1]).toMatchObject({ query: 'keys', k: 10, mode: 'dense' });
  });
});
