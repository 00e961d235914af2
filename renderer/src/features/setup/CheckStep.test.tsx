import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithFake } from '../../test/harness';
import { setupVerify } from '../../test/setup-fixtures';
import { CheckStep } from './CheckStep';

describe('CheckStep', () => {
  it('runs the check on arrival and shows what each check gave, then offers the next step', async () => {
    const onResult = vi.fn();
    const onNext = vi.fn();
    renderWithFake(<CheckStep onResult={onResult} onNext={onNext} nextLabel="Next: add your notes" />, { verifySetup: () => setupVerify() });
    const next = await screen.findByRole('button', { name: 'Next: add your notes' });
    expect(screen.getByText(/turned a sentence into 768 numbers in 45 ms/)).toBeTruthy();
    expect(screen.getByText(/answered in 2 s: “Ready\.”/)).toBeTruthy();
    expect(document.activeElement).toBe(next);
    expect(onResult).toHaveBeenLastCalledWith(true);
    fireEvent.click(next);
    expect(onNext).toHaveBeenCalledTimes(1);
  });
});

describe('CheckStep: failing', () => {
  it('shows which check failed and why, then Check again runs it anew', async () => {
    const onResult = vi.fn();
    let answer = setupVerify({ chat: { ok: false, reply: null, ms: 30, error: { code: 'MODEL_NOT_FOUND', message: "model 'qwen3:4b' not found" } } });
    const h = renderWithFake(<CheckStep onResult={onResult} onNext={() => {}} nextLabel="Next: add your notes" />, { verifySetup: () => answer });
    const again = await screen.findByRole('button', { name: 'Check again' });
    expect(onResult).toHaveBeenLastCalledWith(false);
    const [embedding, chat] = screen.getAllByRole('listitem');
    expect(embedding!.getAttribute('data-check')).toBe('ok');
    expect(chat!.getAttribute('data-check')).toBe('failed');
    expect(chat!.textContent).toContain('That model is not installed in Ollama.');
    expect(chat!.textContent).toContain("model 'qwen3:4b' not found");
    expect(screen.getByRole('button', { name: 'Continue anyway' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Next: add your notes' })).toBeNull();

    answer = setupVerify();
    fireEvent.click(again);
    await screen.findByRole('button', { name: 'Next: add your notes' });
    expect(h.transport.calls.filter((c) => c.method === 'verifySetup')).toHaveLength(2);
    expect(onResult).toHaveBeenLastCalledWith(true);
  });

  it('a check that cannot run at all (Ollama gone) is one sentence, its command as code', async () => {
    const onNext = vi.fn();
    renderWithFake(<CheckStep onResult={() => {}} onNext={onNext} nextLabel="Next" />, {
      verifySetup: () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), { code: 'OLLAMA_UNREACHABLE' });
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Ollama is not running or cannot be reached. Start it with "ollama serve".');
    expect(alert.textContent).not.toContain('`');
    expect(screen.queryByRole('listitem')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Continue anyway' }));
    expect(onNext).toHaveBeenCalledTimes(1);
  });
});
