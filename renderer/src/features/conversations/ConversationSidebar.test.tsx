import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationSummary, StoredConversation } from '../../../../shared/conversations';
import { ApiError } from '../../../../shared/contract';
import { answerResult, askJobEvent, budget, candidate, renderWithFake } from '../../test/harness';
import { AskView } from '../ask/AskView';
import { useConversation } from '../ask/conversation';

function Harness() {
  const conversation = useConversation();
  return <AskView conversation={conversation} suggestions={[]} focusTick={0} />;
}

const K0 = 'a1b2c3d4e5f6#0';
const summary = (id: number, title: string, turnCount = 1): ConversationSummary => ({ id, title, createdAt: '2026-03-01T10:00:00Z', updatedAt: `2026-03-0${id}T10:00:00Z`, turnCount });
const LIST = [summary(2, 'Who bakes the bread?'), summary(1, 'How often are the deploy keys rotated?', 2)];

const STORED: StoredConversation = {
  ...LIST[1]!,
  turns: [
    {
      ordinal: 1,
      question: 'How often are the deploy keys rotated?',
      askedAt: '2026-03-01T10:00:00Z',
      runId: 11,
      scope: [],
      result: answerResult({
        runId: 11,
        question: 'How often are the deploy keys rotated?',
        answer: `Every 90 days [${K0}].`,
        citations: [{ chunkId: K0, path: 'notes/keys.md', lines: [3, 9], pages: null, sentence: 'Every 90 days.', check: 'supported', missing: [] }],
        retrieval: [candidate(K0, 'notes/keys.md', [3, 9])],
        budget: budget({ estimated: 4321 }),
        conversationId: 1,
      }),
    },
    { ordinal: 2, question: 'And the old keys?', askedAt: '2026-03-01T10:01:00Z', runId: 12, scope: [], result: null },
  ],
};

function handlers(over: Parameters<typeof renderWithFake>[1] = {}) {
  return {
    conversations: (input: { query?: string }) => ({ conversations: input.query ? LIST.filter((c) => c.title.toLowerCase().includes(input.query!.toLowerCase())) : LIST }),
    conversation: ({ id }: { id: number }) => {
      if (id !== 1) throw new ApiError('CONVERSATION_NOT_FOUND', `There is no conversation ${id}.`);
      return STORED;
    },
    renameConversation: ({ title }: { title: string }) => ({ title }),
    deleteConversation: () => ({ runs: 2 }),
    ask: () => ({ jobId: 'job-1' }),
    search: () => ({}),
    ...over,
  };
}

const items = () => screen.getAllByTestId('conversation').map((b) => b.textContent);
const callsOf = (h: ReturnType<typeof renderWithFake>, method: string) => h.transport.calls.filter((c) => c.method === method).map((c) => c.input);

afterEach(() => {
  window.history.replaceState(null, '', window.location.pathname);
});

describe('conversation sidebar', () => {
  it('says when each conversation was last asked in and how many answers it holds, so conversations that start with the same question can be told apart', async () => {
    const same = [summary(3, 'How do I make a variable mutable?', 4), summary(2, 'How do I make a variable mutable?')];
    renderWithFake(<Harness />, handlers({ conversations: () => ({ conversations: same }) }));
    await waitFor(() => expect(screen.getAllByTestId('conversation-meta')).toHaveLength(2));
    const metas = screen.getAllByTestId('conversation-meta').map((m) => m.textContent);
    expect(metas[0]).toMatch(/^Mar 3, .+ · 4 answers$/);
    expect(metas[1]).toMatch(/^Mar 2, .+ · 1 answer$/);
  });

  it('lists the stored conversations as the engine orders them (newest first) and searches their titles', async () => {
    const h = renderWithFake(<Harness />, handlers());
    await waitFor(() => expect(items()).toEqual(['Who bakes the bread?', 'How often are the deploy keys rotated?']));
    fireEvent.change(screen.getByTestId('conversation-search'), { target: { value: 'deploy' } });
    await waitFor(() => expect(items()).toEqual(['How often are the deploy keys rotated?']));
    expect(callsOf(h, 'conversations').at(-1)).toEqual({ query: 'deploy' });
  });

  it('reopens a conversation as it was: its answers, checked citations and budget; a removed answer says so; follow-ups continue it', async () => {
    const h = renderWithFake(<Harness />, handlers());
    await waitFor(() => expect(items()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'How often are the deploy keys rotated?' }));

    await screen.findByText(/Every 90 days/);
    expect(screen.getByTestId('citation-chip').className).toMatch(/supported/);
    expect(within(screen.getByTestId('budget-meter')).getByText(/4,321|4321/)).toBeTruthy();
    expect(screen.getByTestId('removed-turn').textContent).toContain('And the old keys?');
    expect(screen.getByTestId('removed-turn').textContent).toContain('removed');
    expect(window.location.hash).toBe('#conversation=1');
    expect(screen.getByRole('button', { name: 'How often are the deploy keys rotated?' }).getAttribute('aria-current')).toBe('true');

    // The follow-up names the conversation and sends the answered turn as history (the removed one has no answer).
    fireEvent.change(screen.getByTestId('question'), { target: { value: 'Who rotates them?' } });
    fireEvent.keyDown(screen.getByTestId('question'), { key: 'Enter' });
    await waitFor(() => expect(callsOf(h, 'ask')).toHaveLength(1));
    expect(callsOf(h, 'ask')[0]).toEqual({ question: 'Who rotates them?', history: [{ question: 'How often are the deploy keys rotated?', answer: `Every 90 days [${K0}].` }], conversationId: 1, collections: [] });
    const before = callsOf(h, 'conversations').length;
    act(() => h.emit(askJobEvent('job-1', { type: 'done', result: answerResult({ runId: 13, question: 'Who rotates them?', answer: 'Ops.', conversationId: 1 }) })));
    // A stored turn refreshes the list (its order may change).
    await waitFor(() => expect(callsOf(h, 'conversations').length).toBeGreaterThan(before));
  });

  it('a new conversation gets its id from the first answer, kept in the address', async () => {
    const h = renderWithFake(<Harness />, handlers());
    fireEvent.change(screen.getByTestId('question'), { target: { value: 'Who bakes the bread?' } });
    fireEvent.keyDown(screen.getByTestId('question'), { key: 'Enter' });
    await waitFor(() => expect(callsOf(h, 'ask')).toEqual([{ question: 'Who bakes the bread?', collections: [] }]));
    act(() => h.emit(askJobEvent('job-1', { type: 'done', result: answerResult({ question: 'Who bakes the bread?', answer: 'Sam.', conversationId: 2 }) })));
    await waitFor(() => expect(window.location.hash).toBe('#conversation=2'));
  });

  it('a reload reopens the conversation named in the address; one deleted meanwhile says so and starts afresh', async () => {
    window.history.replaceState(null, '', '#conversation=1');
    const h = renderWithFake(<Harness />, handlers());
    await screen.findByText(/Every 90 days/);
    expect(callsOf(h, 'conversation')[0]).toEqual({ id: 1 });
    h.unmount();

    window.history.replaceState(null, '', '#conversation=5');
    renderWithFake(<Harness />, handlers());
    await screen.findByText(/no longer exists/);
    await waitFor(() => expect(window.location.hash).toBe(''));
  });

  it('renames in place', async () => {
    let title = 'Who bakes the bread?';
    const h = renderWithFake(
      <Harness />,
      handlers({
        conversations: () => ({ conversations: [{ ...summary(2, title) }] }),
        renameConversation: (input: { title: string }) => {
          title = input.title;
          return { title };
        },
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Rename “Who bakes the bread?”' }));
    fireEvent.change(screen.getByTestId('conversation-title-input'), { target: { value: 'Bread duty' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(items()).toEqual(['Bread duty']));
    expect(callsOf(h, 'renameConversation')).toEqual([{ id: 2, title: 'Bread duty' }]);
  });

  it('deletes after asking, and closes the conversation if it was open', async () => {
    let list = LIST;
    const h = renderWithFake(
      <Harness />,
      handlers({
        conversations: () => ({ conversations: list }),
        deleteConversation: ({ id }: { id: number }) => {
          list = list.filter((c) => c.id !== id);
          return { runs: 2 };
        },
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'How often are the deploy keys rotated?' }));
    await screen.findByText(/Every 90 days/);
    fireEvent.click(screen.getByRole('button', { name: 'Delete “How often are the deploy keys rotated?”' }));
    // Nothing is deleted until confirmed.
    expect(callsOf(h, 'deleteConversation')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete conversation' }));
    await waitFor(() => expect(items()).toEqual(['Who bakes the bread?']));
    expect(callsOf(h, 'deleteConversation')).toEqual([{ id: 1 }]);
    expect(screen.queryByText(/Every 90 days/)).toBeNull();
    expect(window.location.hash).toBe('');
  });
});
