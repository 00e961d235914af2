import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/contract';
import type { SavedQuestion } from '../../../../shared/eval';
import { messageFor } from '../../api/messages';
import { newTurn, type Turn } from './turn';
import type { AnswerResult, Citation } from '../../common/types';
import { answerResult, renderWithFake } from '../../test/harness';
import { AnswerView } from './AnswerView';

const cite = (chunkId: string, check: Citation['check'], sentence: string): Citation => ({ chunkId, path: 'ops/keys.md', lines: [3, 4], pages: null, sentence, check, missing: [] });

function finished(question: string, result: Partial<AnswerResult>): Turn {
  const r = answerResult({ question, ...result });
  return { ...newTurn(1, question), running: false, result: r, text: r.answer };
}

const savedFact: SavedQuestion = { id: 'saved-1', question: 'How often are the deploy keys rotated?', expect: { chunkFact: 'We rotate the deploy keys every 90 days.', answerable: true }, root: '/notes', createdAt: '2026-03-01T10:00:00Z' };

describe('Save as test', () => {
  it('saves an answer with its supported citation, then says what it expects and cannot be saved twice', async () => {
    const h = renderWithFake(
      <AnswerView
        turn={finished('How often are the deploy keys rotated?', {
          answer: 'Every 90 days [d#2].',
          citations: [cite('d#1', 'weak', 'Something weak.'), cite('d#2', 'supported', 'Every 90 days.')],
        })}
        onOpenSource={() => {}}
      />,
      { saveAsTest: () => savedFact },
    );
    const button = screen.getByTestId('save-as-test') as HTMLButtonElement;
    fireEvent.click(button);
    await waitFor(() =>
      expect(h.transport.calls.find((c) => c.method === 'saveAsTest')?.input).toEqual({
        expect: 'fact',
        question: 'How often are the deploy keys rotated?',
        chunkId: 'd#2',
        sentence: 'Every 90 days.',
      }),
    );
    expect((await screen.findByTestId('save-as-test-saved')).textContent).toBe('Saved for Evaluate: expects a passage containing “We rotate the deploy keys every 90 days.”');
    expect(button.disabled).toBe(true);
    expect(button.textContent).toBe('✓ Saved as test');
    fireEvent.click(button);
    expect(h.transport.calls.filter((c) => c.method === 'saveAsTest')).toHaveLength(1);
  });

  it('saves a refusal as a question that expects a refusal', async () => {
    const h = renderWithFake(<AnswerView turn={finished('What is the wifi password?', { status: 'refused', refused: true, answer: 'Not in the documents.' })} onOpenSource={() => {}} />, {
      saveAsTest: () => ({ id: 'saved-2', question: 'What is the wifi password?', expect: { answerable: false }, root: null, createdAt: '2026-03-01T10:00:00Z' }),
    });
    fireEvent.click(screen.getByTestId('save-as-test'));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'saveAsTest')?.input).toEqual({ expect: 'refusal', question: 'What is the wifi password?' }));
    expect((await screen.findByTestId('save-as-test-saved')).textContent).toBe('Saved for Evaluate: expects a refusal.');
  });

  it('shows an error as a sentence and lets the person try again', async () => {
    let fail = true;
    renderWithFake(<AnswerView turn={finished('Q?', { answer: 'A [d#1].', citations: [cite('d#1', 'supported', 'A.')] })} onOpenSource={() => {}} />, {
      saveAsTest: () => {
        if (fail) throw new ApiError('NOT_FOUND_IN_INDEX', 'chunk d#1 is not in the index');
        return savedFact;
      },
    });
    fireEvent.click(screen.getByTestId('save-as-test'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(messageFor('NOT_FOUND_IN_INDEX'));
    expect((screen.getByTestId('save-as-test') as HTMLButtonElement).disabled).toBe(false);
    fail = false;
    fireEvent.click(screen.getByTestId('save-as-test'));
    await screen.findByTestId('save-as-test-saved');
  });

  it('is not offered while streaming, nor for an answer without a usable citation', () => {
    renderWithFake(<AnswerView turn={{ ...newTurn(1, 'Q?'), text: 'partial' }} onOpenSource={() => {}} />);
    expect(screen.queryByTestId('save-as-test')).toBeNull();
    renderWithFake(<AnswerView turn={finished('Q?', { answer: 'Uncited.', citations: [] })} onOpenSource={() => {}} />);
    expect(screen.queryByTestId('save-as-test')).toBeNull();
  });
});
