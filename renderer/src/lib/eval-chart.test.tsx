import { describe, expect, it } from 'vitest';
import { report } from '../test/eval-fixtures';
import { buildChartConfig, chartSummary } from './eval-chart';

describe('chart config', () => {
  it('plots one bar per configuration, rates as percentages on a 0–100 axis', () => {
    const c = buildChartConfig(report(), 'hitK');
    expect(c.type).toBe('bar');
    expect(c.options?.indexAxis).toBe('y');
    expect(c.data.labels).toEqual(['llama3.2 · hybrid', 'qwen2.5:0.5b · hybrid', 'retrieval only · lexical']);
    expect(c.data.datasets[0]?.data).toEqual([50, 100, 75]);
    const x = c.options?.scales?.x as { min?: number; max?: number };
    expect([x.min, x.max]).toEqual([0, 100]);
  });

  it('leaves out the bar of a configuration where the metric was not run, and says so in its label', () => {
    const c = buildChartConfig(report(), 'answerHasFact');
    expect(c.data.datasets[0]?.data).toEqual([50, null, null]);
    expect(c.data.labels?.[1]).toBe('qwen2.5:0.5b · hybrid (not run)');
    expect(c.data.labels?.[2]).toBe('retrieval only · lexical (not run)');
  });

  it('plots raw values for times and MRR, and colours the best bar', () => {
    const palette = { bar: 'blue', best: 'green', text: 'black', muted: 'grey', grid: 'silver', font: 'serif' };
    const t = buildChartConfig(report(), 'retrieveP50', palette);
    expect(t.data.datasets[0]?.data).toEqual([12, 12, 4]);
    expect(t.data.datasets[0]?.backgroundColor).toEqual(['blue', 'blue', 'green']);
    const m = buildChartConfig(report(), 'mrr', palette);
    expect(m.data.datasets[0]?.data).toEqual([0.5, 1, 0.6]);
    expect((m.options?.scales?.x as { max?: number }).max).toBe(1);
    expect(m.data.datasets[0]?.backgroundColor).toEqual(['blue', 'green', 'blue']);
  });

  it('gives the same values as text', () => {
    expect(chartSummary(report(), 'hitK')).toEqual([
      { label: 'llama3.2 · hybrid', value: '50%' },
      { label: 'qwen2.5:0.5b · hybrid', value: '100%' },
      { label: 'retrieval only · lexical', value: '75%' },
    ]);
  });
});
