import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithFake } from '../../test/harness';
import { setupStatus } from '../../test/setup-fixtures';
import { Suggestions } from './Suggestions';
import { TryAsking } from './TryAsking';

const QUESTIONS = ['How often are the deploy keys rotated?', 'When does the beta start?'];

describe('Suggestions', () => {
  it('offers the questions when an answer can be given', () => {
    const onPick = vi.fn();
    render(<Suggestions questions={QUESTIONS} canAnswer onPick={onPick} />);
    expect(screen.getByRole('heading', { name: 'Try asking' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'When does the beta start?' }));
    expect(onPick).toHaveBeenCalledWith('When does the beta start?');
  });

  it('says only keyword search is available, and offers no question, when none can be answered', () => {
    const onSetup = vi.fn();
    render(<Suggestions questions={QUESTIONS} canAnswer={false} onPick={() => {}} onSetup={onSetup} />);
    expect(screen.queryByRole('heading', { name: 'Try asking' })).toBeNull();
    expect(screen.queryByTestId('suggestion')).toBeNull();
    expect(screen.getByTestId('keyword-only-note').textContent).toContain('Quire cannot answer questions yet: answers need Ollama and a chat model.');
    fireEvent.click(screen.getByRole('button', { name: 'Set up Ollama' }));
    expect(onSetup).toHaveBeenCalledTimes(1);
  });

  it('shows nothing while it is not yet known', () => {
    const { container } = render(<Suggestions questions={QUESTIONS} canAnswer={null} onPick={() => {}} />);
    expect(container.textContent).toBe('');
  });
});

describe('TryAsking', () => {
  it('asks setupStatus whether an answer can be given', async () => {
    renderWithFake(<TryAsking questions={QUESTIONS} onPick={() => {}} />, { setupStatus: () => setupStatus('embedding-only', { documents: 4, canAnswer: false }) });
    await screen.findByTestId('keyword-only-note');
    expect(screen.queryByTestId('suggestion')).toBeNull();
  });

  it('offers the questions once setupStatus says an answer can be given', async () => {
    renderWithFake(<TryAsking questions={QUESTIONS} onPick={() => {}} />, { setupStatus: () => setupStatus('ready', { documents: 4, canAnswer: true }) });
    expect(await screen.findAllByTestId('suggestion')).toHaveLength(2);
  });
});
