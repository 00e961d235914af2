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
