import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useConversation } from './conversation';
import { answerResult, askJobEvent, renderWithFake } from '../../test/harness';
import { AskView } from './AskView';

function Harness() {
  const conversation = useConversation();
  return <AskView conversation={conversation} suggestions={[]} focusTick={0} />;
}

const { scrollTo, getBoundingClientRect } = Element.prototype;
afterEach(() => {
  Element.prototype.scrollTo = scrollTo;
  Element.prototype.getBoundingClientRect = getBoundingClientRect;
});

describe('asking in a conversation', () => {
  it('brings each new question into view, so a follow-up under a long answer is not asked off screen', async () => {
    // jsdom lays nothing out: the conversation's scroll box sits 100 px down, the new turn 700 px, others 300 px.
    const scrolled: Array<{ box: string | null; top: number }> = [];
    Element.prototype.getBoundingClientRect = function (this: Element) {
      const top = this.getAttribute('data-testid') === 'ask-scroll' ? 100 : this.textContent?.includes('And lifetimes?') ? 700 : 300;
      return { top } as DOMRect;
    };
    Element.prototype.scrollTo = vi.fn(function (this: Element, options?: ScrollToOptions | number) {
      scrolled.push({ box: this.getAttribute('data-testid'), top: (options as ScrollToOptions).top ?? NaN });
    }) as typeof Element.prototype.scrollTo;
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
    // Only the conversation's own box scrolls (never the window), bringing the new turn to its top.
    await waitFor(() => expect(scrolled).toEqual([{ box: 'ask-scroll', top: 600 }]));
  });
});
