import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandBlock } from './CommandBlock';

describe('CommandBlock', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('copies the command and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    render(<CommandBlock command="ollama serve" label="start Ollama" />);
    expect(screen.getByText('ollama serve').tagName).toBe('CODE');
    fireEvent.click(screen.getByRole('button', { name: 'Copy the command to start Ollama' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Copied to the clipboard.'));
    expect(writeText).toHaveBeenCalledWith('ollama serve');
    expect(screen.getByRole('button', { name: 'Copy the command to start Ollama' }).textContent).toBe('Copied');
  });

  it('says to copy by hand when the page may not write the clipboard', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    document.execCommand = () => false;
    render(<CommandBlock command="ollama serve" label="start Ollama" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy the command to start Ollama' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Could not copy; select the command and copy it by hand.'));
  });
});
