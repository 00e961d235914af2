import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Output } from '../../../shared/contract';
import type { EvalConfigResult } from '../../../shared/eval';
import { createFakeClient } from '../api/fake-transport';
import { SearchBox } from '../features/ask/SearchBox';
import { useEvalSetupData } from '../features/evaluate/eval-setup-data';
import { UseConfiguration } from '../features/evaluate/UseConfiguration';
import { SettingsView } from '../features/settings/SettingsView';
import { metrics, report } from '../test/eval-fixtures';
import { renderWithFake } from '../test/harness';
import { settingsView } from '../test/settings-fixtures';
import { createJobHub } from './job-hub';
import { createSettingsStore } from './settings-store';

type Settings = Output<'getSettings'>;

/**
 * The views that read the settings, on screen together: what one of them saves (or what is saved
 * elsewhere, once the window is back in front) is what the others show, without a reload.
 */

/** The saved settings behind a fake engine: setSettings merges a patch, getSettings reads them. */
function backend(start: Settings = settingsView()) {
  const saved = { current: start };
  return {
    saved,
    handlers: {
      getSettings: () => saved.current,
      setSettings: ({ force: _force, ...patch }: Partial<Settings> & { force?: boolean }) => (saved.current = { ...saved.current, ...patch }),
      listModels: () => ({ models: [] }),
      status: () => STATUS,
      vectorStores: () => ({ stores: [] }),
      library: () => ({ collections: [] }),
    },
  };
}

const STATUS: Output<'status'> = {
  ollama: { host: 'http://127.0.0.1:11434', connected: true, version: '0.12.6', error: null, remote: false, headers: [] },
  chatModel: 'llama3.2',
  documents: { ready: 0, needsEmbedding: 0, skipped: 0, error: 0, total: 0 },
  chunks: 0,
  migration: null,
  collections: 0,
  activeModel: null,
  desktop: false,
  evaluation: null,
};

/** What the Evaluate form starts its grid from. */
function EvalDefaults() {
  const { settings } = useEvalSetupData(null, 0);
  return <p data-testid="eval-defaults">{settings ? `k=${settings.k} ${settings.searchMode}` : 'loading'}</p>;
}

const savedMode = () => (document.getElementById('search-mode') as HTMLSelectElement).options[0]!.textContent;
const settingsField = (key: string) => document.getElementById(`setting-${key}`) as HTMLInputElement | HTMLSelectElement;
const getCalls = (h: { transport: { calls: Array<{ method: string }> } }) => h.transport.calls.filter((c) => c.method === 'getSettings').length;
const setCalls = (h: { transport: { calls: Array<{ method: string; input: unknown }> } }) => h.transport.calls.filter((c) => c.method === 'setSettings').map((c) => c.input);

describe('one source of the settings for every view', () => {
  it('a save in Settings is what passage search and the Evaluate form read at once, from one read of the settings', async () => {
    const b = backend();
    const h = renderWithFake(
      <>
        <SettingsView />
        <SearchBox onOpenSource={() => {}} />
        <EvalDefaults />
      </>,
      b.handlers,
    );
    await waitFor(() => expect(savedMode()).toBe('As in Settings (hybrid)'));
    await waitFor(() => expect(screen.getByTestId('eval-defaults').textContent).toBe('k=6 hybrid'));

    fireEvent.change(settingsField('searchMode'), { target: { value: 'lexical' } });
    fireEvent.change(settingsField('k'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Saved.');
    await waitFor(() => expect(savedMode()).toBe('As in Settings (lexical)'));
    expect(screen.getByTestId('eval-defaults').textContent).toBe('k=3 lexical');
    // Read once for the three views, and taken from the save's own answer, not read again.
    expect(getCalls(h)).toBe(1);
  });

  it('"Use these settings" from a report is what the Settings form shows and passage search names', async () => {
    const b = backend();
    const lexical: EvalConfigResult = { chatModel: 'llama3.2:latest', embedModel: 'embeddinggemma:latest', chunker: 'heading:256', k: 4, mode: 'lexical', fusion: 'rrf:60', metrics: metrics({ hit1: 0.7 }), errors: 0 };
    renderWithFake(
      <>
        <UseConfiguration report={report({ configs: [lexical] })} failed={new Set()} />
        <SettingsView />
        <SearchBox onOpenSource={() => {}} />
      </>,
      b.handlers,
    );
    await waitFor(() => expect(settingsField('k').value).toBe('6'));
    fireEvent.click(screen.getByRole('button', { name: 'Use these settings…' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Use these settings' }));
    await screen.findByTestId('eval-apply-saved');
    expect(b.saved.current).toMatchObject({ k: 4, searchMode: 'lexical' });
    await waitFor(() => expect(settingsField('k').value).toBe('4'));
    expect(settingsField('searchMode').value).toBe('lexical');
    expect(savedMode()).toBe('As in Settings (lexical)');
  });

  it('a change saved elsewhere (quire settings set, another window) is read again when the window is back in front: the fields not being edited follow it, and Save sends only the one edited', async () => {
    const b = backend();
    const h = renderWithFake(
      <>
        <SettingsView />
        <SearchBox onOpenSource={() => {}} />
      </>,
      b.handlers,
    );
    await waitFor(() => expect(settingsField('k').value).toBe('6'));
    fireEvent.change(settingsField('numCtx'), { target: { value: '4096' } });
    // The CLI, in another process: no event reaches this window.
    b.saved.current = { ...b.saved.current, k: 3, searchMode: 'lexical' };
    act(() => {
      window.dispatchEvent(new FocusEvent('focus'));
    });
    await waitFor(() => expect(settingsField('k').value).toBe('3'));
    expect(settingsField('searchMode').value).toBe('lexical');
    expect(settingsField('numCtx').value).toBe('4096');
    expect(savedMode()).toBe('As in Settings (lexical)');
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Saved.');
    // The form never sends back the values it showed before: the change made elsewhere stays.
    expect(setCalls(h)).toEqual([{ numCtx: 4096 }]);
    expect(b.saved.current).toMatchObject({ k: 3, searchMode: 'lexical', numCtx: 4096 });
  });

  it('missed events (events.gap) read the settings again', async () => {
    const b = backend();
    const h = renderWithFake(<SearchBox onOpenSource={() => {}} />, b.handlers);
    await waitFor(() => expect(savedMode()).toBe('As in Settings (hybrid)'));
    b.saved.current = { ...b.saved.current, searchMode: 'dense' };
    act(() => h.emit({ type: 'events.gap' }));
    await waitFor(() => expect(savedMode()).toBe('As in Settings (dense)'));
  });
});

/** A promise settled by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

describe('the settings store', () => {
  it('a read sent before or during a save and answered after it does not bring the old values back', async () => {
    const reads: Array<ReturnType<typeof deferred<Settings>>> = [];
    const saving = deferred<Settings>();
    const { client } = createFakeClient({
      getSettings: () => {
        reads.push(deferred<Settings>());
        return reads.at(-1)!.promise;
      },
      setSettings: () => saving.promise,
    });
    const store = createSettingsStore(client, createJobHub(client));
    store.load();
    reads[0]!.resolve(settingsView());
    await waitFor(() => expect(store.state().settings?.k).toBe(6));

    const before = store.refresh(); // the window came back to the front, say
    const saved = store.save({ k: 3 });
    // Sent while the save waits for the engine (which asks Ollama about a model first): read before it is stored.
    const during = store.refresh();
    saving.resolve(settingsView({ k: 3 }));
    await saved;
    expect(store.state().settings?.k).toBe(3);
    reads[2]!.resolve(settingsView());
    await during;
    expect(store.state().settings?.k).toBe(3);
    reads[1]!.resolve(settingsView());
    await before;
    expect(store.state().settings?.k).toBe(3);
  });

  it('a read that fails keeps the settings last read and says why', async () => {
    let fail = false;
    const { client } = createFakeClient({
      getSettings: () => {
        if (fail) throw new Error('gone');
        return settingsView({ k: 4 });
      },
    });
    const store = createSettingsStore(client, createJobHub(client));
    await store.refresh();
    fail = true;
    await expect(store.refresh()).rejects.toThrow('gone');
    expect(store.state().settings?.k).toBe(4);
    expect(store.state().error).not.toBeNull();
  });
});
