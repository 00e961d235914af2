import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationTurn, StoredConversation } from '../../../../shared/conversations';
import type { Output } from '../../../../shared/contract';
import { answerResult, askJobEvent, renderWithFake } from '../../test/harness';
import { AskView } from '../ask/AskView';
import { useConversation } from '../ask/conversation';
import { scopeInput, setScope } from '../ask/scope';

// Reopening a conversation sets the scope picker to its last question's folders, so a follow-up is
// asked of them (and says so); a new conversation returns to the person's own choice.

function Harness() {
  const conversation = useConversation();
  return <AskView conversation={conversation} suggestions={[]} focusTick={0} />;
}

type Collection = Output<'library'>['collections'][number];
const folder = (id: string, name: string, relPaths: string[]): Collection => ({
  id,
  name,
  root: `/home/me/${name}`,
  createdAt: '2026-03-01T10:00:00Z',
  documents: relPaths.map((relPath) => ({ id: relPath, relPath, title: null, type: 'markdown', status: 'ready', statusCode: null, statusMessage: null, chunks: 1, ingestedAt: '2026-03-01T10:00:00Z' })),
  watch: { state: 'off', busy: false, queued: 0, error: null },
  pending: [],
});
const LIBRARY = [folder('c1', 'notes', ['ops/keys.md', 'kitchen/bread.md']), folder('c2', 'home', ['todo.md'])];

const turn = (ordinal: number, question: string, scope: ConversationTurn['scope']): ConversationTurn => ({
  ordinal,
  question,
  askedAt: '2026-03-01T10:00:00Z',
  runId: 10 + ordinal,
  scope,
  result: answerResult({ runId: 10 + ordinal, question, answer: `Answer ${ordinal}.`, conversationId: 1 }),
});
const conversation = (id: number, title: string, turns: ConversationTurn[]): StoredConversation => ({ id, title, createdAt: '2026-03-01T10:00:00Z', updatedAt: '2026-03-01T10:00:00Z', turnCount: turns.length, turns });
const STORED = [
  // Its last question was asked of notes/ops and of a folder forgotten since (c9).
  conversation(1, 'How often are the deploy keys rotated?', [
    turn(1, 'How often are the deploy keys rotated?', []),
    turn(2, 'Who rotates them?', [
      { collectionId: 'c1', path: 'ops' },
      { collectionId: 'c9', path: '' },
    ]),
  ]),
  conversation(2, 'What is on the list?', [turn(1, 'What is on the list?', [])]),
  // From before turns kept their folders, its run gone: not known.
  conversation(3, 'An old question', [turn(1, 'An old question', null)]),
];

function render() {
  return renderWithFake(<Harness />, {
    library: () => ({ collections: LIBRARY }),
    conversations: () => ({ conversations: STORED.map(({ turns: _turns, ...summary }) => summary) }),
    conversation: ({ id }: { id: number }) => STORED.find((c) => c.id === id)!,
    ask: () => ({ jobId: 'job-1' }),
  });
}

const summary = () => screen.getByTestId('scope-picker').querySelector('summary')!;
const openConversation = async (title: string, answer: RegExp) => {
  fireEvent.click(await screen.findByRole('button', { name: title }));
  await screen.findByText(answer);
};

afterEach(() => {
  setScope([]);
  window.history.replaceState(null, '', window.location.pathname);
});

describe("a reopened conversation's folders", () => {
  it("set the picker to the last question's folders (those gone dropped), say so, and are what a follow-up is asked of; a new conversation returns to the person's choice", async () => {
    const h = render();
    const picker = await screen.findByTestId('scope-picker');
    fireEvent.click(within(picker).getByRole('treeitem', { name: 'home' }));
    expect(summary().textContent).toBe('Ask of:home');

    await openConversation('How often are the deploy keys rotated?', /Answer 2/);
    await waitFor(() => expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'ops' }] }));
    expect(summary().textContent).toBe('Ask of:notes/ops· as this conversation’s last question');
    expect(within(picker).getByRole('treeitem', { name: 'notes/ops' }).getAttribute('aria-checked')).toBe('true');
    expect(within(picker).getByRole('treeitem', { name: 'home' }).getAttribute('aria-checked')).toBe('false');

    fireEvent.change(screen.getByTestId('question'), { target: { value: 'And the old keys?' } });
    fireEvent.keyDown(screen.getByTestId('question'), { key: 'Enter' });
    await waitFor(() => expect(h.transport.calls.filter((c) => c.method === 'ask').map((c) => c.input)).toMatchObject([{ conversationId: 1, collections: [{ collectionId: 'c1', path: 'ops' }] }]));
    act(() => h.emit(askJobEvent('job-1', { type: 'done', result: answerResult({ runId: 13, question: 'And the old keys?', answer: 'Kept 48 hours.', conversationId: 1 }) })));

    // Another conversation, asked of every folder: the picker says so too.
    await openConversation('What is on the list?', /Answer 1/);
    expect(scopeInput()).toEqual({ collections: [] });
    expect(summary().textContent).toBe('Ask of:All folders· as this conversation’s last question');

    fireEvent.click(screen.getByTestId('new-conversation'));
    expect(scopeInput()).toEqual({ collections: ['c2'] });
    expect(summary().textContent).toBe('Ask of:home');
  });

  it("a conversation whose folders are not known leaves the person's choice, without claiming it as the conversation's", async () => {
    render();
    const picker = await screen.findByTestId('scope-picker');
    fireEvent.click(within(picker).getByRole('treeitem', { name: 'home' }));
    await openConversation('How often are the deploy keys rotated?', /Answer 2/);
    await openConversation('An old question', /Answer 1/);
    expect(scopeInput()).toEqual({ collections: ['c2'] });
    expect(summary().textContent).toBe('Ask of:home');
  });

  it('ticking a folder while a conversation is open is the person’s choice, kept for the next conversation', async () => {
    render();
    const picker = await screen.findByTestId('scope-picker');
    await openConversation('How often are the deploy keys rotated?', /Answer 2/);
    fireEvent.click(within(picker).getByRole('treeitem', { name: 'notes/kitchen' }));
    expect(summary().textContent).toBe('Ask of:notes/ops, notes/kitchen');
    fireEvent.click(screen.getByTestId('new-conversation'));
    expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'ops' }, { collectionId: 'c1', path: 'kitchen' }] });
  });
});
