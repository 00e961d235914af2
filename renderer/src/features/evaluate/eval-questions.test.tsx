import { describe, expect, it, vi } from 'vitest';
import type { EvalConfigResult, EvalQuestionRun } from '../../../../shared/eval';
import { bigReport, report } from '../../test/eval-fixtures';
import { failedConfigs } from '../../../../shared/eval';
import { indexRuns, repeatSummary, repeatSummaryText } from './eval-questions';

describe('the run index', () => {
  it('finds every run by configuration, question and repeat, as a scan would', () => {
    const r = bigReport(7, 3);
    const index = indexRuns(r);
    for (const run of r.perQuestion) expect(index.get(run.config, run.score.questionId, run.score.repeat)).toBe(run);
    expect(index.get(3, 'nope', 0)).toBeNull();
    expect(index.get(99, 'keys', 0)).toBeNull();
    expect(index.repeats(2, 'keys').map((x) => x.score.repeat)).toEqual([0, 1, 2]);
    expect(index.counts).toEqual([6, 6, 6, 6, 6, 6, 6]);
  });

  it('is built in one pass and then answers without scanning the runs again', () => {
    const r = bigReport(50, 2);
    const index = indexRuns(r);
    const find = vi.spyOn(r.perQuestion, 'find');
    const filter = vi.spyOn(r.perQuestion, 'filter');
    for (let c = 0; c < 50; c++) index.get(c, 'wifi', 1);
    expect(find).not.toHaveBeenCalled();
    expect(filter).not.toHaveBeenCalled();
  });
});

describe('configurations whose every run failed', () => {
  it('are those with as many errors as runs', () => {
    const base = report();
    const configs = base.configs.map((c, i) => ({ ...c, errors: i === 1 ? 2 : i === 2 ? 1 : 0 })) as EvalConfigResult[];
    // Config 1 has two runs, both failed; config 2 one failure of two runs.
    expect([...failedConfigs({ ...base, configs })]).toEqual([1]);
  });
});

describe('one configuration’s repeats of a question', () => {
  const r = bigReport(2, 3);
  const index = indexRuns(r);

  it('counts the passes and says whether the answer changed', () => {
    const s = repeatSummary(index.repeats(0, 'keys'));
    expect(s).toEqual({ total: 3, passed: 2, judged: 3, errors: 0, changed: true });
    expect(repeatSummaryText(s)).toBe('passed 2/3 repeats · answer changed');
    expect(repeatSummaryText(repeatSummary(index.repeats(1, 'keys')))).toBe('passed 3/3 repeats · same answer each time');
  });

  it('names failed runs, and says nothing of change without two answers', () => {
    const runs = index.repeats(1, 'keys').map((x, i): EvalQuestionRun => (i > 0 ? { ...x, answer: null, score: { ...x.score, answer: null }, error: { code: 'OLLAMA_UNREACHABLE', message: 'x' } } : x));
    expect(repeatSummaryText(repeatSummary(runs))).toBe('passed 1/3 repeats · 2 failed with an error');
  });
});
