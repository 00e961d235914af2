import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useConversation } from './conversation';
import { answerResult, askJobEvent, renderWithFake } from '../../test/harness';
import { AskView } from './AskView';

function Harness() {
  const conversation = useConversation();
  return <AskView conversation={conversation} suggestions={[]} focusTick={0} />;
}

const original = Element.prototype.scrollIntoView;
afterEach(() => {
  Element.prototype.scrollIntoView = original;
});

describe('asking in a conversation', () => {
  it('brings each new question into view, so a follow-up under a long answer is not asked off screen', async () => {
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this.textContent ?? '');
    });
    let n = 0;
    const h = renderWithFake(<Harness />, { ask: () => ({ jobId: `job-${++n}` }), cancel: () => ({ cancelled: true }), search: () => ({}) });
    const ask = async (q: string) => {
      fireEvent.change(screen.getByTestId('question'), { target: { value: q } });
      fireEvent.keyDown(screen.getByTestId('question'), { key: 'Enter' });
      await waitFor(() => expect(h.transport.calls.filter((c) => c.method === 'ask')).toHaveLength(n));
    };
    await ask('What does the borrow checker do?');
    act(() => h.emit(askJobEvent('job-1', { type: 'done', result: answerResult({ answer: 'It checks borrows.' }) })));
    await waitFor(() => expect(screen.getByTestId('question')).not.toHaveProperty('disabled', true));
    scrolled.length = 0;
    await ask('And lifetimes?');
    await waitFor(() => expect(scrolled.some((t) => t.includes('And lifetimes?'))).toBe(true));
    expect(scrolled.some((t) => t.includes('What does the borrow checker do?'))).toBe(false);
  });
});
