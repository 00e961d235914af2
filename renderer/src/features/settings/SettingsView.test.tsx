import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError, type Output } from '../../../../shared/contract';
import { renderWithFake } from '../../test/harness';
import { settingsView } from '../../test/settings-fixtures';

type Settings = Output<'getSettings'>;
import { SettingsView } from './SettingsView';

const settings = settingsView();
const model = { name: 'llama3.2:latest', size: 2_000_000_000, digest: 'be2b049c1bb6', family: 'llama', parameterSize: '3.2B', quantization: 'Q4_K_M', modifiedAt: '2026-03-01T10:00:00Z' };

describe('Settings after a new Ollama host is saved', () => {
  it('says beside Save that nothing answers at the new host, rather than only "Saved." with the error far below', async () => {
    let current = settings;
    renderWithFake(<SettingsView />, {
      getSettings: () => current,
      setSettings: (patch: Partial<Settings>) => (current = { ...current, ...patch } as Settings),
      listModels: () => {
        if (current.ollamaHost !== settings.ollamaHost) throw new ApiError('OLLAMA_UNREACHABLE', 'connect ECONNREFUSED 127.0.0.1:9');
        return { models: [model] };
      },
      vectorStores: () => ({ stores: [] }),
    });
    fireEvent.change(await screen.findByLabelText('Ollama host'), { target: { value: 'http://127.0.0.1:9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const note = await screen.findByTestId('host-unanswered');
    expect(note.textContent).toMatch(/^Saved, but nothing answers at http:\/\/127\.0\.0\.1:9: /);
    // Beside the Save button: inside the form, not under the model list.
    expect(note.closest('form')).not.toBeNull();
    // Back to a host that answers, the note goes.
    fireEvent.change(screen.getByLabelText('Ollama host'), { target: { value: settings.ollamaHost } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(screen.queryByTestId('host-unanswered')).toBeNull());
  });

  it('a slow failure from the host left behind (its retries take seconds) does not overwrite the list from the host saved after it', async () => {
    let current = settings;
    let failLate: (() => void) | null = null;
    renderWithFake(<SettingsView />, {
      getSettings: () => current,
      setSettings: (patch: Partial<Settings>) => (current = { ...current, ...patch } as Settings),
      listModels: () => {
        if (current.ollamaHost === settings.ollamaHost) return { models: [model] };
        return new Promise((_, reject) => {
          failLate = () => reject(new ApiError('OLLAMA_UNREACHABLE', 'connect ECONNREFUSED 127.0.0.1:9'));
        });
      },
      vectorStores: () => ({ stores: [] }),
    });
    const host = await screen.findByLabelText('Ollama host');
    fireEvent.change(host, { target: { value: 'http://127.0.0.1:9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(failLate).not.toBeNull());
    // Corrected before the wrong host's list request gave up.
    fireEvent.change(host, { target: { value: settings.ollamaHost } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Saved.');
    await act(async () => failLate!());
    await waitFor(() => expect(screen.getByText('llama3.2:latest')).toBeTruthy());
    expect(screen.queryByTestId('host-unanswered')).toBeNull();
    expect(document.body.textContent).not.toContain('ECONNREFUSED');
  });
});

