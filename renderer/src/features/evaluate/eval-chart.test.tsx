import { describe, expect, it } from 'vitest';
import type { EvalConfigResult } from '../../../../shared/eval';
import { bigReport, metrics, report } from '../../test/eval-fixtures';
import { MAX_BARS, buildChartConfig, chartBars, chartHeight, chartSummary } from './eval-chart';

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
    // The fastest (4 ms) had a failed run, so it is not the best; the other two tie.
    expect(t.data.datasets[0]?.backgroundColor).toEqual(['blue', 'blue', 'blue']);
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

  it('chooses the best bar from the raw values, as the table does, not from the rounded ones', () => {
    const base = report();
    const c0 = base.configs[0] as EvalConfigResult;
    const r = report({ configs: [{ ...c0, metrics: metrics({ hitK: 0.9995 }) }, { ...c0, k: 7, metrics: metrics({ hitK: 0.9996 }) }] });
    const c = buildChartConfig(r, 'hitK', { bar: 'blue', best: 'green', text: 'black', muted: 'grey', grid: 'silver', font: 'serif' });
    expect(c.data.datasets[0]?.data).toEqual([100, 100]);
    expect(c.data.datasets[0]?.backgroundColor).toEqual(['blue', 'green']);
  });

  it('draws at most MAX_BARS bars, the best first, so the canvas stays within what a browser can draw', () => {
    const big = bigReport(300);
    const c = buildChartConfig(big, 'hitK');
    expect(c.data.labels).toHaveLength(MAX_BARS);
    expect(c.data.datasets[0]?.data).toHaveLength(MAX_BARS);
    const data = c.data.datasets[0]?.data as number[];
    expect(data.slice(0, 30).every((v) => v === 90)).toBe(true);
    expect(data).toEqual([...data].sort((a, b) => b - a));
    expect(chartHeight(big.configs.length)).toBeLessThanOrEqual(MAX_BARS * 34 + 56);
    expect(chartHeight(big.configs.length) * 4).toBeLessThan(32_767);
    // Tall: the scale is read at the top; a short chart keeps it below.
    expect((c.options?.scales?.x as { position?: string }).position).toBe('top');
    expect((buildChartConfig(report(), 'hitK').options?.scales?.x as { position?: string }).position).toBe('bottom');
    // Lower is better: the lowest first.
    expect(chartBars(big, 'errors', 3)).toEqual([0, 1, 2]);
    // Up to the cap, every configuration in report order.
    expect(chartBars(bigReport(5), 'hitK')).toEqual([0, 1, 2, 3, 4]);
    // The text list still has them all.
    expect(chartSummary(big, 'hitK')).toHaveLength(300);
  });

  it('labels a configuration whose every run failed "(failed)", with no bar, and lists it as failed', () => {
    const base = report();
    const dead = { ...(base.configs[0] as EvalConfigResult), metrics: metrics({ hitK: 0, answerHasFact: null }), errors: 2 };
    const r = report({ configs: [dead, base.configs[1] as EvalConfigResult], perQuestion: base.perQuestion.filter((p) => p.config < 2) });
    const c = buildChartConfig(r, 'hitK');
    expect(c.data.datasets[0]?.data).toEqual([null, 100]);
    expect(c.data.labels?.[0]).toBe('llama3.2 (failed)');
    expect(chartSummary(r, 'answerHasFact')[0]).toEqual({ label: 'llama3.2', value: 'failed' });
  });
});
