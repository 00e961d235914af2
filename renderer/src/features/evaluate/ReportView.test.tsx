import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EvalConfigResult, EvalQuestionRun, EvalReport } from '../../../../shared/eval';
import { messageFor } from '../../api/messages';
import { bigReport, metrics, report } from '../../test/eval-fixtures';
import { renderWithFake } from '../../test/harness';
import { ReportView } from './ReportView';

async function show(r: EvalReport) {
  const h = renderWithFake(<ReportView reportId={1} onBack={() => {}} />, { getEvalReport: () => r });
  await screen.findByTestId('eval-table');
  return h;
}

const row = (config: number) => screen.getByTestId('eval-table').querySelector(`tr[data-config="${config}"]`) as HTMLElement;
const cellOf = (config: number, col: string) => row(config).querySelector(`td[data-col="${col}"]`) as HTMLElement;
const columns = () => within(screen.getByTestId('eval-drilldown')).getAllByTestId('eval-run-column');
const shownConfigs = () => columns().map((c) => Number(c.getAttribute('data-config')));

describe('a report with failed runs', () => {
  /** 0: fine; 1: every run failed; 2: the highest hit@k but one failed run; 3: fine, second highest. */
  function failing(): EvalReport {
    const base = report();
    const c0 = base.configs[0] as EvalConfigResult;
    const configs: EvalConfigResult[] = [
      { ...c0, metrics: metrics({ hitK: 0.5 }), errors: 0 },
      { ...c0, k: 6, metrics: metrics({ hitK: 0, hit1: 0, refusalAccuracy: null, answerHasFact: null }), errors: 2 },
      { ...c0, k: 7, metrics: metrics({ hitK: 1 }), errors: 1 },
      { ...c0, k: 8, metrics: metrics({ hitK: 0.75 }), errors: 0 },
    ];
    const err = { code: 'OLLAMA_UNREACHABLE', message: 'connect ECONNREFUSED' };
    const perQuestion: EvalQuestionRun[] = [];
    for (let c = 0; c < 4; c++) {
      for (const p of base.perQuestion.filter((x) => x.config === 0)) {
        const dead = c === 1 || (c === 2 && p.score.questionId === 'wifi');
        perQuestion.push(
          dead
            ? { ...p, config: c, answer: null, citations: [], error: err, score: { ...p.score, answer: null, retrieveMs: null, retrieval: p.score.retrieval && { hit1: false, hit3: false, hit5: false, hitK: false, reciprocalRank: 0, factSent: null, sourceTokens: null } } }
            : { ...p, config: c },
        );
      }
    }
    return report({ configs, perQuestion });
  }

  it('never marks a configuration with failed runs as best, and says so', async () => {
    await show(failing());
    expect(cellOf(2, 'hitK').textContent).toBe('100%');
    expect(cellOf(2, 'hitK').className).not.toContain('eval-table__best');
    expect(cellOf(3, 'hitK').className).toContain('eval-table__best');
    expect(screen.getByTestId('eval-table').querySelectorAll('td[data-col="errors"].eval-table__best')).toHaveLength(0);
    expect(screen.getByTestId('eval-results').textContent).toMatch(/best value in a column, among the configurations where no question run failed/);
  });

  it('shows "failed" where every run of a configuration failed, and blames the failure, not the question set', async () => {
    await show(failing());
    expect(cellOf(1, 'hitK').textContent).toBe('failed');
    expect(cellOf(1, 'hit1').textContent).toBe('failed');
    const refusal = cellOf(1, 'refusalAccuracy');
    expect(refusal.textContent).toBe('failed');
    expect(refusal.getAttribute('title')).toMatch(/every question run of this configuration failed/);
    expect(refusal.getAttribute('title')).not.toMatch(/question set|no unanswerable/);
    expect(cellOf(1, 'errors').textContent).toBe('2');
    // Sorting by hit@k puts the failed one last, with the not-run values.
    fireEvent.click(within(screen.getByTestId('eval-table')).getByRole('button', { name: /^hit@k/ }));
    fireEvent.click(within(screen.getByTestId('eval-table')).getByRole('button', { name: /^hit@k/ }));
    const order = [...screen.getByTestId('eval-table').querySelectorAll('tbody tr')].map((r) => Number(r.getAttribute('data-config')));
    expect(order.at(-1)).toBe(1);
  });

  it('shows a failed run’s error instead of its checks in the drill-down', async () => {
    await show(failing());
    const failedCol = columns().find((c) => c.getAttribute('data-config') === '1') as HTMLElement;
    expect(failedCol.textContent).not.toMatch(/✗ hit@1/);
    expect(failedCol.textContent).not.toMatch(/✗ hit@/);
    expect(failedCol.textContent).toContain(messageFor('OLLAMA_UNREACHABLE'));
    expect(within(failedCol).getByText('error').className).toContain('eval-badge--bad');
    expect(failedCol.textContent).toContain('No answer: the run failed.');
    expect(failedCol.textContent).toContain('Retrieval not timed: the run failed');
    const fine = columns().find((c) => c.getAttribute('data-config') === '0') as HTMLElement;
    expect(fine.textContent).toMatch(/✗ hit@1/);
  });
});

describe('the drill-down of a large report', () => {
  it('shows six configurations in the table’s order, keeps the baseline among them, and offers the rest', async () => {
    await show(bigReport(10));
    expect(shownConfigs()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(screen.getByTestId('eval-columns-count').textContent).toContain('Showing 6 of 10 configurations');

    // Sorted by hit@k (best first), the columns follow; the baseline (config 0) stays in.
    fireEvent.click(within(screen.getByTestId('eval-table')).getByRole('button', { name: /^hit@k/ }));
    expect(shownConfigs()).toEqual([9, 8, 7, 6, 5, 0]);
    expect(columns()[5]?.textContent).toContain('baseline');

    // Another baseline: it is shown, and stays the baseline whatever is shown.
    fireEvent.change(screen.getByTestId('eval-baseline'), { target: { value: '3' } });
    expect(shownConfigs()).toEqual([9, 8, 7, 6, 5, 3]);
    fireEvent.click(screen.getByTestId('eval-columns-all'));
    expect(shownConfigs()).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const base = columns().find((c) => c.getAttribute('data-config') === '3') as HTMLElement;
    expect(within(base).getByText('baseline')).toBeTruthy();
    expect(columns().filter((c) => within(c).queryByText('baseline'))).toHaveLength(1);

    // Back to six, then pick by hand.
    fireEvent.click(screen.getByRole('button', { name: 'Back to the first 6' }));
    expect(shownConfigs()).toEqual([9, 8, 7, 6, 5, 3]);
    fireEvent.click(screen.getByRole('button', { name: 'Choose configurations…' }));
    const pick = screen.getByRole('group', { name: /Configurations to compare/ });
    fireEvent.click(within(pick).getByRole('checkbox', { name: /^k=9$/ }));
    fireEvent.click(within(pick).getByRole('checkbox', { name: /^k=1$/ }));
    expect(shownConfigs()).toEqual([9, 7, 6, 5, 3, 0]);
    expect((within(pick).getByRole('checkbox', { name: /^k=4/ }) as HTMLInputElement).disabled).toBe(true);
  });

  it('does not offer "show all" past what can be read side by side', async () => {
    await show(bigReport(60));
    expect(shownConfigs()).toHaveLength(6);
    expect(screen.queryByTestId('eval-columns-all')).toBeNull();
    expect(screen.getByTestId('eval-columns-count').textContent).toContain('Showing 6 of 60');
  });
});

describe('repeats in the drill-down', () => {
  it('says how each configuration did over all the repeats of the question', async () => {
    await show(bigReport(2, 3));
    const summaries = within(screen.getByTestId('eval-drilldown')).getAllByTestId('eval-run-repeats').map((e) => e.textContent);
    expect(summaries).toEqual(['passed 2/3 repeats · answer changed', 'passed 3/3 repeats · same answer each time']);
  });

  it('says nothing of repeats when there was one', async () => {
    await show(report());
    expect(within(screen.getByTestId('eval-drilldown')).queryAllByTestId('eval-run-repeats')).toHaveLength(0);
  });
});

describe('a baseline without an answer', () => {
  it('says there is nothing to compare with rather than showing no difference', async () => {
    await show(report());
    fireEvent.change(screen.getByTestId('eval-baseline'), { target: { value: '2' } });
    await waitFor(() => expect(columns()[2]?.textContent).toContain('baseline'));
    const first = columns()[0] as HTMLElement;
    expect(within(first).getByTestId('eval-no-baseline-answer').textContent).toBe('The baseline has no answer to compare with, so nothing is marked.');
    expect(first.querySelector('ins')).toBeNull();
    // With a baseline that answered, the note goes away.
    fireEvent.change(screen.getByTestId('eval-baseline'), { target: { value: '1' } });
    expect(within(screen.getByTestId('eval-drilldown')).queryAllByTestId('eval-no-baseline-answer')).toHaveLength(0);
  });
});

describe('report warnings', () => {
  it('shows each warning the engine recorded, and none when there are none', async () => {
    const warning = 'The documents changed during the run: the index for embeddinggemma, fixed:64/8 holds 4 documents (abc), an earlier one 3 (def).';
    const first = await show({ ...report(), warnings: [warning] });
    expect(screen.getAllByTestId('eval-warning').map((w) => w.textContent)).toEqual([warning]);
    first.unmount();
    await show({ ...report(), warnings: [] });
    expect(screen.queryByTestId('eval-warning')).toBeNull();
  });
});

describe('indexes an earlier run built', () => {
  const index = (chunker: string, reused: boolean, documentsRead: number) => ({ embedModel: 'embeddinggemma', chunker, reused, documentsRead });

  it('says they were reused and how many changed documents were read again, as quire eval does, and how to build them anew here', async () => {
    const base = report();
    const first = await show({ ...base, run: { ...base.run, indexes: [index('heading:256', true, 2), index('fixed:128/25', true, 2)] } });
    expect(screen.getByTestId('eval-index-reuse').textContent).toBe(
      'Reused all 2 indexes an earlier run built: only the 2 documents changed since were read and embedded again. To build them anew, remove the evaluation indexes (“Remove all” under Evaluation indexes, beside the form) before running again.',
    );
    first.unmount();
    await show({ ...base, run: { ...base.run, indexes: [index('heading:256', true, 0), index('fixed:128/25', false, 5)] } });
    expect(screen.getByTestId('eval-index-reuse').textContent).toBe(
      'Reused 1 of 2 indexes (embeddinggemma, heading:256) an earlier run built: no document had changed, so none was read or embedded again. To build it anew, remove the evaluation indexes (“Remove all” under Evaluation indexes, beside the form) before running again.',
    );
  });

  it('calls a keyword-only run\'s indexes keyword indexes, read and indexed again, never embedded: they hold no vectors', async () => {
    const base = report();
    const keyword = { ...base.run, grid: { ...base.run.grid, modes: ['lexical' as const] } };
    const first = await show({ ...base, run: { ...keyword, indexes: [index('heading:256', true, 1)] } });
    expect(screen.getByTestId('eval-index-reuse').textContent).toBe(
      'Reused the keyword index an earlier run built: only the document changed since was read and indexed again. To build it anew, remove the evaluation indexes (“Remove all” under Evaluation indexes, beside the form) before running again.',
    );
    first.unmount();
    await show({ ...base, run: { ...keyword, indexes: [index('heading:256', true, 0), index('fixed:128/25', false, 3)] } });
    expect(screen.getByTestId('eval-index-reuse').textContent).toBe(
      'Reused 1 of 2 keyword indexes (heading:256) an earlier run built: no document had changed, so none was read or indexed again. To build it anew, remove the evaluation indexes (“Remove all” under Evaluation indexes, beside the form) before running again.',
    );
  });

  it('says nothing when the run built every index itself, or the report does not record them', async () => {
    const base = report();
    const first = await show({ ...base, run: { ...base.run, indexes: [index('heading:256', false, 4)] } });
    expect(screen.queryByTestId('eval-index-reuse')).toBeNull();
    first.unmount();
    const { indexes: _, ...older } = base.run;
    await show({ ...base, run: older });
    expect(screen.queryByTestId('eval-index-reuse')).toBeNull();
  });
});

describe('the results table\'s settings', () => {
  const headers = () => [...screen.getByTestId('eval-table').querySelectorAll('thead tr:last-child th')].map((th) => th.textContent?.replace(/[▲▼↕]/g, '').trim());

  it('has a column only for the settings that differ, and says what every configuration shares once, above it', async () => {
    // Chat model and mode differ; embedding model, chunker, k and fusion are the same in all three.
    await show(report());
    // More than one setting differs: a sticky label joins them, so a row stays named when the table scrolls sideways.
    expect(headers().slice(0, 3)).toEqual(['Differs in', 'Chat model', 'Mode']);
    expect(row(2).querySelector('th')?.textContent).toBe('retrieval only · lexical');
    expect(headers()).not.toContain('Embedding model');
    expect(headers()).not.toContain('Chunker');
    const body = screen.getByTestId('eval-table').querySelector('tbody')!;
    expect(body.textContent).not.toMatch(/embeddinggemma|heading:256|rrf:60/);
    expect(row(0).querySelector('[data-col="chatModel"]')?.textContent).toBe('llama3.2');
    expect(row(2).querySelector('[data-col="mode"]')?.textContent).toBe('lexical');
    const common = screen.getByTestId('eval-common').textContent!;
    expect(common).toBe('Same in every configuration: Embedding model embeddinggemma · Chunker heading:256 · k=5 · Fusion rrf:60');
  });

  it('with one setting that differs, its column names the rows (no label repeating it)', async () => {
    const base = report();
    const c0 = base.configs[0]!;
    await show(report({ configs: [c0, { ...c0, k: 8 }], perQuestion: base.perQuestion.filter((p) => p.config === 0) }));
    expect(headers().slice(0, 2)).toEqual(['k', 'hit@1']);
    expect(row(1).querySelector('th')?.textContent).toBe('8');
    expect(screen.getByTestId('eval-common').textContent).toBe('Same in every configuration: Chat model llama3.2 · Embedding model embeddinggemma · Chunker heading:256 · Mode hybrid · Fusion rrf:60');
  });

  it('names a lone configuration whole, with no line of shared settings to repeat it', async () => {
    const base = report();
    await show(report({ configs: [base.configs[0]!], perQuestion: base.perQuestion.filter((p) => p.config === 0) }));
    expect(screen.queryByTestId('eval-common')).toBeNull();
    expect(row(0).querySelector('th')?.textContent).toBe('llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid · rrf:60');
  });
});

describe('an answer in the drill-down', () => {
  it('shows its citation markers as the numbers of its citation list, not as chunk ids', async () => {
    const base = report();
    const perQuestion = base.perQuestion.map((p) =>
      p.config === 0 && p.score.questionId === 'keys'
        ? { ...p, answer: 'Keys rotate every 90 days [doc1#0]. Old ones last 48 hours [doc2#0], as said [doc1#0].', citations: [{ chunkId: 'doc1#0', check: 'supported' as const }, { chunkId: 'doc2#0', check: 'weak' as const }] }
        : p,
    );
    await show(report({ perQuestion }));
    const first = columns()[0] as HTMLElement;
    const answer = first.querySelector('[data-testid="eval-answer"]') as HTMLElement;
    expect(answer.textContent).toBe('Keys rotate every 90 days [1]. Old ones last 48 hours [2], as said [1].');
    const cited = within(first).getAllByTestId('eval-citation').map((li) => li.textContent);
    expect(cited[0]).toMatch(/^\[1\] supported key-rotation\.md/);
    expect(cited[1]).toMatch(/^\[2\] weakly supported other-2\.md/);
  });
});

describe('a retrieval-only report', () => {
  it('leaves out the columns only answers fill, from the table and the chart, keeping retrieval, speed and errors', async () => {
    const base = report();
    const configs = base.configs.map((c) => ({ ...c, chatModel: null }));
    await show(report({ configs, perQuestion: base.perQuestion.map((q) => ({ ...q, answer: null, score: { ...q.score, answer: null } })) }));
    const table = screen.getByTestId('eval-table');
    const heads = [...table.querySelectorAll('th[data-col]')].map((th) => th.getAttribute('data-col'));
    expect(heads).toEqual(expect.arrayContaining(['hit1', 'factSent', 'sourceTokens', 'retrieveP50', 'errors']));
    for (const answerOnly of ['answerHasFact', 'citationValid', 'refusalAccuracy', 'promptEstimated', 'generateP50', 'tokensPerSecond']) expect(heads).not.toContain(answerOnly);
    const groups = [...table.querySelectorAll('tr.eval-table__groups th')].map((th) => [th.textContent, Number(th.getAttribute('colspan'))]);
    expect(groups.map(([label]) => label)).toEqual(['Configuration', 'Retrieval', 'Cost and speed', 'Stability']);
    // Every header cell sits under a group: the spans add up to the columns.
    const spans = groups.reduce((n, [, span]) => n + (span as number), 0);
    expect(spans).toBe(table.querySelectorAll('thead tr:not(.eval-table__groups) th').length);
    const options = [...within(screen.getByTestId('eval-chart')).getByTestId('eval-chart-metric').querySelectorAll('option')].map((o) => o.textContent);
    expect(options).toContain('hit@k');
    expect(options).not.toContain('Answer has fact');
  });

  it('keeps every column when any configuration had a chat model', async () => {
    await show(report());
    const heads = [...screen.getByTestId('eval-table').querySelectorAll('th[data-col]')].map((th) => th.getAttribute('data-col'));
    expect(heads).toEqual(expect.arrayContaining(['answerHasFact', 'tokensPerSecond', 'errors']));
  });
});
