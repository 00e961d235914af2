import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/contract';
import { messageFor } from '../../api/messages';
import { renderWithFake } from '../../test/harness';
import { IndexStorage } from './IndexStorage';

describe('IndexStorage', () => {
  it('shows what the indexes take and removes them after confirming', async () => {
    let storage = { indexes: 3, bytes: 5_000_000 };
    const h = renderWithFake(<IndexStorage refreshKey={0} running={false} />, {
      evalStorage: () => storage,
      clearEvalIndexes: () => {
        const before = storage;
        storage = { indexes: 0, bytes: 0 };
        return before;
      },
    });
    expect((await screen.findByTestId('eval-storage-size')).textContent).toMatch(/^3 kept, 5(\.0)? MB\./);
    fireEvent.click(screen.getByTestId('eval-storage-clear'));
    const dialog = screen.getByRole('alertdialog');
    expect(h.transport.calls.some((c) => c.method === 'clearEvalIndexes')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove indexes' }));
    await waitFor(() => expect(screen.getByTestId('eval-storage-size').textContent).toMatch(/^None kept/));
    expect(screen.queryByTestId('eval-storage-clear')).toBeNull();
  });

  it('cannot remove them while a run uses them, and says why a removal was refused', async () => {
    const handlers = {
      evalStorage: () => ({ indexes: 1, bytes: 1000 }),
      clearEvalIndexes: () => {
        throw new ApiError('EVAL_ALREADY_RUNNING', 'An evaluation is using the indexes.');
      },
    };
    const busy = renderWithFake(<IndexStorage refreshKey={0} running={true} />, handlers);
    expect(((await screen.findByTestId('eval-storage-clear')) as HTMLButtonElement).disabled).toBe(true);
    busy.unmount();
    renderWithFake(<IndexStorage refreshKey={0} running={false} />, handlers);
    fireEvent.click(await screen.findByTestId('eval-storage-clear'));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove indexes' }));
    expect((await screen.findByRole('alert')).textContent).toContain(messageFor('EVAL_ALREADY_RUNNING'));
  });
});
