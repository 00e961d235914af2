import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Output } from '../../../../shared/contract';
import type { QuestionSetSummary, ReportDiff, SavedQuestion } from '../../../../shared/eval';
import { messageFor } from '../../api/messages';
import { useEvalSession } from './eval-session';
import { report } from '../../test/eval-fixtures';
import { renderWithFake } from '../../test/harness';
import { settingsView } from '../../test/settings-fixtures';
import { App } from '../../app/App';
import { EvaluateView } from './EvaluateView';

const collection = { id: 'c1', root: '/home/me/notes', createdAt: '2026-03-01T10:00:00Z', documents: [] };
const settings: Output<'getSettings'> = settingsView({ k: 5, ollamaHeaderStorage: { sealed: false, detail: '' } });
const model = (name: string) => ({ name, size: 1, family: null, parameterSize: null, quantization: null, digest: `sha256:${name}` });
const folderSet: QuestionSetSummary = { ref: { kind: 'folder' }, name: 'Questions in this folder (.quire-questions.json)', answerable: 1, unanswerable: 1, error: null };
const savedSet: QuestionSetSummary = { ref: { kind: 'saved' }, name: 'Saved from answers', answerable: 0, unanswerable: 0, error: 'Nothing saved yet: use "Save as test" under an answer.' };
const saved: SavedQuestion[] = [
  { id: 's1', question: 'How often are keys rotated?', expect: { chunkFact: 'every 90 days', answerable: true }, root: '/home/me/notes', createdAt: '2026-03-01T10:00:00Z' },
  { id: 's2', question: 'Wifi password?', expect: { answerable: false }, root: null, createdAt: '2026-03-01T10:00:00Z' },
];

function handlers(over: Record<string, (input: never) => unknown> = {}) {
  return {
    library: () => ({ collections: [collection] }),
    status: () => new Promise(() => {}),
    getSettings: () => settings,
    listModels: () => ({ models: [model('llama3.2:latest'), model('qwen2.5:0.5b'), model('embeddinggemma:latest'), model('nomic-embed-text:latest')] }),
    questionSets: () => ({ sets: [folderSet, savedSet] }),
    evalReports: () => ({ reports: [] }),
    savedQuestions: () => ({ questions: saved }),
    evalStorage: () => ({ indexes: 0, bytes: 0 }),
    startEval: () => ({ jobId: 'ev-1' }),
    getEvalReport: () => report(),
    cancel: () => ({ cancelled: true }),
    ...over,
  };
}

async function openEvaluate(over: Record<string, (input: never) => unknown> = {}) {
  const h = renderWithFake(<App />, handlers(over));
  fireEvent.click(screen.getByTestId('nav-evaluate'));
  await screen.findByTestId('evaluate-view');
  await waitFor(() => expect((screen.getByRole('radio', { name: /Questions in this folder/ }) as HTMLInputElement).checked).toBe(true));
  return h;
}

const status: Output<'status'> = {
  ollama: { host: 'http://127.0.0.1:11434', connected: true, version: '0.12.6', error: null, remote: false, headers: [] },
  chatModel: 'llama3.2',
  documents: { ready: 1, needsEmbedding: 0, skipped: 0, error: 0, total: 1 },
  chunks: 1,
  migration: null,
  collections: 1,
  activeModel: null,
  desktop: false,
  evaluation: null,
};

const rowOrder = () => screen.getAllByRole('row').map((r) => r.getAttribute('data-config')).filter((x): x is string => x !== null).map(Number);

describe('Evaluate: which list a model is offered in', () => {
  it('goes by what Ollama says a model does, so an embedding model with a plain name is offered, and stays offered when unticked', async () => {
    const encoder = { ...model('universal-sentence-encoder-lite:latest'), capabilities: ['embedding'] };
    const chat = { ...model('llama3.2:latest'), capabilities: ['completion', 'tools'] };
    await openEvaluate({ listModels: () => ({ models: [chat, encoder, model('embeddinggemma:latest')] }) });
    const embedList = () => within(screen.getByTestId('eval-embed-models'));
    expect(within(screen.getByTestId('eval-chat-models')).queryByRole('checkbox', { name: 'universal-sentence-encoder-lite:latest' })).toBeNull();
    fireEvent.click(embedList().getByRole('checkbox', { name: 'universal-sentence-encoder-lite:latest' }));
    expect((embedList().getByRole('checkbox', { name: 'universal-sentence-encoder-lite:latest' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(embedList().getByRole('checkbox', { name: 'universal-sentence-encoder-lite:latest' }));
    expect((embedList().getByRole('checkbox', { name: 'universal-sentence-encoder-lite:latest' }) as HTMLInputElement).checked).toBe(false);
    // A model Ollama lists no capabilities for is still placed by its name.
    expect(embedList().getByRole('checkbox', { name: 'embeddinggemma:latest' })).toBeTruthy();
  });
});

describe('Evaluate: earlier evaluations', () => {
  it('name the models each compared in the list', async () => {
    const stored = [
      { id: 7, at: '2026-03-01T10:00:00Z', docs: '/home/me/notes', questionSet: 'mine.json', configs: 12, questions: 20, ms: 1000, models: { chat: [], embed: ['embeddinggemma', 'nomic-embed-text'] } },
      { id: 8, at: '2026-03-01T11:00:00Z', docs: '/home/me/notes', questionSet: 'mine.json', configs: 12, questions: 20, ms: 1000, models: { chat: ['llama3.2'], embed: ['embeddinggemma'] } },
    ];
    await openEvaluate({ evalReports: () => ({ reports: stored }) });
    await waitFor(() => expect(screen.getAllByTestId('eval-list-models').map((e) => e.textContent)).toEqual(['llama3.2 · embeddinggemma', 'retrieval only · embeddinggemma, nomic-embed-text']));
  });
});

describe('Evaluate', () => {
  it('runs a grid: setup, start, progress, done, then the results with table, chart and drill-down', async () => {
    const h = await openEvaluate();
    expect(screen.getByTestId('nav-evaluate').getAttribute('aria-current')).toBe('page');
    const setup = screen.getByTestId('eval-setup');
    // Defaults come from the settings; the saved set has no questions, so it cannot be chosen.
    expect((within(setup).getByRole('checkbox', { name: 'llama3.2:latest' }) as HTMLInputElement).checked).toBe(true);
    expect((within(setup).getByRole('checkbox', { name: 'qwen2.5:0.5b' }) as HTMLInputElement).checked).toBe(false);
    expect((within(setup).getByRole('checkbox', { name: 'embeddinggemma:latest' }) as HTMLInputElement).checked).toBe(true);
    expect(within(screen.getByTestId('eval-chat-models')).queryByRole('checkbox', { name: 'nomic-embed-text:latest' })).toBeNull();
    expect((screen.getByRole('radio', { name: /Saved from answers/ }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('eval-estimate').textContent).toContain('1 configuration × 2 questions × 1 repeat = 2 answers');

    fireEvent.click(within(setup).getByRole('checkbox', { name: /Keyword only \(lexical\)/ }));
    fireEvent.click(within(setup).getByRole('checkbox', { name: /fixed:128\/25/ }));
    fireEvent.change(screen.getByLabelText('Passages per question (k)'), { target: { value: '3, 5' } });
    expect(screen.getByTestId('eval-estimate').textContent).toContain('8 configurations × 2 questions × 1 repeat = 16 answers');
    expect(screen.getByTestId('eval-estimate').textContent).toContain('2 indexes to build');

    fireEvent.click(screen.getByTestId('eval-run'));
    await waitFor(() =>
      expect(h.transport.calls.find((c) => c.method === 'startEval')?.input).toEqual({
        collectionId: 'c1',
        questionSet: { kind: 'folder' },
        grid: { chatModels: ['llama3.2:latest'], embedModels: ['embeddinggemma:latest'], chunkers: ['heading:256', 'fixed:128/25'], ks: [3, 5], modes: ['lexical', 'hybrid'], fusions: ['rrf:60'], repeats: 1 },
      }),
    );
    const progress = await screen.findByTestId('eval-progress');
    act(() => h.emit({ type: 'job.progress', jobId: 'ev-1', kind: 'eval', progress: { done: 3, total: 16, label: 'llama3.2:latest · embeddinggemma · heading:256 · k=3 · lexical' } }));
    await waitFor(() => expect(within(progress).getByTestId('eval-progress-count').textContent).toBe('3 of 16 runs'));
    expect(progress.textContent).toContain('k=3 · lexical');
    expect(within(progress).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('3');
    expect((screen.getByTestId('eval-run') as HTMLButtonElement).disabled).toBe(true);

    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: { reportId: 7 }, error: null }));
    await screen.findByTestId('eval-results');
    expect(screen.queryByTestId('eval-progress')).toBeNull();
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'getEvalReport')?.input).toEqual({ id: 7 }));
    const table = await screen.findByTestId('eval-table');
    expect(within(table).getAllByRole('row').filter((r) => r.hasAttribute('data-config'))).toHaveLength(3);
    const results = screen.getByTestId('eval-results');
    expect(results.textContent).toContain('f00dfacecafe');
    expect(results.textContent).toContain('1 answerable, 1 unanswerable');
    expect(results.textContent).toContain('1 min 05 s');
    expect(results.textContent).toContain('abcdef012345');
    // The chart falls back to text under jsdom, with the same values.
    expect(within(screen.getByTestId('eval-chart')).getByTestId('eval-chart-values').textContent).toContain('llama3.2 · hybrid: 50%');
    expect(screen.getByTestId('eval-drilldown')).toBeTruthy();
    // The reports list reloads after the run.
    fireEvent.click(screen.getByTestId('eval-back'));
    await screen.findByTestId('eval-setup');
    await waitFor(() => expect(h.transport.calls.filter((c) => c.method === 'evalReports').length).toBeGreaterThanOrEqual(2));
  });

  it('the table sorts by a clicked header, reverses on a second click, and keeps not-run rows last', async () => {
    await openEvaluate({ evalReports: () => ({ reports: [{ id: 7, at: '2026-03-01T10:00:00Z', docs: '/home/me/notes', questionSet: '.quire-questions.json', configs: 3, questions: 2, ms: 65000 }] }) });
    fireEvent.click(await screen.findByRole('button', { name: /configurations/ }));
    const table = await screen.findByTestId('eval-table');
    expect(rowOrder()).toEqual([0, 1, 2]);
    const hitK = within(table).getByRole('button', { name: /hit@k/ });
    fireEvent.click(hitK);
    expect(rowOrder()).toEqual([1, 2, 0]);
    expect(hitK.closest('th')?.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(hitK);
    expect(rowOrder()).toEqual([0, 2, 1]);
    expect(hitK.closest('th')?.getAttribute('aria-sort')).toBe('ascending');
    const fact = within(table).getByRole('button', { name: /Answer has fact/ });
    fireEvent.click(fact);
    expect(hitK.closest('th')?.getAttribute('aria-sort')).toBe('none');
    expect(rowOrder()).toEqual([0, 1, 2]);
    fireEvent.click(fact);
    expect(fact.closest('th')?.getAttribute('aria-sort')).toBe('ascending');
    expect(rowOrder()).toEqual([0, 1, 2]);
    // Not-run cells read "—" and say why.
    const retrievalOnly = within(table).getAllByRole('row').find((r) => r.getAttribute('data-config') === '2') as HTMLElement;
    const dash = within(retrievalOnly).getAllByText('—')[0] as HTMLElement;
    expect(dash.getAttribute('title')).toMatch(/retrieval only/);
    expect(within(retrievalOnly).getByText('75%')).toBeTruthy();
  });

  it('drill-down: each configuration’s answer side by side, diffed against the baseline, with its passages and checks', async () => {
    await openEvaluate({ evalReports: () => ({ reports: [{ id: 7, at: '2026-03-01T10:00:00Z', docs: '/home/me/notes', questionSet: 'q', configs: 3, questions: 2, ms: 1 }] }) });
    fireEvent.click(await screen.findByRole('button', { name: /configurations/ }));
    const drill = await screen.findByTestId('eval-drilldown');
    const questions = within(drill).getByRole('list', { name: 'Questions' });
    expect(within(questions).getByText('How often are the deploy keys rotated?').closest('button')?.textContent).toContain('2/3 pass');
    expect(within(questions).getByText('What is the office wifi password?').closest('button')?.textContent).toContain('1/3 pass');
    const cols = within(drill).getAllByTestId('eval-run-column');
    expect(cols).toHaveLength(3);
    expect(cols[0]?.textContent).toContain('The deploy keys are rotated every 90 days [1].');
    expect(cols[0]?.textContent).toContain('baseline');
    expect(cols[0]?.querySelector('ins')).toBeNull();
    const added = [...(cols[1]?.querySelectorAll('ins') ?? [])].map((e) => e.textContent?.trim());
    const removed = [...(cols[1]?.querySelectorAll('del') ?? [])].map((e) => e.textContent?.trim());
    expect(added.join(' ')).toBe('Keys get 3 months');
    expect(removed.join(' ')).toBe('The deploy keys are 90 days');
    expect(cols[2]?.textContent).toContain('Retrieval only: no model answered.');
    // Retrieved passages with the one holding the fact marked; config 0 ranked it second.
    const chunks0 = within(cols[0] as HTMLElement).getAllByRole('listitem').filter((li) => li.classList.contains('eval-chunk'));
    expect(chunks0.map((li) => li.textContent)).toEqual([expect.stringContaining('other-2.md'), expect.stringContaining('key-rotation.md')]);
    expect(chunks0[1]?.textContent).toContain('has the fact');
    expect(chunks0[1]?.textContent).toContain('lines 3–5');
    expect(chunks0[1]?.textContent).toContain('We rotate the deploy keys every 90 days.');
    expect(cols[0]?.textContent).toMatch(/✗ hit@1/);
    expect(cols[1]?.textContent).toMatch(/✓ hit@1/);
    expect(cols[0]?.textContent).toContain('supported');

    // Another question; a different baseline.
    fireEvent.click(within(questions).getByText('What is the office wifi password?'));
    const cols2 = within(drill).getAllByTestId('eval-run-column');
    expect(cols2[0]?.textContent).toContain('Refused, as expected');
    expect(cols2[1]?.textContent).toContain('The password is hunter2');
    expect(cols2[1]?.className).toContain('eval-run--fail');
    expect(cols2[2]?.textContent).toContain(messageFor('OLLAMA_UNREACHABLE'));
    fireEvent.click(within(cols2[1] as HTMLElement).getByRole('button', { name: 'Compare others with this' }));
    const cols3 = within(drill).getAllByTestId('eval-run-column');
    expect(cols3[1]?.textContent).toContain('baseline');
    expect(cols3[1]?.querySelector('ins')).toBeNull();
    expect(cols3[0]?.querySelector('ins')?.textContent?.trim()).toBe('Not in the documents.');
  });

  it('exports the report as CSV and JSON files', async () => {
    const blobs: Blob[] = [];
    const names: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.push(b), 'blob:x'), revokeObjectURL: () => {} }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    try {
      await openEvaluate({ evalReports: () => ({ reports: [{ id: 7, at: '2026-03-01T10:00:00Z', docs: '/n', questionSet: 'q', configs: 3, questions: 2, ms: 1 }] }) });
      fireEvent.click(await screen.findByRole('button', { name: /configurations/ }));
      fireEvent.click(await screen.findByTestId('eval-export-csv'));
      fireEvent.click(screen.getByTestId('eval-export-json'));
      expect(names).toHaveLength(2);
      expect(names[0]).toMatch(/^quire-eval-.*\.csv$/);
      expect(names[1]).toMatch(/^quire-eval-.*\.json$/);
      const csv = await (blobs[0] as Blob).text();
      expect(csv.split('\r\n')[0]).toMatch(/^chat_model,embed_model,chunker,k,mode,fusion,hit_at_1,/);
      expect(csv.split('\r\n')).toHaveLength(5);
      expect(JSON.parse(await (blobs[1] as Blob).text())).toEqual(report());
    } finally {
      click.mockRestore();
      vi.unstubAllGlobals();
    }
  });

  it('keeps a run going while the person looks at another view, and shows its report on return', async () => {
    const h = await openEvaluate();
    fireEvent.click(screen.getByTestId('eval-run'));
    await screen.findByTestId('eval-progress');
    fireEvent.click(screen.getByTestId('nav-library'));
    expect(screen.queryByTestId('evaluate-view')).toBeNull();
    act(() => h.emit({ type: 'job.progress', jobId: 'ev-1', kind: 'eval', progress: { done: 1, total: 2, label: 'x' } }));
    fireEvent.click(screen.getByTestId('nav-evaluate'));
    await waitFor(() => expect(screen.getByTestId('eval-progress-count').textContent).toBe('1 of 2 runs'));
    fireEvent.click(screen.getByTestId('nav-ask'));
    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: { reportId: 7 }, error: null }));
    fireEvent.click(screen.getByTestId('nav-evaluate'));
    await screen.findByTestId('eval-table');
    expect(h.transport.calls.filter((c) => c.method === 'startEval')).toHaveLength(1);
  });

  it('cancels a running evaluation and says no report was written', async () => {
    const h = await openEvaluate();
    fireEvent.click(screen.getByTestId('eval-run'));
    fireEvent.click(await screen.findByTestId('eval-cancel'));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'cancel')?.input).toEqual({ jobId: 'ev-1' }));
    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: null, error: { code: 'CANCELLED', message: 'cancelled' } }));
    expect((await screen.findByTestId('eval-cancelled')).textContent).toBe('The evaluation was cancelled; no report was written.');
    expect(screen.getByTestId('eval-announce').textContent).toBe('The evaluation was cancelled; no report was written.');
    expect(screen.queryByTestId('eval-results')).toBeNull();
  });

  it('a reloaded window picks up the evaluation already running: its progress, cancel and report', async () => {
    const running = { jobId: 'ev-9', startedAt: new Date().toISOString(), done: 5, total: 20, label: 'llama3.2 · embeddinggemma · heading:256 · k=3 · hybrid' };
    const h = renderWithFake(<App />, handlers({ status: () => ({ ...status, evaluation: running }) }));
    fireEvent.click(screen.getByTestId('nav-evaluate'));
    const progress = await screen.findByTestId('eval-progress');
    await waitFor(() => expect(within(progress).getByTestId('eval-progress-count').textContent).toBe('5 of 20 runs'));
    fireEvent.click(screen.getByTestId('eval-cancel'));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'cancel')?.input).toEqual({ jobId: 'ev-9' }));
    act(() => h.emit({ type: 'job.done', jobId: 'ev-9', kind: 'eval', result: { reportId: 7 }, error: null }));
    await screen.findByTestId('eval-results');
    expect(h.transport.calls.filter((c) => c.method === 'startEval')).toHaveLength(0);
  });

  it('shows a failed run as a sentence', async () => {
    const h = await openEvaluate();
    fireEvent.click(screen.getByTestId('eval-run'));
    await screen.findByTestId('eval-progress');
    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: null, error: { code: 'MODEL_NOT_FOUND', message: 'model "llama3.2" not found' } }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(messageFor('MODEL_NOT_FOUND'));
    expect(alert.textContent).toContain('model "llama3.2" not found');
  });

  it('leads a run that Ollama stopped with what stopped it and what was not done, the general help under it, and opens what it measured', async () => {
    const h = await openEvaluate();
    fireEvent.click(screen.getByTestId('eval-run'));
    await screen.findByTestId('eval-progress');
    const stopped = 'The evaluation stopped because Ollama could not be reached at http://gpu-box:11434: 6 of 8 question runs were not done.';
    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: { reportId: 7 }, error: { code: 'OLLAMA_UNREACHABLE', message: stopped } }));
    await screen.findByTestId('eval-results');
    const note = document.querySelector('.error-note[data-code="OLLAMA_UNREACHABLE"]')!;
    expect([...note.querySelectorAll('p')].map((p) => p.textContent)).toEqual([stopped, messageFor('OLLAMA_UNREACHABLE')]);
  });

  it('leads a run stopped by a server that stopped answering with its sentence alone: "may still be loading" is not the help', async () => {
    const h = await openEvaluate();
    fireEvent.click(screen.getByTestId('eval-run'));
    await screen.findByTestId('eval-progress');
    const stopped = 'The evaluation stopped because Ollama at http://gpu-box:11434 stopped answering (a question timed out, and so did a quick check that Ollama still answers): 6 of 8 question runs were not done.';
    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: { reportId: 7 }, error: { code: 'OLLAMA_TIMEOUT', message: stopped } }));
    await screen.findByTestId('eval-results');
    const note = document.querySelector('.error-note[data-code="OLLAMA_TIMEOUT"]')!;
    expect([...note.querySelectorAll('p')].map((p) => p.textContent)).toEqual([stopped]);
  });

  it('leads a run that a hung server stopped before it measured anything (no report) with its sentence, not "may still be loading"', async () => {
    const h = await openEvaluate();
    fireEvent.click(screen.getByTestId('eval-run'));
    await screen.findByTestId('eval-progress');
    const stopped = 'The evaluation stopped because Ollama at http://gpu-box:11434 stopped answering (a question timed out, and so did a quick check that Ollama still answers) before any configuration was measured, so no report was written.';
    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: null, error: { code: 'OLLAMA_TIMEOUT', message: stopped } }));
    const note = (await screen.findByRole('alert')).closest('.error-note') ?? (await screen.findByRole('alert'));
    expect([...note.querySelectorAll('p')].map((p) => p.textContent)).toEqual([stopped]);
    expect(document.body.textContent).not.toContain(messageFor('OLLAMA_TIMEOUT'));
  });

  it('shows a refused start next to the Run button', async () => {
    await openEvaluate({
      startEval: () => {
        throw new ApiError('EVAL_ALREADY_RUNNING', 'An evaluation is already running.');
      },
    });
    fireEvent.click(screen.getByTestId('eval-run'));
    const alert = await within(screen.getByTestId('eval-setup')).findByRole('alert');
    expect(alert.textContent).toContain(messageFor('EVAL_ALREADY_RUNNING'));
    expect(screen.queryByTestId('eval-progress')).toBeNull();
    expect((screen.getByTestId('eval-run') as HTMLButtonElement).disabled).toBe(false);
  });

  it('stops a grid with problems from starting and says what is wrong', async () => {
    const h = await openEvaluate();
    const setup = screen.getByTestId('eval-setup');
    fireEvent.click(within(setup).getByRole('checkbox', { name: 'llama3.2:latest' }));
    fireEvent.change(screen.getByLabelText('Passages per question (k)'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('eval-run'));
    const problems = screen.getByTestId('eval-problems');
    expect(problems.textContent).toContain('Choose at least one chat model, or choose "Retrieval only".');
    expect(problems.textContent).toContain('k must be from 1 to 20; 0 is outside that.');
    expect(h.transport.calls.some((c) => c.method === 'startEval')).toBe(false);
    // Retrieval only is a valid choice: no chat models are sent.
    fireEvent.click(screen.getByTestId('eval-retrieval-only'));
    fireEvent.change(screen.getByLabelText('Passages per question (k)'), { target: { value: '4' } });
    expect(screen.queryByTestId('eval-problems')).toBeNull();
    expect(screen.getByTestId('eval-estimate').textContent).toContain('= 2 searches');
    fireEvent.click(screen.getByTestId('eval-run'));
    await waitFor(() => expect((h.transport.calls.find((c) => c.method === 'startEval')?.input as { grid: { chatModels: string[]; ks: number[] } }).grid).toMatchObject({ chatModels: [], ks: [4] }));
  });
});

describe('Evaluate: question sets', () => {
  let text = '';
  beforeEach(() => {
    text = '';
  });
  afterEach(() => vi.restoreAllMocks());

  const pick = (name: string, content: string) => {
    text = content;
    const input = screen.getByTestId('eval-set-file') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([content], name, { type: 'application/json' })] } });
  };

  it('a loaded file is checked first; its bad entries are listed; a good one is chosen and sent with its text', async () => {
    let calls = 0;
    const h = await openEvaluate({
      checkQuestionSet: ((input: { name: string; text: string }) => {
        calls++;
        if (calls === 1) throw new ApiError('INVALID_QUESTION_SET', `${input.name}: 2 problems:\n  - entry 1: "question" must be a non-empty string\n  - entry 3: "expect.answerable" must be true or false`);
        return { ref: { kind: 'file', name: input.name, text: input.text }, name: input.name, answerable: 3, unanswerable: 1, error: null };
      }) as never,
    });
    pick('bad.json', '[{"id":"a"}]');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(messageFor('INVALID_QUESTION_SET'));
    expect(alert.textContent).toContain('entry 3: "expect.answerable" must be true or false');
    expect(screen.queryByRole('radio', { name: /bad\.json/ })).toBeNull();

    pick('good.json', '[{"id":"a","question":"q","expect":{"answerable":false}}]');
    const radio = (await screen.findByRole('radio', { name: /good\.json/ })) as HTMLInputElement;
    await waitFor(() => expect(radio.checked).toBe(true));
    expect(h.transport.calls.filter((c) => c.method === 'checkQuestionSet').at(-1)?.input).toEqual({ name: 'good.json', text });
    expect(screen.getByTestId('eval-estimate').textContent).toContain('× 4 questions ×');
    fireEvent.click(screen.getByTestId('eval-run'));
    await waitFor(() => expect((h.transport.calls.find((c) => c.method === 'startEval')?.input as { questionSet: unknown }).questionSet).toEqual({ kind: 'file', name: 'good.json', text }));
  });

  it('a set with an error is shown with the error but cannot be chosen', async () => {
    renderWithFake(<App />, handlers({ questionSets: () => ({ sets: [{ ...folderSet, error: '.quire-questions.json: 1 problem:\n  - entry 2: "id" must be a non-empty string' }, savedSet] }) }));
    fireEvent.click(screen.getByTestId('nav-evaluate'));
    const radio = (await screen.findByRole('radio', { name: /Questions in this folder/ })) as HTMLInputElement;
    expect(radio.disabled).toBe(true);
    expect(radio.closest('label')?.textContent).toContain('entry 2: "id" must be a non-empty string');
    expect((await screen.findByTestId('eval-problems')).textContent).toContain('Choose a question set, or load a file of questions.');
  });
});

describe('Evaluate: earlier reports and saved questions', () => {
  it('opens and deletes an earlier report after confirming', async () => {
    let reports = [{ id: 7, at: '2026-03-01T10:00:00Z', docs: '/home/me/notes', questionSet: '.quire-questions.json', configs: 3, questions: 2, ms: 65000 }];
    const h = await openEvaluate({ evalReports: () => ({ reports }), deleteEvalReport: () => ((reports = []), { deleted: true }) });
    const list = await screen.findByTestId('eval-reports');
    expect((await within(list).findByRole('button', { name: /3 configurations/ })).textContent).toContain('.quire-questions.json');
    fireEvent.click(within(list).getByRole('button', { name: /^Delete/ }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete evaluation' }));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'deleteEvalReport')?.input).toEqual({ id: 7 }));
    await within(list).findByText(/None yet/);
  });

  it('lists saved questions with what they expect, removes one, and exports them as a question set', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.push(b), 'blob:x'), revokeObjectURL: () => {} }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      const h = await openEvaluate({ deleteSavedQuestion: () => ({ deleted: true }) });
      const box = await screen.findByTestId('saved-questions');
      await within(box).findByText('How often are keys rotated?');
      expect(box.textContent).toContain('expects “every 90 days”');
      expect(box.textContent).toContain('expects a refusal · any folder');
      fireEvent.click(within(box).getByTestId('saved-export'));
      expect(JSON.parse(await (blobs[0] as Blob).text())).toEqual([
        { id: 's1', question: 'How often are keys rotated?', expect: { chunkFact: 'every 90 days', answerable: true } },
        { id: 's2', question: 'Wifi password?', expect: { answerable: false } },
      ]);
      const before = h.transport.calls.filter((c) => c.method === 'questionSets').length;
      fireEvent.click(within(box).getByRole('button', { name: /Remove the saved question “Wifi password\?”/ }));
      await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'deleteSavedQuestion')?.input).toEqual({ id: 's2' }));
      await waitFor(() => expect(within(box).queryByText('Wifi password?')).toBeNull());
      await waitFor(() => expect(h.transport.calls.filter((c) => c.method === 'questionSets').length).toBe(before + 1));
    } finally {
      click.mockRestore();
      vi.unstubAllGlobals();
    }
  });
});

describe('Evaluate: the form keeps edits made while a file is checked', () => {
  it('a question file that finishes checking does not undo what was changed meanwhile', async () => {
    let release: (v: QuestionSetSummary) => void = () => {};
    await openEvaluate({ checkQuestionSet: (() => new Promise<QuestionSetSummary>((r) => (release = r))) as never });
    const text = '[{"id":"a","question":"q","expect":{"answerable":false}}]';
    fireEvent.change(screen.getByTestId('eval-set-file'), { target: { files: [new File([text], 'late.json', { type: 'application/json' })] } });
    await screen.findByRole('button', { name: 'Checking…' });
    // While the file is checked, the person goes on filling in the form.
    fireEvent.change(screen.getByLabelText('Passages per question (k)'), { target: { value: '3, 7' } });
    fireEvent.click(within(screen.getByTestId('eval-setup')).getByRole('checkbox', { name: 'qwen2.5:0.5b' }));
    fireEvent.change(screen.getByLabelText('Repeats'), { target: { value: '2' } });
    act(() => release({ ref: { kind: 'file', name: 'late.json', text }, name: 'late.json', answerable: 0, unanswerable: 1, error: null }));
    const radio = (await screen.findByRole('radio', { name: /late\.json/ })) as HTMLInputElement;
    await waitFor(() => expect(radio.checked).toBe(true));
    expect((screen.getByLabelText('Passages per question (k)') as HTMLInputElement).value).toBe('3, 7');
    expect((within(screen.getByTestId('eval-setup')).getByRole('checkbox', { name: 'qwen2.5:0.5b' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Repeats') as HTMLInputElement).value).toBe('2');
  });
});

describe('Evaluate: focus and announcements', () => {
  const listed = { evalReports: () => ({ reports: [{ id: 7, at: '2026-03-01T10:00:00Z', docs: '/home/me/notes', questionSet: 'q', configs: 3, questions: 2, ms: 1 }] }) };

  it('opening a report moves focus to its heading, and Back to the page heading', async () => {
    await openEvaluate(listed);
    fireEvent.click(await screen.findByRole('button', { name: /configurations/ }));
    const heading = await screen.findByTestId('eval-report-title');
    expect(document.activeElement).toBe(heading);
    expect(heading.tagName).toBe('H2');
    expect(heading.getAttribute('tabindex')).toBe('-1');
    await waitFor(() => expect(heading.textContent).toContain('.quire-questions.json'));
    expect(document.activeElement).toBe(heading);
    fireEvent.click(screen.getByTestId('eval-back'));
    await screen.findByTestId('eval-setup');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Evaluate' }));
  });

  it('a finished run opens its report with focus on the heading, and says so in a polite live region', async () => {
    const h = await openEvaluate();
    const live = screen.getByTestId('eval-announce');
    expect(live.getAttribute('aria-live')).toBe('polite');
    expect(live.textContent).toBe('');
    fireEvent.click(screen.getByTestId('eval-run'));
    await screen.findByTestId('eval-progress');
    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: { reportId: 7 }, error: null }));
    const heading = await screen.findByTestId('eval-report-title');
    expect(document.activeElement).toBe(heading);
    await waitFor(() => expect(screen.getByTestId('eval-announce').textContent).toBe('The evaluation finished; its report is open.'));
    expect(screen.getByTestId('eval-announce')).toBe(live);
  });

  it('a run that ended while the person was elsewhere does not take focus when they come back', async () => {
    const h = await openEvaluate();
    fireEvent.click(screen.getByTestId('eval-run'));
    await screen.findByTestId('eval-progress');
    fireEvent.click(screen.getByTestId('nav-ask'));
    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: { reportId: 7 }, error: null }));
    const nav = screen.getByTestId('nav-evaluate');
    nav.focus();
    fireEvent.click(nav);
    await screen.findByTestId('eval-table');
    expect(document.activeElement).toBe(nav);
    expect(screen.getByTestId('eval-announce').textContent).toBe('');
  });
});

describe('Evaluate: a run picked up or lost track of', () => {
  /** The Evaluate view with its own session checking status every few ms. */
  function Polling() {
    const session = useEvalSession({ pollMs: 15 });
    return <EvaluateView session={session} />;
  }
  const running = (jobId: string, over: Partial<NonNullable<Output<'status'>['evaluation']>> = {}) => ({
    ...status,
    evaluation: { jobId, startedAt: new Date().toISOString(), done: 4, total: 10, label: 'llama3.2 · hybrid', ...over },
  });
  const renderPolling = (over: Record<string, (input: never) => unknown>) => renderWithFake(<Polling />, handlers(over));
  const summary = (id: number, at: string) => ({ id, at, docs: '/home/me/notes', questionSet: 'q', configs: 3, questions: 2, ms: 1 });

  it('a reloaded window counts the time from when the run started, not from the reload', async () => {
    const startedAt = new Date(Date.now() - 125_000).toISOString();
    renderWithFake(<App />, handlers({ status: () => running('ev-9', { startedAt }) }));
    fireEvent.click(screen.getByTestId('nav-evaluate'));
    const progress = await screen.findByTestId('eval-progress');
    await waitFor(() => expect(progress.textContent).toMatch(/2 min 0[5-9] s elapsed/));
    expect(progress.textContent).toMatch(/about \d/);
  });

  it('when the run is gone from status and its ending never came, its report (newer than the start) opens', async () => {
    let started = false;
    const h = renderPolling({
      status: () => status,
      startEval: () => ((started = true), { jobId: 'ev-1' }),
      evalReports: () => ({ reports: started ? [summary(3, '2020-01-01T00:00:00Z'), summary(8, new Date(Date.now() + 1000).toISOString())] : [] }),
    });
    await waitFor(() => expect((screen.getByRole('radio', { name: /Questions in this folder/ }) as HTMLInputElement).checked).toBe(true));
    fireEvent.click(screen.getByTestId('eval-run'));
    await screen.findByTestId('eval-results');
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'getEvalReport')?.input).toEqual({ id: 8 }));
    expect(screen.queryByTestId('eval-progress')).toBeNull();
    expect(screen.queryByTestId('eval-lost')).toBeNull();
  });

  it('with no newer report, it says the run ended without its result, neutrally, and the form can run again', async () => {
    let started = false;
    const h = renderPolling({
      status: () => status,
      startEval: () => ((started = true), { jobId: 'ev-1' }),
      evalReports: () => ({ reports: started ? [summary(3, '2020-01-01T00:00:00Z')] : [] }),
    });
    await waitFor(() => expect((screen.getByRole('radio', { name: /Questions in this folder/ }) as HTMLInputElement).checked).toBe(true));
    fireEvent.click(screen.getByTestId('eval-run'));
    const note = await screen.findByTestId('eval-lost');
    expect(note.textContent).toMatch(/ended, but its result was not received/);
    expect(note.getAttribute('role')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByTestId('eval-progress')).toBeNull();
    expect((screen.getByTestId('eval-run') as HTMLButtonElement).disabled).toBe(false);
    await waitFor(() => expect(screen.getByTestId('eval-announce').textContent).toBe('The evaluation ended, but its result was not received.'));
    // Its ending arrives after all: that is what is shown.
    act(() => h.emit({ type: 'job.done', jobId: 'ev-1', kind: 'eval', result: { reportId: 9 }, error: null }));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'getEvalReport')?.input).toEqual({ id: 9 }));
    expect(screen.queryByTestId('eval-lost')).toBeNull();
  });

  it('when status names another run, that run is followed: its progress, cancel and report', async () => {
    let started = false;
    const h = renderPolling({ status: () => (started ? running('ev-2', { done: 4, total: 10 }) : status), startEval: () => ((started = true), { jobId: 'ev-1' }) });
    await waitFor(() => expect((screen.getByRole('radio', { name: /Questions in this folder/ }) as HTMLInputElement).checked).toBe(true));
    fireEvent.click(screen.getByTestId('eval-run'));
    await waitFor(() => expect(screen.getByTestId('eval-progress-count').textContent).toBe('4 of 10 runs'));
    fireEvent.click(screen.getByTestId('eval-cancel'));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'cancel')?.input).toEqual({ jobId: 'ev-2' }));
    act(() => h.emit({ type: 'job.progress', jobId: 'ev-2', kind: 'eval', progress: { done: 6, total: 10, label: 'x' } }));
    await waitFor(() => expect(screen.getByTestId('eval-progress-count').textContent).toBe('6 of 10 runs'));
    act(() => h.emit({ type: 'job.done', jobId: 'ev-2', kind: 'eval', result: { reportId: 7 }, error: null }));
    await screen.findByTestId('eval-results');
  });

  it('a start refused because a run is going on follows that run', async () => {
    let refused = false;
    const h = renderPolling({
      status: () => (refused ? running('ev-5', { done: 1, total: 8 }) : status),
      startEval: () => {
        refused = true;
        throw new ApiError('EVAL_ALREADY_RUNNING', 'An evaluation is already running.');
      },
    });
    await waitFor(() => expect((screen.getByRole('radio', { name: /Questions in this folder/ }) as HTMLInputElement).checked).toBe(true));
    fireEvent.click(screen.getByTestId('eval-run'));
    await waitFor(() => expect(screen.getByTestId('eval-progress-count').textContent).toBe('1 of 8 runs'));
    fireEvent.click(screen.getByTestId('eval-cancel'));
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'cancel')?.input).toEqual({ jobId: 'ev-5' }));
    act(() => h.emit({ type: 'job.done', jobId: 'ev-5', kind: 'eval', result: null, error: { code: 'CANCELLED', message: 'cancelled' } }));
    await screen.findByTestId('eval-cancelled');
    // The refusal is moot once that run is over.
    expect(within(screen.getByTestId('eval-setup')).queryByRole('alert')).toBeNull();
  });

  it('stops checking when the view goes away, and does not check when nothing runs', async () => {
    const h = renderPolling({ status: () => running('ev-1') });
    await screen.findByTestId('eval-progress');
    const count = () => h.transport.calls.filter((c) => c.method === 'status').length;
    await waitFor(() => expect(count()).toBeGreaterThanOrEqual(3));
    h.unmount();
    const after = count();
    await new Promise((r) => setTimeout(r, 100));
    expect(count()).toBe(after);

    const idle = renderPolling({ status: () => status });
    await new Promise((r) => setTimeout(r, 100));
    expect(idle.transport.calls.filter((c) => c.method === 'status')).toHaveLength(1);
  });
});

describe('Evaluate: run a report again and compare', () => {
  const summary = (id: number, at: string) => ({ id, at, docs: '/home/me/notes', questionSet: 'Questions in this folder', configs: 1, questions: 2, ms: 1000 });
  const same: ReportDiff = { same: true, corpus: null, questionSet: null, versions: [], metricsVersions: null, configsOnlyBefore: [], configsOnlyAfter: [], metrics: [], questions: [], timing: [] };
  const timing = [{ config: 'llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid', metric: 'latencyMs.retrieve.p50', before: 10, after: 12 }];

  /** The App with reports 5 and 3 stored (9 appears once the rerun has finished); report 5 is open. */
  async function openReport5(over: Record<string, (input: never) => unknown> = {}) {
    let rerunDone = false;
    const h = await openEvaluate({
      evalReports: () => ({
        reports: [summary(3, '2026-03-01T10:00:00Z'), summary(5, '2026-03-02T10:00:00Z'), ...(rerunDone ? [summary(9, '2026-03-03T10:00:00Z')] : [])],
      }),
      rerunEval: () => ({ jobId: 'ev-r' }),
      compareEvalReports: () => ({ ...same, timing }),
      ...over,
    });
    const item = await waitFor(() => screen.getByTestId('eval-reports').querySelector('li[data-report="5"] button') as HTMLElement);
    fireEvent.click(item);
    await screen.findByTestId('eval-table');
    return { ...h, finish: () => (rerunDone = true) };
  }

  it('Run again reruns the report with progress, then opens the new report compared with the one it repeated', async () => {
    const h = await openReport5();
    const again = await screen.findByTestId('eval-run-again');
    expect((again as HTMLButtonElement).disabled).toBe(false);
    // Nothing is compared until a report is chosen.
    expect(h.transport.calls.some((c) => c.method === 'compareEvalReports')).toBe(false);
    expect((screen.getByTestId('eval-compare-select') as HTMLSelectElement).value).toBe('');

    fireEvent.click(again);
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'rerunEval')?.input).toEqual({ reportId: 5 }));
    expect(h.transport.calls.some((c) => c.method === 'startEval')).toBe(false);
    await screen.findByTestId('eval-progress');
    expect((screen.getByTestId('eval-run-again') as HTMLButtonElement).disabled).toBe(true);
    act(() => h.emit({ type: 'job.progress', jobId: 'ev-r', kind: 'eval', progress: { done: 3, total: 10, label: 'llama3.2 · hybrid' } }));
    await waitFor(() => expect(screen.getByTestId('eval-progress-count').textContent).toBe('3 of 10 runs'));

    h.finish();
    act(() => h.emit({ type: 'job.done', jobId: 'ev-r', kind: 'eval', result: { reportId: 9 }, error: null }));
    await waitFor(() => expect(h.transport.calls.filter((c) => c.method === 'getEvalReport').at(-1)?.input).toEqual({ id: 9 }));
    expect(screen.queryByTestId('eval-progress')).toBeNull();
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'compareEvalReports')?.input).toEqual({ before: 5, after: 9 }));
    const result = await screen.findByTestId('eval-compare-result');
    expect(result.textContent).toContain('Reproduced: every score and answer is the same');
    expect(result.textContent).toContain('1 timing figure moved (timings never repeat exactly)');
    const select = screen.getByTestId('eval-compare-select') as HTMLSelectElement;
    // The other reports, newest first, without the one on screen.
    await waitFor(() => expect([...select.options].map((o) => o.value)).toEqual(['', '5', '3']));
    expect(select.value).toBe('5');
    expect((screen.getByTestId('eval-run-again') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a rerun whose results differ lists the changed scores and question runs', async () => {
    const long = `Keys are rotated every 90 days. ${'More words follow here. '.repeat(10)}The end.`;
    const diff: ReportDiff = {
      ...same,
      same: false,
      corpus: { before: { documents: 4, fingerprint: 'sha256:aaaaaaaaaaaaaaaa' }, after: { documents: 5, fingerprint: 'sha256:bbbbbbbbbbbbbbbb' } },
      versions: [{ what: 'llama3.2:latest', before: 'sha256:1111111111111111', after: 'sha256:2222222222222222' }],
      configsOnlyAfter: ['llama3.2 · embeddinggemma · fixed:128/25 · k=5 · lexical'],
      metrics: [
        { config: 'llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid', metric: 'hitK', before: 0.5, after: 0.75 },
        { config: 'llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid', metric: 'mrr', before: 0.5, after: 0.625 },
      ],
      questions: [
        { config: 'llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid', questionId: 'keys', repeat: 1, what: 'answer', before: 'Every 30 days.', after: long },
        { config: 'llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid', questionId: 'wifi', repeat: 0, what: 'refused', before: 'false', after: 'true' },
      ],
      timing: [],
    };
    const h = await openReport5({ compareEvalReports: () => diff });
    const select = screen.getByTestId('eval-compare-select') as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.value)).toEqual(['', '3']));
    fireEvent.change(select, { target: { value: '3' } });
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'compareEvalReports')?.input).toEqual({ before: 3, after: 5 }));
    const result = await screen.findByTestId('eval-compare-result');
    // Documents, one configuration only here, two scores, two question runs.
    expect(within(result).getByTestId('eval-compare-headline').textContent).toMatch(/^6 differences/);
    expect(result.textContent).not.toContain('Reproduced');
    expect(within(result).getByTestId('eval-compare-corpus').textContent).toMatch(/4 aaaaaaaaaaaa → 5 bbbbbbbbbbbb/);
    expect(within(result).getByTestId('eval-compare-versions').textContent).toMatch(/llama3\.2: 111111111111 → 222222222222/);
    expect(within(result).getByTestId('eval-compare-configs').textContent).toMatch(/Only in this evaluation:.*fixed:128\/25 · k=5 · lexical/);

    const metricRows = [...within(result).getByTestId('eval-compare-metrics').querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    expect(metricRows).toEqual([
      ['llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid', 'hit@k', '50%', '75%'],
      ['llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid', 'MRR', '0.50', '0.63'],
    ]);

    const questionRows = [...within(result).getByTestId('eval-compare-questions').querySelectorAll('tbody tr')];
    expect(questionRows).toHaveLength(2);
    const [answerRow, refusedRow] = questionRows as [HTMLElement, HTMLElement];
    expect(answerRow.textContent).toMatch(/keys · repeat 2answerEvery 30 days\./);
    // The long answer is cut, with the whole of it a click (or a hover) away.
    const details = answerRow.querySelector('details') as HTMLElement;
    expect(details.getAttribute('title')).toBe(long);
    expect((details.querySelector('summary') as HTMLElement).textContent?.length).toBeLessThan(long.length);
    expect(details.querySelector('p')?.textContent).toBe(long);
    expect(refusedRow.textContent).toMatch(/^.*wifirefusedfalsetrue$/);
    expect(refusedRow.textContent).not.toMatch(/repeat/);
    expect(within(result).getByTestId('eval-compare-timing').textContent).toBe('No timing figure moved (timings never repeat exactly).');
  });

  it('warns when the two evaluations counted hit@n differently, whatever else matched', async () => {
    const h = await openReport5({ compareEvalReports: () => ({ ...same, same: false, metricsVersions: { before: 1, after: 2 } }) });
    const select = screen.getByTestId('eval-compare-select') as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.value)).toEqual(['', '3']));
    fireEvent.change(select, { target: { value: '3' } });
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'compareEvalReports')?.input).toEqual({ before: 3, after: 5 }));
    const result = await screen.findByTestId('eval-compare-result');
    expect(within(result).getByTestId('eval-compare-headline').textContent).toMatch(/^1 difference/);
    expect(within(result).getByTestId('eval-compare-metrics-version').textContent).toBe(
      'The earlier evaluation and this one measured hit@n and MRR differently, so those numbers do not compare: the earlier evaluation looked for the fact in the chunk found at each rank, this one in the passage found at each rank (the chunk with its neighbours, as an answer is sent it).',
    );
  });

  it('a rerun refused because the folder is gone says so as a sentence, and nothing runs', async () => {
    const h = await openReport5({
      rerunEval: () => {
        throw new ApiError('NOT_A_FOLDER', 'ENOENT: /home/me/notes');
      },
    });
    fireEvent.click(await screen.findByTestId('eval-run-again'));
    const note = await screen.findByTestId('eval-rerun-error');
    expect(note.textContent).toContain('This evaluation cannot be run again: the folder it ran on is gone or cannot be read.');
    expect(note.textContent).toContain('ENOENT: /home/me/notes');
    expect(screen.queryByTestId('eval-progress')).toBeNull();
    expect((screen.getByTestId('eval-run-again') as HTMLButtonElement).disabled).toBe(false);
    expect(h.transport.calls.some((c) => c.method === 'startEval')).toBe(false);
    // The refusal belongs to this report, not to the form.
    fireEvent.click(screen.getByTestId('eval-back'));
    await screen.findByTestId('eval-setup');
    expect(within(screen.getByTestId('eval-setup')).queryByRole('alert')).toBeNull();
  });

  it('a rerun refused because another evaluation runs says so', async () => {
    await openReport5({
      rerunEval: () => {
        throw new ApiError('EVAL_ALREADY_RUNNING', 'An evaluation is already running.');
      },
    });
    fireEvent.click(await screen.findByTestId('eval-run-again'));
    const note = await screen.findByTestId('eval-rerun-error');
    expect(note.textContent).toContain('Another evaluation is running. Run this one again when it has finished, or cancel it.');
    expect(within(note).getByRole('alert')).toBeTruthy();
  });
});
