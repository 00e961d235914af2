import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { budget } from '../../test/harness';
import { BudgetMeter, meterSegments } from './BudgetMeter';

const width = (container: HTMLElement, key: string) => (container.querySelector(`[data-segment="${key}"]`) as HTMLElement).style.width;

describe('BudgetMeter', () => {
  it('says how many of the passages asked for were sent, and why fewer', () => {
    const { rerender } = render(<BudgetMeter budget={budget({ k: 6, passages: { asked: 6, found: 6, heldBy: null } })} />);
    expect(screen.getByTestId('budget-passages').textContent).toBe('6 passages (k = 6)');
    rerender(<BudgetMeter budget={budget({ k: 4, passages: { asked: 6, found: 6, heldBy: 'source-budget' } })} />);
    const held = screen.getByTestId('budget-passages');
    expect(held.firstChild!.textContent).toBe('4 of 6 passages fit');
    expect(held.getAttribute('title')).toBe('2 passages found were not sent: the tokens set aside for sources were spent. Settings ask for up to 6 (k).');
    rerender(<BudgetMeter budget={budget({ k: 5, numCtx: 4096, passages: { asked: 6, found: 6, heldBy: 'window' } })} />);
    expect(screen.getByTestId('budget-passages').getAttribute('title')).toBe('1 passage found was not sent: the context window (num_ctx 4,096) had room for no more with the answer reserve. Settings ask for up to 6 (k).');
    rerender(<BudgetMeter budget={budget({ k: 1, passages: { asked: 6, found: 1, heldBy: null } })} />);
    expect(screen.getByTestId('budget-passages').firstChild!.textContent).toBe('1 passage found (k = 6)');
  });

  it('splits num_ctx into segments proportional to the breakdown, with the rest free', () => {
    const { container } = render(<BudgetMeter budget={budget()} />);
    // numCtx 8000: 400 / 800 / 3200 / 100 / 1500 used, 2000 free.
    expect(width(container, 'system')).toBe('5%');
    expect(width(container, 'history')).toBe('10%');
    expect(width(container, 'sources')).toBe('40%');
    expect(width(container, 'question')).toBe('1.25%');
    expect(width(container, 'reserve')).toBe('18.75%');
    expect(width(container, 'free')).toBe('25%');
    expect(container.querySelector('[data-legend="sources"]')!.textContent).toContain('3,200');
    expect(container.querySelector('[data-legend="free"]')!.textContent).toContain('2,000');
  });

  it('scales to the total when the parts overflow num_ctx, leaving nothing free', () => {
    const segs = meterSegments(budget({ numCtx: 4000, breakdown: { system: 1000, history: 0, sources: 6000, question: 500, reserve: 500 } }));
    const pct = Object.fromEntries(segs.map((s) => [s.key, s.pct]));
    expect(pct).toEqual({ system: 12.5, history: 0, sources: 75, question: 6.25, reserve: 6.25, free: 0 });
  });

  it('shows estimate, what Ollama read and the calibration ratio', () => {
    render(<BudgetMeter budget={budget()} />);
    expect(screen.getByText(/estimated 5,100 · Ollama read 5,050 · calibration ×\s*1\.02/)).toBeTruthy();
  });

  it('says whether the count is exact or approximate, and drops the calibration when exact', () => {
    const { rerender } = render(<BudgetMeter budget={budget()} />);
    expect(screen.getByTestId('budget-accuracy').textContent).toBe('approximate');
    rerender(<BudgetMeter budget={budget({ exact: true, estimated: 5050, ratio: 1 })} />);
    expect(screen.getByTestId('budget-accuracy').textContent).toBe('exact');
    expect(screen.getByText(/counted 5,050 · Ollama read 5,050/).textContent).not.toMatch(/calibration/);
  });

  it('with an exact count, tells the cut for certain and names the lost sources', () => {
    render(<BudgetMeter budget={budget({ exact: true, estimated: 5050, reported: 4000, truncationSuspected: true, lostSources: [1, 2], k: 6 })} />);
    expect(screen.getByTestId('truncation-warning').textContent).toBe('Ollama cut the prompt: it read 4,000 of 5,050 tokens. It lost sources 1, 2 of 6. Raise num_ctx or lower k.');
  });

  it('shows a dash while Ollama has not reported yet', () => {
    render(<BudgetMeter budget={budget({ reported: null })} />);
    expect(screen.getByText(/Ollama read — ·/)).toBeTruthy();
  });

  it('warns only when truncation is suspected', () => {
    const { rerender } = render(<BudgetMeter budget={budget()} />);
    expect(screen.queryByTestId('truncation-warning')).toBeNull();
    rerender(<BudgetMeter budget={budget({ reported: 900, truncationSuspected: true })} />);
    const warning = screen.getByTestId('truncation-warning');
    expect(warning.textContent).toBe('Ollama read far fewer tokens than were sent — the prompt was probably cut. Raise num_ctx or lower k.');
    expect(warning.getAttribute('role')).toBe('alert');
  });

  it('keeps its place with a placeholder before the budget is known', () => {
    render(<BudgetMeter budget={null} />);
    expect(screen.getByTestId('budget-meter').textContent).toMatch(/appears once the prompt is built/);
    expect(screen.queryByTestId('truncation-warning')).toBeNull();
  });
});
