import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useConversation } from './conversation';
import type { AskEvent } from '../../common/types';
import { answerResult, askJobEvent, candidate, renderWithFake } from '../../test/harness';
import { AskView } from './AskView';

function Harness() {
  const conversation = useConversation();
  return <AskView conversation={conversation} suggestions={[]} focusTick={0} />;
}

const K0 = 'a1b2c3d4e5f6#0';
const K1 = 'a1b2c3d4e5f6#1';
const candidates = [candidate(K0, 'notes/keys.md', [3, 9]), candidate(K1, 'notes/keys.md', [11, 14]), candidate('ffff00001111#2', 'other.md', [1, 2], { sent: false, dropped: 'k' })];
const ANSWER = `Keys rotate every 90 days [${K0}]. Old keys stay valid for 48 hours [${K1}][${K0}]. Nothing else [dead00beef00#9].`;

const CHUNK = {
  chunkId: K0,
  path: 'notes/keys.md',
  root: '/home/me/notes',
  heading: 'Rotating the deploy keys > Policy',
  lines: [3, 9] as [number, number],
  pages: null,
  text: '# Policy\n\nWe rotate the deploy keys every 90 days,\nand at once when someone leaves.\n\nAsk ops first.\nDone.',
  flags: ['instructions'],
  before: { chunkId: 'a1b2c3d4e5f6#-1', text: 'Intro line', lines: [1, 2] as [number, number] },
  after: { chunkId: K1, text: 'Old keys stay valid for 48 hours.', lines: [11, 14] as [number, number] },
};

async function startAnswer(over: Parameters<typeof renderWithFake>[1] = {}) {
  const h = renderWithFake(<Harness />, { ask: () => ({ jobId: 'job-1' }), getChunk: () => CHUNK, cancel: () => ({ cancelled: true }), search: () => ({}), ...over });
  const send = (event: AskEvent) => act(() => h.emit(askJobEvent('job-1', event)));
  fireEvent.change(screen.getByTestId('question'), { target: { value: 'How often are keys rotated?' } });
  fireEvent.keyDown(screen.getByTestId('question'), { key: 'Enter' });
  await waitFor(() => expect(h.transport.calls.some((c) => c.method === 'ask')).toBe(true));
  return { ...h, send };
}

const chips = () => screen.getAllByTestId('citation-chip');

describe('citation chips', () => {
  it('are numbered by source, neutral while streaming, then coloured by their check with labels', async () => {
    const { send } = await startAnswer();
    send({ type: 'retrieval', mode: 'hybrid', candidates, note: null });
    for (const piece of ANSWER.match(/.{1,7}/g)!) send({ type: 'token', text: piece });
    await waitFor(() => expect(chips()).toHaveLength(4));
    expect(chips().map((c) => c.textContent)).toEqual(['1', '2', '1', '3']);
    for (const c of chips()) expect(c.className).toContain('chip--pending');
    expect(chips()[0]!.getAttribute('aria-label')).toBe('Source 1: notes/keys.md lines 3–9, not checked yet');

    send({
      type: 'done',
      result: answerResult({
        answer: ANSWER,
        retrieval: candidates,
        citations: [
          { chunkId: K0, path: 'notes/keys.md', lines: [3, 9], pages: null, sentence: 'Keys rotate every 90 days.', check: 'supported', missing: [] },
          { chunkId: K1, path: 'notes/keys.md', lines: [11, 14], pages: null, sentence: 'Old keys stay valid for 48 hours.', check: 'weak', missing: [] },
          { chunkId: K0, path: 'notes/keys.md', lines: [3, 9], pages: null, sentence: 'Old keys stay valid for 48 hours.', check: 'unsupported', missing: ['48'] },
          { chunkId: 'dead00beef00#9', path: null, lines: null, pages: null, sentence: 'Nothing else.', check: 'unknown-source', missing: [] },
        ],
        flags: ['unknown-source', 'unsupported-citation'],
      }),
    });
    await waitFor(() => expect(chips()[0]!.className).toContain('chip--supported'));
    expect(chips().map((c) => c.getAttribute('data-check'))).toEqual(['supported', 'weak', 'unsupported', 'unknown-source']);
    expect(chips()[1]!.className).toContain('chip--weak');
    expect(chips()[2]!.className).toContain('chip--unsupported');
    expect(chips()[3]!.className).toContain('chip--unknown-source');
    expect(chips().map((c) => c.getAttribute('aria-label'))).toEqual([
      'Source 1: notes/keys.md lines 3–9, supported',
      'Source 2: notes/keys.md lines 11–14, weakly supported',
      'Source 1: notes/keys.md lines 3–9, not supported',
      'Source 3: not among the passages sent, unknown source',
    ]);
    expect(screen.getByText('At least one citation does not back up its sentence.')).toBeTruthy();
  });

  it('open the source panel through getChunk, highlight the cited lines, and Esc returns focus to the chip', async () => {
    const { send, transport } = await startAnswer();
    send({ type: 'retrieval', mode: 'hybrid', candidates, note: null });
    send({ type: 'token', text: ANSWER });
    send({
      type: 'done',
      result: answerResult({
        answer: ANSWER,
        retrieval: candidates,
        citations: [{ chunkId: K0, path: 'notes/keys.md', lines: [3, 9], pages: null, sentence: 'Keys rotate every 90 days.', check: 'supported', missing: [] }],
      }),
    });
    const chip = (await screen.findAllByTestId('citation-chip'))[0]!;
    fireEvent.click(chip);
    const panel = await screen.findByTestId('source-panel');
    expect(transport.calls.filter((c) => c.method === 'getChunk').map((c) => c.input)).toEqual([{ chunkId: K0 }]);
    await waitFor(() => expect(panel.textContent).toContain('Rotating the deploy keys > Policy'));
    expect(panel.textContent).toContain('Lines3–9');
    expect(panel.textContent).toContain('text that gives instructions to an AI assistant');
    // Line numbers start at lines[0]; the line carrying "rotate … every 90 days" is the one highlighted.
    const hits = screen.getAllByTestId('source-highlight');
    expect(hits.map((h) => h.getAttribute('value'))).toEqual(['5']);
    expect(hits[0]!.textContent).toContain('every 90 days');
    expect(panel.querySelector('.source-lines--context')!.textContent).toContain('Intro line');

    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('source-panel')).toBeNull());
    expect(document.activeElement).toBe(chip);
  });

  it('ask for the chunks sent with the cited one (a whole section), so the panel shows what the model read', async () => {
    const { send, transport } = await startAnswer();
    send({ type: 'retrieval', mode: 'hybrid', candidates, note: null });
    send({ type: 'token', text: ANSWER });
    const section = ['a1b2c3d4e5f6#-1', K0, K1, 'a1b2c3d4e5f6#2'];
    send({
      type: 'done',
      result: answerResult({
        answer: ANSWER,
        retrieval: candidates,
        sources: [{ chunkId: K0, chunkIds: section, lines: [1, 20], pages: null }, { chunkId: K1, chunkIds: [K1], lines: [11, 14], pages: null }],
        citations: [
          { chunkId: K0, path: 'notes/keys.md', lines: [1, 20], pages: null, sentence: 'Keys rotate every 90 days.', check: 'supported', missing: [] },
          { chunkId: K1, path: 'notes/keys.md', lines: [11, 14], pages: null, sentence: 'Old keys stay valid for 48 hours.', check: 'weak', missing: [] },
        ],
      }),
    });
    const [first, second] = await screen.findAllByTestId('citation-chip');
    fireEvent.click(first!);
    await screen.findByTestId('source-panel');
    await waitFor(() => expect(transport.calls.filter((c) => c.method === 'getChunk').map((c) => c.input)).toEqual([{ chunkId: K0, sent: section }]));
    // A source sent alone: its neighbours are context, as before.
    fireEvent.click(second!);
    await waitFor(() => expect(transport.calls.filter((c) => c.method === 'getChunk').map((c) => c.input)).toEqual([{ chunkId: K0, sent: section }, { chunkId: K1 }]));
  });

  it('show the passage formatted as Markdown on request: a table as a table, raw HTML as text', async () => {
    const formatted = { ...CHUNK, text: '# Policy\n\n| Key | Rotated |\n| --- | --- |\n| deploy | every 90 days |\n\n<b>bold?</b> <img src="https://example.invalid/x.png" alt="diagram">' };
    const { send } = await startAnswer({ getChunk: () => formatted });
    send({ type: 'retrieval', mode: 'hybrid', candidates, note: null });
    send({ type: 'token', text: ANSWER });
    send({ type: 'done', result: answerResult({ answer: ANSWER, retrieval: candidates, citations: [{ chunkId: K0, path: 'notes/keys.md', lines: [3, 9], pages: null, sentence: 'Keys rotate every 90 days.', check: 'supported', missing: [] }] }) });
    fireEvent.click((await screen.findAllByTestId('citation-chip'))[0]!);
    const panel = await screen.findByTestId('source-panel');
    await waitFor(() => expect(panel.querySelector('.source-text')).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Formatted' }));
    const view = screen.getByTestId('source-formatted');
    expect(view.querySelector('table td')?.textContent).toBe('deploy');
    expect(view.querySelector('b')).toBeNull();
    expect(view.querySelector('img')).toBeNull();
    expect(view.textContent).toContain('<b>bold?</b>');
    expect(screen.getByRole('button', { name: 'Formatted' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Numbered' }));
    expect(panel.querySelector('.source-text')).not.toBeNull();
  });

  it('say the page of a PDF source, and its panel shows the page and offers to open the file (desktop)', async () => {
    const PDF = 'b1b2b3b4b5b6#4';
    const pdfChunk = { ...CHUNK, chunkId: PDF, path: 'manuals/handbook.pdf', lines: [40, 52] as [number, number], pages: [12, 12] as [number, number], flags: [], before: null, after: null };
    const { send, transport } = await startAnswer({ getChunk: () => pdfChunk, status: () => ({ desktop: true }), openSourceFile: () => ({ supported: true, opened: true }) });
    const answer = `The fog horn sounds every thirty seconds [${PDF}].`;
    const pdfCandidates = [candidate(PDF, 'manuals/handbook.pdf', [40, 52], { pages: [12, 12] })];
    send({ type: 'retrieval', mode: 'hybrid', candidates: pdfCandidates, note: null });
    send({ type: 'token', text: answer });
    send({
      type: 'done',
      result: answerResult({
        answer,
        retrieval: pdfCandidates,
        citations: [{ chunkId: PDF, path: 'manuals/handbook.pdf', lines: [40, 52], pages: [12, 12], sentence: 'The fog horn sounds every thirty seconds.', check: 'supported', missing: [] }],
      }),
    });
    const chip = (await screen.findAllByTestId('citation-chip'))[0]!;
    await waitFor(() => expect(chip.getAttribute('aria-label')).toBe('Source 1: manuals/handbook.pdf p. 12, supported'));
    fireEvent.click(chip);
    const panel = await screen.findByTestId('source-panel');
    await waitFor(() => expect(screen.getByTestId('source-pages').textContent).toBe('12'));
    expect(panel.textContent).toContain('Page12');
    expect(panel.textContent).not.toContain('Lines');
    fireEvent.click(await screen.findByText('Open file'));
    await waitFor(() => expect(transport.calls.filter((c) => c.method === 'openSourceFile').map((c) => c.input)).toEqual([{ chunkId: PDF }]));
  });

  it('shows a refusal as its own state, saying whether the model was asked', async () => {
    const { send } = await startAnswer();
    send({ type: 'done', result: answerResult({ status: 'refused', answer: 'Not in the documents.', refused: true, refusedWithoutModel: true }) });
    const refusal = await screen.findByTestId('refusal');
    expect(refusal.textContent).toContain("Your documents don't say.");
    expect(refusal.textContent).toContain('the model was not asked');
    expect(screen.queryAllByTestId('citation-chip')).toHaveLength(0);
  });

  it('says what a running answer waits for (a vocabulary fetched once), until the next step', async () => {
    const { send } = await startAnswer();
    expect(screen.getByTestId('answer-waiting').textContent).toBe('Searching your documents…');
    send({ type: 'waiting', note: "Reading llama3.2's vocabulary from Ollama to count the prompt exactly (once per model version)…" });
    await waitFor(() => expect(screen.getByTestId('answer-waiting').textContent).toBe("Reading llama3.2's vocabulary from Ollama to count the prompt exactly (once per model version)…"));
    send({ type: 'retrieval', mode: 'hybrid', candidates, note: null });
    await waitFor(() => expect(screen.getByTestId('answer-waiting').textContent).toBe('Reading the passages…'));
  });

  it('sends earlier exchanges as history with a follow-up', async () => {
    const { send, transport } = await startAnswer();
    send({ type: 'done', result: answerResult({ answer: `Every 90 days [${K0}].` }) });
    await waitFor(() => expect(screen.queryByText('Cancel')).toBeNull());
    fireEvent.change(screen.getByTestId('question'), { target: { value: 'And the old ones?' } });
    fireEvent.click(screen.getByTestId('ask-button'));
    await waitFor(() => expect(transport.calls.filter((c) => c.method === 'ask')).toHaveLength(2));
    expect(transport.calls.filter((c) => c.method === 'ask')[1]!.input).toEqual({
      question: 'And the old ones?',
      history: [{ question: 'How often are keys rotated?', answer: `Every 90 days [${K0}].` }],
      // Every folder, said outright: a follow-up that names none would be asked of the conversation's.
      collections: [],
    });
  });

  it('Esc in the question box cancels the running answer by its job id', async () => {
    const { transport } = await startAnswer();
    await waitFor(() => expect(screen.getByText('Cancel')).toBeTruthy());
    fireEvent.keyDown(screen.getByTestId('question'), { key: 'Escape' });
    await waitFor(() => expect(transport.calls.filter((c) => c.method === 'cancel').map((c) => c.input)).toEqual([{ jobId: 'job-1' }]));
  });
});
