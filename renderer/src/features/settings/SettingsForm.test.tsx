import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type Output } from '../../../../shared/contract';
import { renderWithFake } from '../../test/harness';
import { settingsView } from '../../test/settings-fixtures';

type Settings = Output<'getSettings'>;
import { SettingsForm } from './SettingsForm';
import { splitFusion } from './FusionField';

const settings = settingsView({
  ollamaHeaders: [
    { name: 'Authorization', source: 'settings' },
    { name: 'X-Team', source: 'environment' },
  ],
  ollamaHeaderStorage: { sealed: true, detail: 'Saved values are encrypted with the macOS Keychain.' },
});
const setCalls = (h: { transport: { calls: Array<{ method: string; input: unknown }> } }) => h.transport.calls.filter((c) => c.method === 'setSettings').map((c) => c.input);

describe('SettingsForm', () => {
  it('before a new chunk size is saved, says how much its next Re-sync cuts again and re-embeds', () => {
    renderWithFake(<SettingsForm settings={settings} models={null} onSaved={() => {}} indexed={{ documents: 412, chunks: 1883 }} />);
    const field = screen.getByLabelText('Chunk size (tokens)');
    expect(screen.queryByTestId('recut-cost')).toBeNull();
    fireEvent.change(field, { target: { value: '512' } });
    expect(screen.getByTestId('recut-cost').textContent).toBe('At each folder’s next import or Re-sync, 412 documents are cut again and 1,883 chunks’ worth of text re-embedded.');
    // Back to the saved size, or a size the table refuses: nothing to warn about.
    fireEvent.change(field, { target: { value: '256' } });
    expect(screen.queryByTestId('recut-cost')).toBeNull();
    fireEvent.change(field, { target: { value: '10' } });
    expect(screen.queryByTestId('recut-cost')).toBeNull();
  });

  it('says a new chunk size reaches every file of a folder at its next Re-sync (cut again and re-embedded), not only files added later', () => {
    renderWithFake(<SettingsForm settings={settings} models={null} onSaved={() => {}} />);
    const hint = document.getElementById(screen.getByLabelText('Chunk size (tokens)').getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toBe('Used by the next import or Re-sync of a folder: all its files are cut again and re-embedded');
  });

  it('a value out of its bounds or form is named at its own field and nothing is sent, rather than an error about "setSettings" under the form', async () => {
    const h = renderWithFake(<SettingsForm settings={settings} models={null} onSaved={() => {}} />, { setSettings: () => settings });
    fireEvent.change(screen.getByLabelText('Hybrid fusion: method'), { target: { value: 'weighted' } });
    fireEvent.change(screen.getByLabelText("Vectors' share (w)"), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Passages per answer (k)'), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const fusion = screen.getByLabelText("Vectors' share (w)");
    await waitFor(() => expect(fusion.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('setting-fusion-error')?.textContent).toBe("Hybrid fusion: Vectors' share (w) takes a number from 0 to 1");
    expect(fusion.getAttribute('aria-describedby')).toContain('setting-fusion-error');
    expect(document.getElementById('setting-k-error')?.textContent).toBe('Passages per answer (k) takes a whole number from 1 to 20');
    expect(screen.getByRole('alert').textContent).toBe('Nothing was saved: 2 settings need a correction.');
    expect(document.body.textContent).not.toContain('setSettings');
    expect(setCalls(h)).toEqual([]);
    // Corrected, the field's note goes and the save goes through.
    fireEvent.change(fusion, { target: { value: '0.3' } });
    fireEvent.change(screen.getByLabelText('Passages per answer (k)'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(setCalls(h)).toEqual([{ fusion: 'weighted:0.3', k: 3 }]));
    expect(fusion.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById('setting-fusion-error')).toBeNull();
  });

  it('offers the search mode by what it does, says when to choose keyword only, and saves the setting; the fusion says it only matters in hybrid', async () => {
    const h = renderWithFake(<SettingsForm settings={settings} models={null} onSaved={() => {}} />, { setSettings: () => settingsView({ searchMode: 'lexical' }) });
    const mode = screen.getByLabelText('Search mode') as HTMLSelectElement;
    expect(mode.value).toBe('hybrid');
    expect([...mode.options].map((o) => [o.value, o.textContent])).toEqual([
      ['lexical', 'Keyword only (lexical)'],
      ['dense', 'Meaning only (dense)'],
      ['hybrid', 'Keyword and meaning (hybrid)'],
    ]);
    const hint = document.getElementById(mode.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toMatch(/Choose keyword only when your embedding model is weak/);
    expect(screen.queryByTestId('fusion-unused')).toBeNull();
    fireEvent.change(mode, { target: { value: 'lexical' } });
    expect(screen.getByTestId('fusion-unused').textContent).toBe('Used only by hybrid search: with the search mode “Keyword only (lexical)” it changes nothing.');
    expect(screen.getByLabelText('Rank constant (k)').getAttribute('aria-describedby')).toContain('setting-fusion-unused');
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(setCalls(h)).toEqual([{ searchMode: 'lexical' }]));
  });

  it('offers hybrid fusion as a method and its number, not a spec to type, and saves the same setting string', async () => {
    const h = renderWithFake(<SettingsForm settings={{ ...settings, fusion: 'weighted:0.25' }} models={null} onSaved={() => {}} />, { setSettings: () => settings });
    const method = screen.getByLabelText('Hybrid fusion: method') as HTMLSelectElement;
    expect(method.tagName).toBe('SELECT');
    expect([...method.options].map((o) => o.textContent)).toEqual(['Reciprocal rank', 'Weighted']);
    expect(method.value).toBe('weighted');
    const share = screen.getByLabelText("Vectors' share (w)") as HTMLInputElement;
    expect([share.type, share.value, share.min, share.max]).toEqual(['number', '0.25', '0', '1']);
    // Choosing the other method offers its usual number, with its own bounds.
    fireEvent.change(method, { target: { value: 'rrf' } });
    const k = screen.getByLabelText('Rank constant (k)') as HTMLInputElement;
    expect([k.value, k.min, k.max, k.step]).toEqual(['60', '1', '1000', '1']);
    fireEvent.change(k, { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(setCalls(h)).toEqual([{ fusion: 'rrf:40' }]));
  });

  it('reads a fusion spec it cannot parse as the default method, weighted, with its number left to fill', () => {
    expect(splitFusion('blend:2')).toEqual({ kind: 'weighted', number: '' });
    expect(splitFusion('rrf')).toEqual({ kind: 'rrf', number: '60' });
    expect(splitFusion('Weighted: 0.4')).toEqual({ kind: 'weighted', number: '0.4' });
  });

  it('offers the installed models in the model fields, free text still allowed', () => {
    const { container } = renderWithFake(<SettingsForm settings={settings} models={['llama3.2:latest', 'qwen2.5:0.5b']} onSaved={() => {}} />);
    expect(screen.getByLabelText('Chat model').getAttribute('list')).toBe('installed-models');
    expect(screen.getByLabelText('Embedding model').getAttribute('list')).toBe('installed-models');
    expect([...container.querySelectorAll('#installed-models option')].map((o) => o.getAttribute('value'))).toEqual(['llama3.2', 'qwen2.5:0.5b']);
  });

  it('shows header names with the values masked, and sends a new header and a removal write-only', async () => {
    const onSaved = vi.fn();
    const after: Settings = { ...settings, ollamaHeaders: [{ name: 'X-Proxy-Key', source: 'settings' }, settings.ollamaHeaders[1]!] };
    const h = renderWithFake(<SettingsForm settings={settings} models={null} onSaved={onSaved} />, { setSettings: () => after });
    expect(screen.getByTestId('saved-headers').textContent).toContain('Authorization: ••••••');
    expect(screen.getByTestId('saved-headers').textContent).toContain('X-Team: •••••• (from QUIRE_OLLAMA_HEADERS)');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.change(screen.getByLabelText('Header name'), { target: { value: 'X-Proxy-Key' } });
    fireEvent.change(screen.getByLabelText('Header value'), { target: { value: 'k-123' } });
    expect(screen.getByLabelText('Header value').getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(settings, after));
    expect(setCalls(h)).toEqual([{ ollamaHeaders: { Authorization: null, 'X-Proxy-Key': 'k-123' } }]);
    expect((screen.getByLabelText('Header value') as HTMLInputElement).value).toBe('');
  });

  it('a model Ollama lacks: the error, nothing saved, and "Save anyway" sends force', async () => {
    let attempt = 0;
    const onSaved = vi.fn();
    const h = renderWithFake(<SettingsForm settings={settings} models={['llama3.2:latest']} onSaved={onSaved} />, {
      setSettings: () => {
        if (attempt++ === 0) throw new ApiError('MODEL_NOT_FOUND', 'Ollama at http://127.0.0.1:11434 has no model "llama3.3". Installed: llama3.2.');
        return { ...settings, chatModel: 'llama3.3' };
      },
    });
    fireEvent.change(screen.getByLabelText('Chat model'), { target: { value: 'llama3.3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText(/Installed: llama3\.2/);
    expect(onSaved).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Save anyway' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(setCalls(h)).toEqual([{ chatModel: 'llama3.3' }, { chatModel: 'llama3.3', force: true }]);
    expect(screen.queryByRole('button', { name: 'Save anyway' })).toBeNull();
  });

  it('says how saved values are kept at rest, as a warning when unencrypted, and names a saved header that cannot be opened here', () => {
    const sealed = renderWithFake(<SettingsForm settings={settings} models={null} onSaved={() => {}} />);
    expect(screen.getByTestId('header-storage').textContent).toBe('Saved values are encrypted with the macOS Keychain.');
    expect(screen.getByTestId('header-storage').className).not.toContain('warning');
    sealed.unmount();

    const plain = 'Saved values are stored unencrypted in Quire\'s database (no system keychain is used here): anyone with a copy of the file can read them.';
    const unreadable = 'The saved value of the Ollama request header Authorization is sealed by the desktop app\'s keychain; requests go without it.';
    renderWithFake(
      <SettingsForm
        settings={{ ...settings, ollamaHeaders: [{ name: 'Authorization', source: 'settings', unreadable }], ollamaHeaderStorage: { sealed: false, detail: plain } }}
        models={null}
        onSaved={() => {}}
      />,
    );
    expect(screen.getByTestId('header-storage').textContent).toBe(plain);
    expect(screen.getByTestId('header-storage').className).toContain('warning');
    expect(screen.getByRole('note').textContent).toBe(unreadable);
    // Still removable or replaceable like any saved header.
    expect(screen.getByRole('checkbox')).toBeTruthy();
  });
});
