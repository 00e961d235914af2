import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Output } from '../../../../shared/contract';
import { renderWithFake } from '../../test/harness';
import { SourcePanel } from './SourcePanel';

// Lines 4 and 8–9 are blank lines between chunks: they belong to no chunk.
const CHUNK: Output<'getChunk'> = {
  chunkId: 'a1b2c3d4e5f6#1',
  path: 'ops/keys.md',
  root: '/home/me/notes',
  heading: 'Key rotation',
  lines: [5, 7],
  pages: null,
  text: 'We rotate the deploy keys every 90 days.\n\nThe platform team owns it.',
  flags: [],
  before: { chunkId: 'a1b2c3d4e5f6#0', text: '# Key rotation\n\nIntro.', lines: [1, 3] },
  after: { chunkId: 'a1b2c3d4e5f6#2', text: '## Rollback', lines: [10, 10] },
};

const numbers = (panel: HTMLElement) => within(panel).getAllByRole('listitem').map((li) => Number(li.getAttribute('value')));

describe('the source panel\'s line numbers', () => {
  it('are continuous across chunk boundaries: the blank lines between chunks are shown, numbered, as context', async () => {
    renderWithFake(<SourcePanel request={{ info: { chunkId: CHUNK.chunkId, title: 'Source 1', check: 'supported', sentence: null, sent: null }, opener: null }} onClose={() => {}} />, {
      getChunk: () => CHUNK,
    });
    const panel = await screen.findByTestId('source-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('source-highlight').length).toBeGreaterThan(0));
    expect(numbers(panel)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Each number sits beside its own line of the file.
    const text = (n: number) => within(panel).getAllByRole('listitem').find((li) => Number(li.getAttribute('value')) === n)!.textContent;
    expect(text(5)).toContain('every 90 days');
    expect(text(10)).toContain('## Rollback');
    // The gap lines are context, not the cited chunk.
    const cited = within(panel).getByRole('list', { name: 'Cited passage' });
    expect(numbers(cited)).toEqual([5, 6, 7]);
  });
});

describe('the source panel\'s head', () => {
  it('names the file and the cited lines, so a panel scrolled down to its highlight still says where the passage is from', async () => {
    renderWithFake(<SourcePanel request={{ info: { chunkId: CHUNK.chunkId, title: 'Source 1', check: 'supported', sentence: null, sent: null }, opener: null }} onClose={() => {}} />, {
      getChunk: () => CHUNK,
    });
    const panel = await screen.findByTestId('source-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('source-highlight').length).toBeGreaterThan(0));
    const head = panel.querySelector('header') as HTMLElement;
    expect(within(head).getByTestId('source-where').textContent).toBe('ops/keys.md · lines 5–7');
  });
});
