import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SetupStatus } from '../../../../shared/setup';
import { KEYWORD_ONLY, setupHeadline, setupSteps } from '../../../../shared/setup-sentences';
import { importDone, renderWithFake } from '../../test/harness';
import { setupStatus, setupVerify, type SetupCase } from '../../test/setup-fixtures';
import { SetupFlow } from './SetupFlow';

/** The flow over a fake whose setupStatus answers `next()` each time it is asked. */
function renderFlow(next: () => SetupStatus, more: Parameters<typeof renderWithFake>[1] = {}) {
  const onDone = vi.fn();
  const h = renderWithFake(<SetupFlow onDone={onDone} onSampleQuestions={() => {}} />, { setupStatus: next, verifySetup: () => setupVerify(), ...more });
  return { ...h, onDone };
}

const steps = () => screen.getByRole('list', { name: 'Steps to your first answer' });
const current = () => within(steps()).getAllByRole('listitem').find((li) => li.getAttribute('aria-current') === 'step')?.getAttribute('data-step');
const ticked = () =>
  within(steps())
    .getAllByRole('listitem')
    .filter((li) => li.hasAttribute('data-done'))
    .map((li) => li.getAttribute('data-step'));
const calls = (h: { transport: { calls: Array<{ method: string; input: unknown }> } }, method: string) => h.transport.calls.filter((c) => c.method === method);

describe('SetupFlow: each state', () => {
  it('unreachable: says how to install or start Ollama on Linux, with a command to copy, Check again and a way on without it', async () => {
    let state: SetupCase = 'unreachable';
    const h = renderFlow(() => setupStatus(state));
    await screen.findByRole('heading', { name: 'Install and start Ollama' });
    expect(current()).toBe('ollama');
    expect(ticked()).toEqual([]);
    expect(screen.getByTestId('setup-headline').textContent).toBe(setupHeadline(setupStatus('unreachable')));
    expect(screen.getByTestId('setup-headline').textContent).toContain('http://127.0.0.1:11434');
    // The install step's commands are code to copy, not text to retype.
    expect(screen.getByText('curl -fsSL https://ollama.com/install.sh | sh').tagName).toBe('CODE');
    expect(screen.getByRole('button', { name: 'Copy curl -fsSL https://ollama.com/install.sh | sh' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy ollama serve' })).toBeTruthy();
    // Every step the shared sentences give is said (what works without Ollama beside its button).
    // (Read without the Copy buttons' labels, which sit beside each command.)
    const said = document.body.textContent!.replaceAll('Copy', '');
    for (const step of setupSteps(setupStatus('unreachable'))) expect(said).toContain(step);
    expect(screen.getByRole('complementary', { name: 'Without Ollama' }).textContent).toContain(KEYWORD_ONLY);

    const asked = calls(h, 'setupStatus').length;
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(calls(h, 'setupStatus').length).toBe(asked + 1));
    expect(current()).toBe('ollama');

    // Back from a terminal where Ollama was started: the window's focus checks again.
    state = 'no-models';
    act(() => void window.dispatchEvent(new Event('focus')));
    await screen.findByRole('heading', { name: 'Download two models' });
    expect(current()).toBe('models');
    expect(ticked()).toEqual(['ollama']);
  });

  it('unreachable on Windows: the download page as a link, no command', async () => {
    renderFlow(() => setupStatus('unreachable', { platform: 'win32' }));
    const link = await screen.findByRole('link', { name: 'ollama.com/download' });
    expect(link.getAttribute('href')).toBe('https://ollama.com/download');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.parentElement?.textContent).toBe('Install Ollama with the installer from ollama.com/download; it starts by itself and waits in the taskbar.');
    expect(screen.queryByRole('button', { name: /^Copy/ })).toBeNull();
  });

  it('unreachable for another reason (a certificate): the error as a sentence, not how to install', async () => {
    const base = setupStatus('unreachable');
    const status = { ...base, ollama: { ...base.ollama, host: 'https://gpu.example.org', hostSource: 'saved' as const, error: { code: 'OLLAMA_ERROR', message: 'self-signed certificate' } } };
    renderFlow(() => status);
    const headline = (await screen.findByTestId('setup-headline')).textContent;
    expect(headline).toBe(setupHeadline(status));
    expect(headline).toContain('https://gpu.example.org');
    expect(headline).toMatch(/: self-signed certificate$/);
    expect(screen.queryByText(/install\.sh/)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Copy/ })).toBeNull();
  });

  it('no models: recommends both, with each download size and why, and offers to download both', async () => {
    renderFlow(() => setupStatus('no-models'));
    await screen.findByRole('heading', { name: 'Download two models' });
    expect(screen.getByTestId('setup-headline').textContent).toBe(setupHeadline(setupStatus('no-models')));
    const embed = screen.getByTestId('model-embedding');
    expect(embed.textContent).toContain('embeddinggemma 622 MB');
    expect(embed.textContent).toContain(setupStatus('no-models').embedding.recommended!.why);
    const chat = screen.getByTestId('model-chat');
    expect(chat.textContent).toContain('qwen3:4b 2.5 GB');
    expect(chat.textContent).toContain(setupStatus('no-models').chat.recommended!.why);
    expect(screen.getByRole('button', { name: 'Download both (3.1 GB)' })).toBeTruthy();
    expect(screen.queryByText(/only .* is free/)).toBeNull();
  });

  it('missing the chat model only: the embedding model ticked, one download offered', async () => {
    renderFlow(() => setupStatus('embedding-only'));
    await screen.findByRole('heading', { name: 'Download one more model' });
    expect(screen.getByTestId('model-embedding').textContent).toContain('embeddinggemma is installed.');
    expect(screen.getByRole('button', { name: 'Download qwen3:4b' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download embeddinggemma' })).toBeNull();
    expect(screen.queryByTestId('pull-all')).toBeNull();
    expect(current()).toBe('models');
  });

  it('missing the embedding model only: the chat model ticked, one download offered', async () => {
    renderFlow(() => setupStatus('chat-only'));
    await screen.findByRole('heading', { name: 'Download one more model' });
    expect(screen.getByTestId('model-chat').textContent).toContain('qwen3:4b is installed.');
    expect(screen.getByRole('button', { name: 'Download embeddinggemma' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download qwen3:4b' })).toBeNull();
  });

  it('ready: checks at once, ticks the first three steps, then goes on to the notes', async () => {
    const h = renderFlow(() => setupStatus('ready'));
    fireEvent.click(await screen.findByRole('button', { name: 'Next: add your notes' }));
    expect(calls(h, 'verifySetup')).toHaveLength(1);
    await screen.findByRole('heading', { name: 'Add your notes' });
    expect(current()).toBe('notes');
    expect(ticked()).toEqual(['ollama', 'models', 'check']);
    expect(screen.getByRole('button', { name: 'Try the sample notes' })).toBeTruthy();
    expect(screen.queryByText(/Without Ollama/)).toBeNull();
  });

  it('ready with notes already imported (opened later): the check leads back to asking', async () => {
    const { onDone } = renderFlow(() => setupStatus('ready', { documents: 12, canAnswer: true }));
    fireEvent.click(await screen.findByRole('button', { name: 'Start asking' }));
    expect(onDone).toHaveBeenCalledWith(null);
  });

  it('warns when the downloads do not fit on the disk', async () => {
    renderFlow(() => setupStatus('no-models', { machine: { memoryBytes: 8e9, freeDiskBytes: 1e9 } }));
    expect((await screen.findByText(/only 1.0 GB is free/)).textContent).toBe('These downloads need 3.1 GB, and only 1.0 GB is free on the disk where Ollama keeps its models.');
  });

  it('going on without Ollama: the notes step says only keyword search will work, and leads back', async () => {
    renderFlow(() => setupStatus('unreachable'));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with keyword search only' }));
    await screen.findByRole('heading', { name: 'Add your notes' });
    expect(screen.getByRole('note').textContent).toContain(KEYWORD_ONLY);
    expect(ticked()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Set up Ollama' }));
    await screen.findByRole('heading', { name: 'Install and start Ollama' });
  });

  it('a model already installed can be used instead of downloading one', async () => {
    const base = setupStatus('embedding-only');
    let state = { ...base, chat: { ...base.chat, name: 'llama3.2', alternatives: ['qwen2.5:0.5b'] } };
    const h = renderFlow(() => state, {
      setSettings: (patch: { chatModel?: string }) => {
        state = setupStatus('ready');
        return { chatModel: patch.chatModel };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Use qwen2.5:0.5b' }));
    await waitFor(() => expect(calls(h, 'setSettings').map((c) => c.input)).toEqual([{ chatModel: 'qwen2.5:0.5b' }]));
    await screen.findByRole('heading', { name: 'Check that it works' });
  });

  it('after importing without Ollama: no question offered, only keyword search, said plainly', async () => {
    let documents = 0;
    const h = renderFlow(() => setupStatus('unreachable', { documents }), {
      sampleNotes: () => ({ path: '/app/sample-notes', questions: ['When does the beta start?'] }),
      importFolder: () => ({ jobId: 'imp-1' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with keyword search only' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Try the sample notes' }));
    await screen.findByTestId('import-progress');
    documents = 4;
    act(() => h.emit(importDone('imp-1', '/app/sample-notes', 4)));
    expect((await screen.findByTestId('keyword-only-note')).textContent).toContain('Meanwhile you can search your notes by keywords.');
    expect(screen.queryByTestId('suggestion')).toBeNull();
    expect(ticked()).toEqual(['notes']);
    fireEvent.click(screen.getByRole('button', { name: 'Start searching' }));
    expect(h.onDone).toHaveBeenCalledWith(null);
  });
});
