import { describe, expect, it } from 'vitest';
import type { EvalConfigResult, EvalMetrics } from './eval';
import { ANSWERS_LEAD, configAsSettings, leadingConfig, RETRIEVAL_LEAD, settingValueText, type ConfigSettings } from './eval-settings';

const CURRENT: ConfigSettings = { embedModel: 'embeddinggemma', chatModel: 'llama3.2', chunkTokens: 256, k: 6, searchMode: 'hybrid', fusion: 'rrf:60' };
const config = (over: Partial<EvalConfigResult> = {}) => ({ chatModel: null, embedModel: 'embeddinggemma:latest', chunker: 'heading:256', k: 6, mode: 'hybrid' as const, fusion: 'rrf:60', ...over });

describe('a configuration as settings', () => {
  it('changes only what differs, each as setting: old → new, in the order a person reads them', () => {
    const r = configAsSettings(config({ chatModel: 'qwen2.5:0.5b', embedModel: 'nomic-embed-text', chunker: 'heading:512', k: 3, fusion: 'weighted:0.15' }), CURRENT);
    expect(r.patch).toEqual({ embedModel: 'nomic-embed-text', chatModel: 'qwen2.5:0.5b', chunkTokens: 512, k: 3, fusion: 'weighted:0.15' });
    expect(r.changes.map((c) => [c.label, c.from, c.to])).toEqual([
      ['Embedding model', 'embeddinggemma', 'nomic-embed-text'],
      ['Chat model', 'llama3.2', 'qwen2.5:0.5b'],
      ['Chunk size (tokens)', 256, 512],
      ['Passages per answer (k)', 6, 3],
      ['Hybrid fusion', 'rrf:60', 'weighted:0.15'],
    ]);
    expect(r.notApplied).toEqual([]);
  });

  it('a configuration the settings already match changes nothing: a model with or without :latest, and a fusion however written, are the same', () => {
    const r = configAsSettings(config({ chatModel: 'llama3.2:latest', fusion: 'rrf' }), { ...CURRENT, embedModel: 'embeddinggemma:latest' });
    expect(r.patch).toEqual({});
    expect(r.changes).toEqual([]);
  });

  it('keyword search wins: the search mode changes; the embedding model, which keyword search never reads, and the fusion stay', () => {
    const r = configAsSettings(config({ mode: 'lexical', embedModel: 'nomic-embed-text', fusion: 'weighted:0.5' }), CURRENT);
    expect(r.patch).toEqual({ searchMode: 'lexical' });
    expect(r.changes).toEqual([{ key: 'searchMode', label: 'Search mode', from: 'hybrid', to: 'lexical' }]);
    expect(r.notApplied).toEqual(['Your embedding model (embeddinggemma) is left as it is: keyword search uses none.']);
  });

  it('meaning only: the mode and the embedding model; the fusion, which only hybrid search uses, stays', () => {
    const r = configAsSettings(config({ mode: 'dense', embedModel: 'mxbai-embed-large', fusion: 'weighted:0.3' }), CURRENT);
    expect(r.patch).toEqual({ embedModel: 'mxbai-embed-large', searchMode: 'dense' });
  });

  it('a retrieval-only configuration leaves the chat model as it is', () => {
    expect(configAsSettings(config({ chatModel: null, k: 4 }), CURRENT).patch).toEqual({ k: 4 });
  });

  it('another chunker cannot be a setting: said, and the rest is applied', () => {
    const r = configAsSettings(config({ chunker: 'fixed:128/25', k: 3 }), CURRENT);
    expect(r.patch).toEqual({ k: 3 });
    expect(r.notApplied).toEqual(['The chunker fixed:128/25 cannot be applied as a setting: the app cuts documents by heading, up to a chunk size in tokens. The rest is applied.']);
  });

  it('a heading chunker outside the chunk size’s bounds is said with the bounds, not sent to be refused', () => {
    const r = configAsSettings(config({ chunker: 'heading:16' }), CURRENT);
    expect(r.patch).toEqual({});
    expect(r.notApplied).toEqual(['The chunker heading:16 cannot be applied as a setting: Chunk size (tokens) takes a whole number from 32 to 2,048. The rest is applied.']);
  });

  it('names the search mode by its label', () => {
    expect(settingValueText('searchMode', 'lexical')).toBe('Keyword only (lexical)');
    expect(settingValueText('k', 3)).toBe('3');
  });
});

describe('the leading configuration', () => {
  const m = (over: Partial<EvalMetrics>) => ({ hit1: 0.5, hit3: null, hit5: null, hitK: 0.8, mrr: 0.6, factSent: 0.7, sourceTokensP50: null, answerHasFact: null, citationValid: null, supportedCitationRate: null, citesFact: null, refusalAccuracy: null, falseRefusals: null, promptTokens: { estimated: null, reported: null, exact: null }, truncations: null, latencyMs: { retrieve: { p50: null, p95: null }, generate: { p50: null, p95: null } }, tokensPerSecond: null, changedAcrossRepeats: null, ...over }) as EvalMetrics;

  it('is the best first metric; the next ones break a tie, then the earlier configuration', () => {
    const configs = [
      { metrics: m({ hit1: 0.39 }), errors: 0 },
      { metrics: m({ hit1: 0.7, hitK: 0.8 }), errors: 0 },
      { metrics: m({ hit1: 0.7, hitK: 0.9 }), errors: 0 },
      { metrics: m({ hit1: 0.7, hitK: 0.9 }), errors: 0 },
    ];
    expect(leadingConfig(configs, RETRIEVAL_LEAD)).toBe(2);
  });

  it('never a configuration with a failed question run, nor one the first metric did not measure', () => {
    const configs = [
      { metrics: m({ hit1: 0.9 }), errors: 1 },
      { metrics: m({ hit1: 0.4, answerHasFact: null }), errors: 0 },
      { metrics: m({ hit1: 0.3, answerHasFact: 0.6 }), errors: 0 },
    ];
    expect(leadingConfig(configs, RETRIEVAL_LEAD)).toBe(1);
    expect(leadingConfig(configs, ANSWERS_LEAD)).toBe(2);
    expect(leadingConfig([configs[0]!], RETRIEVAL_LEAD)).toBeNull();
  });

  it('false refusals: fewer is better', () => {
    const configs = [
      { metrics: m({ answerHasFact: 0.8, citesFact: 0.5, refusalAccuracy: 1, falseRefusals: 0.2 }), errors: 0 },
      { metrics: m({ answerHasFact: 0.8, citesFact: 0.5, refusalAccuracy: 1, falseRefusals: 0.1 }), errors: 0 },
    ];
    expect(leadingConfig(configs, ANSWERS_LEAD)).toBe(1);
  });
});
