import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyCommand } from './CopyCommand';

describe('CopyCommand', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('copies the command and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    render(<CopyCommand command="ollama serve" />);
    expect(screen.getByText('ollama serve').tagName).toBe('CODE');
    fireEvent.click(screen.getByRole('button', { name: 'Copy ollama serve' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Copied to the clipboard.'));
    expect(writeText).toHaveBeenCalledWith('ollama serve');
    expect(screen.getByRole('button', { name: 'Copy ollama serve' }).textContent).toBe('Copied');
  });

  it('says to copy by hand when the page may not write the clipboard', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    document.execCommand = () => false;
    render(<CopyCommand command="ollama serve" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy ollama serve' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Could not copy; select the command and copy it by hand.'));
  });
});
