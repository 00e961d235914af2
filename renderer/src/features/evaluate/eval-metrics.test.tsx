import { describe, expect, it } from 'vitest';
import { CONFIGS, metrics } from '../../test/eval-fixtures';
import type { EvalConfigResult } from '../../../../shared/eval';
import { DEFAULT_FUSION, formatFusion } from '../../../../shared/fusion';
import { bestValue, commonSettings, configLabel, formatMetric, fullConfigLabel, isBest, isFailedValue, metricColumn, nextSort, notRunReason, sortConfigs, varyingDimensions } from './eval-metrics';

const cfg = (chatModel: string | null, over: Partial<EvalConfigResult['metrics']>, rest: Partial<EvalConfigResult> = {}): EvalConfigResult => ({
  chatModel,
  embedModel: 'embeddinggemma:latest',
  chunker: 'heading:256',
  k: 5,
  mode: 'hybrid',
  fusion: formatFusion(DEFAULT_FUSION),
  metrics: metrics(over),
  errors: 0,
  ...rest,
});

describe('sorting configurations', () => {
  const configs = [cfg('a', { hitK: 0.5 }), cfg('b', { hitK: null }), cfg('c', { hitK: 1 }), cfg('d', { hitK: 0.25 }), cfg('e', { hitK: 0.5 })];

  it('sorts descending then ascending, with not-run values last both ways and ties in report order', () => {
    expect(sortConfigs(configs, { key: 'hitK', dir: 'desc' })).toEqual([2, 0, 4, 3, 1]);
    expect(sortConfigs(configs, { key: 'hitK', dir: 'asc' })).toEqual([3, 0, 4, 2, 1]);
  });

  it('leaves report order alone without a sort', () => {
    expect(sortConfigs(configs, null)).toEqual([0, 1, 2, 3, 4]);
  });

  it('sorts text columns naturally and puts retrieval-only (no chat model) last', () => {
    const list = [cfg('qwen2.5:7b', {}), cfg(null, {}), cfg('llama3.2', {}), cfg('qwen2.5:0.5b', {})];
    expect(sortConfigs(list, { key: 'chatModel', dir: 'asc' })).toEqual([2, 3, 0, 1]);
    expect(sortConfigs(list, { key: 'chatModel', dir: 'desc' })).toEqual([0, 3, 2, 1]);
    const ks = [cfg('a', {}, { k: 10 }), cfg('a', {}, { k: 3 }), cfg('a', {}, { k: 5 })];
    expect(sortConfigs(ks, { key: 'k', dir: 'asc' })).toEqual([1, 2, 0]);
  });

  it('sorts nested metrics (latency percentiles, prompt tokens)', () => {
    const list = [
      cfg('a', { latencyMs: { retrieve: { p50: 20, p95: 50 }, generate: { p50: null, p95: null } } }),
      cfg('b', { latencyMs: { retrieve: { p50: 5, p95: 90 }, generate: { p50: 1, p95: 2 } } }),
    ];
    expect(sortConfigs(list, { key: 'retrieveP50', dir: 'asc' })).toEqual([1, 0]);
    expect(sortConfigs(list, { key: 'retrieveP95', dir: 'asc' })).toEqual([0, 1]);
    expect(sortConfigs(list, { key: 'generateP50', dir: 'desc' })).toEqual([1, 0]);
  });

  it('first click sorts best first (descending for higher-is-better, ascending for times); a second click reverses', () => {
    expect(nextSort(null, 'hitK')).toEqual({ key: 'hitK', dir: 'desc' });
    expect(nextSort({ key: 'hitK', dir: 'desc' }, 'hitK')).toEqual({ key: 'hitK', dir: 'asc' });
    expect(nextSort({ key: 'hitK', dir: 'asc' }, 'generateP50')).toEqual({ key: 'generateP50', dir: 'asc' });
    expect(nextSort(null, 'falseRefusals')).toEqual({ key: 'falseRefusals', dir: 'asc' });
    expect(nextSort(null, 'mode')).toEqual({ key: 'mode', dir: 'asc' });
  });
});

describe('metric formatting and labels', () => {
  it('formats rates as percentages, MRR as a decimal, times and counts, null as a dash', () => {
    expect(formatMetric('rate', 2 / 3)).toBe('67%');
    expect(formatMetric('rate', 0)).toBe('0%');
    expect(formatMetric('score', 0.5)).toBe('0.50');
    expect(formatMetric('ms', 12.4)).toBe('12 ms');
    expect(formatMetric('ms', 1530)).toBe('1.53 s');
    expect(formatMetric('tokens', 1234.6)).toBe('1,235');
    expect(formatMetric('rate', null)).toBe('—');
  });

  it('explains a missing value: retrieval only, or the metric’s own reason', () => {
    expect(notRunReason(metricColumn('answerHasFact'), { chatModel: null })).toMatch(/retrieval only/);
    expect(notRunReason(metricColumn('refusalAccuracy'), { chatModel: 'llama3.2' })).toMatch(/no unanswerable question/);
    expect(notRunReason(metricColumn('hitK'), { chatModel: null })).not.toMatch(/retrieval only/);
  });

  it('names configurations by what varies between them', () => {
    expect(varyingDimensions(CONFIGS)).toEqual(['chatModel', 'mode']);
    expect(CONFIGS.map((c) => configLabel(c, varyingDimensions(CONFIGS)))).toEqual(['llama3.2 · hybrid', 'qwen2.5:0.5b · hybrid', 'retrieval only · lexical']);
    const one = CONFIGS[0] as EvalConfigResult;
    // A hybrid row names its fusion, the default too: reports outlive a default.
    expect(configLabel(one, varyingDimensions([one]))).toBe('llama3.2 · embeddinggemma · heading:256 · k=5 · hybrid · rrf:60');
    expect(configLabel(cfg(null, {}), [])).toBe('retrieval only · embeddinggemma · heading:256 · k=5 · hybrid · weighted:0.2');
    expect(configLabel(cfg(null, {}, { mode: 'lexical' }), [])).toBe('retrieval only · heading:256 · k=5 · lexical');
  });

  it('gives a keyword row no embedding model: one row stands for all of them, and alone it makes no column', () => {
    const two = [cfg(null, {}, { mode: 'lexical' }), cfg(null, {}), cfg(null, {}, { embedModel: 'nomic-embed-text:latest' })];
    expect(varyingDimensions(two)).toEqual(['embedModel', 'mode']);
    expect(two.map((c) => configLabel(c, varyingDimensions(two)))).toEqual(['n/a · lexical', 'embeddinggemma · hybrid', 'nomic-embed-text · hybrid']);
    // One embedding model: keyword search beside it sets no embedding model apart.
    const one = two.slice(0, 2);
    expect(varyingDimensions(one)).toEqual(['mode']);
    expect(commonSettings(one)).toContainEqual({ key: 'embedModel', label: 'Embedding model', value: 'embeddinggemma' });
    expect(fullConfigLabel(two[0] as EvalConfigResult)).toBe('retrieval only · heading:256 · k=5 · lexical');
  });

  it('finds the best value only when there is a difference', () => {
    expect(bestValue(CONFIGS, metricColumn('hitK'))).toBe(1);
    expect(bestValue(CONFIGS, metricColumn('falseRefusals'))).toBeNull();
    expect(bestValue(CONFIGS, metricColumn('promptEstimated'))).toBeNull();
  });

  it('never finds the best value in a configuration with failed runs, and the Errors column has none', () => {
    // CONFIGS[2] has the lowest retrieval time (4 ms) but one failed run: it does not win; the other two tie.
    expect(bestValue(CONFIGS, metricColumn('retrieveP50'))).toBeNull();
    const failing = [cfg('a', { hitK: 0.5 }), cfg('b', { hitK: 1 }, { errors: 2 }), cfg('c', { hitK: 0.75 })];
    expect(bestValue(failing, metricColumn('hitK'))).toBe(0.75);
    expect(isBest(failing[1] as EvalConfigResult, metricColumn('hitK'), 1)).toBe(false);
    expect(isBest(failing[2] as EvalConfigResult, metricColumn('hitK'), 0.75)).toBe(true);
    expect(bestValue([cfg('a', {}), cfg('b', {}, { errors: 3 })], metricColumn('errors'))).toBeNull();
  });
});

describe('rounding never claims an end of the scale it did not reach', () => {
  it('shows 100% and 0% only when exact', () => {
    expect(formatMetric('rate', 0.995)).toBe('99.5%');
    expect(formatMetric('rate', 0.004)).toBe('0.4%');
    expect(formatMetric('rate', 0.9996)).toBe('99.96%');
    expect(formatMetric('rate', 0.00001)).toBe('0.001%');
    expect(formatMetric('rate', 1 - 1e-9)).toBe('>99.999%');
    expect(formatMetric('rate', 1)).toBe('100%');
    expect(formatMetric('rate', 0)).toBe('0%');
    expect(formatMetric('rate', 0.994)).toBe('99%');
    expect(formatMetric('rate', 0.006)).toBe('1%');
  });

  it('shows an MRR of 1.00 or 0.00 only when exact', () => {
    expect(formatMetric('score', 0.999)).toBe('0.999');
    expect(formatMetric('score', 0.001)).toBe('0.001');
    expect(formatMetric('score', 1)).toBe('1.00');
    expect(formatMetric('score', 0)).toBe('0.00');
  });
});

describe('configurations whose every run failed', () => {
  it('blame the failure, not the question set, for a missing value', () => {
    const failedCfg = { chatModel: 'llama3.2', errors: 4 };
    expect(notRunReason(metricColumn('refusalAccuracy'), failedCfg, true)).toMatch(/every question run of this configuration failed/);
    expect(notRunReason(metricColumn('refusalAccuracy'), failedCfg, true)).not.toMatch(/no unanswerable question/);
    // Some runs failed: the failure is named as a likely cause before the set's.
    expect(notRunReason(metricColumn('refusalAccuracy'), { chatModel: 'llama3.2', errors: 1 })).toMatch(/^Not run: 1 question run of this configuration failed/);
  });

  it('read "failed" for a missing or zero value, not for a measured one, nor for an answer metric of retrieval only', () => {
    const dead = cfg('a', { hitK: 0, hit1: null, mrr: 0.5 }, { errors: 4 });
    expect(isFailedValue(metricColumn('hitK'), dead, true)).toBe(true);
    expect(isFailedValue(metricColumn('hit1'), dead, true)).toBe(true);
    expect(isFailedValue(metricColumn('mrr'), dead, true)).toBe(false);
    expect(isFailedValue(metricColumn('errors'), dead, true)).toBe(false);
    expect(isFailedValue(metricColumn('hitK'), dead, false)).toBe(false);
    expect(isFailedValue(metricColumn('answerHasFact'), cfg(null, { answerHasFact: null }, { errors: 4 }), true)).toBe(false);
  });

  it('sort their failed values with the not-run ones, last', () => {
    const list = [cfg('a', { hitK: 0 }, { errors: 4 }), cfg('b', { hitK: 0.5 }), cfg('c', { hitK: 0 })];
    expect(sortConfigs(list, { key: 'hitK', dir: 'asc' }, new Set([0]))).toEqual([2, 1, 0]);
    expect(sortConfigs(list, { key: 'hitK', dir: 'desc' }, new Set([0]))).toEqual([1, 2, 0]);
  });
});
