import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Output } from '../../../../shared/contract';
import { renderWithFake } from '../../test/harness';
import { AskView } from './AskView';
import { useConversation } from './conversation';

function Harness() {
  const conversation = useConversation();
  return <AskView conversation={conversation} suggestions={[]} focusTick={0} />;
}

const HIT = 'a1b2c3d4e5f6#1';
const PASSAGE = '# Key rotation\n\nWe rotate the deploy keys every 90 days.\n## Rollback\n\nOld keys stay valid for 48 hours.\nThen they are revoked.';
const hitStart = PASSAGE.indexOf('## Rollback');

const RESULT: Output<'search'>['results'][number] = {
  chunkId: HIT,
  documentId: 'a1b2c3d4e5f6',
  path: 'ops/keys.md',
  root: '/home/me/notes',
  heading: 'Key rotation > Rollback',
  lines: [1, 7],
  pages: null,
  text: PASSAGE,
  chunkIds: ['a1b2c3d4e5f6#0', HIT],
  hit: { lines: [4, 7], pages: null, start: hitStart, end: PASSAGE.length },
  score: 0.03,
  lexicalRank: 1,
  denseRank: null,
  distance: null,
  flags: [],
};

const CHUNK: Output<'getChunk'> = {
  chunkId: HIT,
  path: 'ops/keys.md',
  root: '/home/me/notes',
  heading: 'Key rotation > Rollback',
  lines: [4, 7],
  pages: null,
  text: '## Rollback\n\nOld keys stay valid for 48 hours.\nThen they are revoked.',
  flags: [],
  before: { chunkId: 'a1b2c3d4e5f6#0', text: '# Key rotation\n\nWe rotate the deploy keys every 90 days.', lines: [1, 3] },
  after: null,
};

async function searched(hit = RESULT, query = 'old keys') {
  const h = renderWithFake(<Harness />, {
    search: () => ({ mode: 'lexical', embedModel: null, embedDigest: null, results: [hit], ms: 3 }),
    getChunk: () => CHUNK,
    library: () => ({ collections: [] }),
    conversations: () => ({ conversations: [] }),
  });
  fireEvent.change(screen.getByTestId('search-box'), { target: { value: query } });
  fireEvent.submit(screen.getByTestId('search-box').closest('form')!);
  const result = await screen.findByTestId('search-result');
  return { h, result };
}

describe('passage search results', () => {
  it('show their heading once: the Markdown heading line the hit opens with is not repeated in the snippet', async () => {
    const { result } = await searched();
    const item = result.closest('li')!;
    expect(item.textContent!.match(/Rollback/g)).toHaveLength(1);
    expect(item.textContent).toContain('Key rotation > Rollback');
    expect(item.querySelector('.search-results__text')!.textContent).toMatch(/Old keys stay valid for 48 hours/);
    expect(result.textContent).toContain('ops/keys.md:1–7');
  });

  it('open in the source panel, like a citation: the hit highlighted, its passage as context, no citation check', async () => {
    const { h, result } = await searched();
    fireEvent.click(result);
    const panel = await screen.findByTestId('source-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('source-highlight').length).toBeGreaterThan(0));
    expect(h.transport.calls.find((c) => c.method === 'getChunk')?.input).toEqual({ chunkId: HIT, sent: ['a1b2c3d4e5f6#0', HIT] });
    expect(within(panel).getByRole('heading', { level: 2 }).textContent).toBe('Search result 1');
    expect(panel.textContent).not.toMatch(/This citation is/);
    const highlighted = within(panel).getAllByTestId('source-highlight').map((li) => li.textContent);
    expect(highlighted.join('\n')).toMatch(/Old keys stay valid/);
    expect(highlighted.join('\n')).not.toMatch(/every 90 days/);
    // Closing gives focus back to the result it was opened from.
    fireEvent.click(within(panel).getByRole('button', { name: 'Close source panel' }));
    expect(document.activeElement).toBe(result);
  });

  it('show readable text, not Markdown, with the searched words marked', async () => {
    const text = '## Rotating keys\n\nWe **rotate** the `deploy` keys; see [the runbook](https://example.com/runbook).\n\n- Old *keys* stay valid for 48 hours.\n> Rotation is logged.';
    const { result } = await searched({ ...RESULT, text, heading: 'Key rotation', hit: { ...RESULT.hit, start: 0, end: text.length } }, 'rotate deploy keys');
    const snippet = result.closest('li')!.querySelector('.search-results__text')!;
    expect(snippet.textContent).toBe('Rotating keys\n\nWe rotate the deploy keys; see the runbook.\n\n• Old keys stay valid for 48 hours.\nRotation is logged.');
    // Each query word marked where it stands, neighbours as one mark; "Rotating"/"Rotation" share rotate's stem.
    expect([...snippet.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Rotating keys', 'rotate', 'deploy keys', 'keys', 'Rotation']);
  });

  it('show a passage\'s HTML as the text it is, never as elements', async () => {
    const text = 'Keys <img src=x onerror="alert(1)"> and <script>alert(2)</script> <mark>keys</mark>';
    const { result } = await searched({ ...RESULT, text, heading: 'Key rotation', hit: { ...RESULT.hit, start: 0, end: text.length } }, 'keys');
    const snippet = result.closest('li')!.querySelector('.search-results__text')!;
    expect(snippet.textContent).toBe(text);
    expect(snippet.querySelector('img, script')).toBeNull();
    // Only the marks Quire made: the note's own <mark> is text, its word inside marked once.
    expect([...snippet.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Keys', 'keys']);
  });
});

describe('one file name in two folders', () => {
  it('names each result with as much of its folder as tells them apart', async () => {
    const other = { ...RESULT, chunkId: 'ffffffffffff#1', documentId: 'ffffffffffff', root: '/home/me/work/notes' };
    renderWithFake(<Harness />, {
      search: () => ({ mode: 'lexical', embedModel: null, embedDigest: null, results: [RESULT, other], ms: 3 }),
      library: () => ({ collections: [] }),
      conversations: () => ({ conversations: [] }),
    });
    fireEvent.change(screen.getByTestId('search-box'), { target: { value: 'keys' } });
    fireEvent.submit(screen.getByTestId('search-box').closest('form')!);
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(2));
    expect(screen.getAllByTestId('search-result').map((r) => r.querySelector('.mono')!.textContent)).toEqual(['me/notes/ops/keys.md:1–7', 'work/notes/ops/keys.md:1–7']);
  });
});
