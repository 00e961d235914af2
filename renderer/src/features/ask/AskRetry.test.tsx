import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useConversation } from './conversation';
import { answerResult, askJobEvent, renderWithFake } from '../../test/harness';
import { AskView } from './AskView';

function Harness() {
  const conversation = useConversation();
  return <AskView conversation={conversation} suggestions={[]} focusTick={0} />;
}

const UNREACHABLE = { code: 'OLLAMA_UNREACHABLE', message: 'Ollama is not reachable at http://127.0.0.1:11434. Start it with "ollama serve", or set OLLAMA_HOST.' };

function start() {
  let n = 0;
  const h = renderWithFake(<Harness />, { ask: () => ({ jobId: `job-${++n}` }), cancel: () => ({ cancelled: true }), search: () => ({}) });
  const asks = () => h.transport.calls.filter((c) => c.method === 'ask').map((c) => (c.input as { question: string }).question);
  const ask = async (q: string) => {
    fireEvent.change(screen.getByTestId('question'), { target: { value: q } });
    fireEvent.keyDown(screen.getByTestId('question'), { key: 'Enter' });
    await waitFor(() => expect(asks()).toHaveLength(n));
  };
  const fail = (jobId: string, question: string) =>
    act(() => h.emit(askJobEvent(jobId, { type: 'error', error: UNREACHABLE, result: answerResult({ status: 'error', question, answer: '', error: UNREACHABLE, conversationId: undefined }) })));
  return { h, asks, ask, fail };
}

describe('a question that got no answer', () => {
  it('keeps its question in the box, offers Retry, and is no follow-up of anything', async () => {
    const { asks, ask, fail } = start();
    await ask('How often are the deploy keys rotated?');
    fail('job-1', 'How often are the deploy keys rotated?');
    const box = screen.getByTestId('question') as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe('How often are the deploy keys rotated?'));
    // Nothing was answered: the box asks a first question, not a follow-up.
    expect(screen.getByLabelText('Ask your notes')).toBe(box);
    expect(screen.getByText(/Not added to the conversation/)).toBeTruthy();

    fireEvent.click(screen.getByTestId('retry'));
    await waitFor(() => expect(asks()).toEqual(['How often are the deploy keys rotated?', 'How often are the deploy keys rotated?']));
    // Asked again in its place: one turn, not the failed one and its retry.
    expect(screen.getAllByText('How often are the deploy keys rotated?', { selector: '.turn__question' })).toHaveLength(1);
    expect(screen.queryByTestId('retry')).toBeNull();
  });

  it('after an answer, a failed follow-up keeps the conversation a conversation, and a question being typed is not overwritten', async () => {
    const { h, ask, fail } = start();
    await ask('Who owns the rotation?');
    act(() => h.emit(askJobEvent('job-1', { type: 'done', result: answerResult({ answer: 'The platform team.', conversationId: 4 }) })));
    await waitFor(() => expect(screen.getByLabelText('Ask a follow-up')).toBeTruthy());
    await ask('And how often?');
    fireEvent.change(screen.getByTestId('question'), { target: { value: 'Something else' } });
    fail('job-2', 'And how often?');
    await screen.findByTestId('retry');
    expect((screen.getByTestId('question') as HTMLTextAreaElement).value).toBe('Something else');
    expect(screen.getByLabelText('Ask a follow-up')).toBeTruthy();
    // Only the failed turn offers Retry; the answered one does not.
    expect(screen.getAllByTestId('retry')).toHaveLength(1);
  });
});
