import { describe, expect, it } from 'vitest';
import { checkGrid, chunkerProblem, parseKs, resolveModel, type GridDraft } from './eval-grid';

const draft = (over: Partial<GridDraft> = {}): GridDraft => ({
  chatModels: ['llama3.2:latest'],
  retrievalOnly: false,
  embedModels: ['embeddinggemma:latest'],
  chunkers: ['heading:256'],
  customChunkers: '',
  ks: '5',
  modes: ['hybrid'],
  fusions: 'rrf:60',
  repeats: '1',
  ...over,
});

describe('fusion in the grid', () => {
  it('takes several specs, canonical and once each, and multiplies the configurations', () => {
    const c = checkGrid(draft({ fusions: 'rrf, weighted:0.30, rrf:60, weighted:0.3' }));
    expect(c.problems).toEqual([]);
    expect(c.grid?.fusions).toEqual(['rrf:60', 'weighted:0.3']);
    expect(c.configs).toBe(2);
    // Only hybrid fuses: keyword search runs once whatever the fusions.
    expect(checkGrid(draft({ modes: ['lexical', 'hybrid'], fusions: 'rrf:60, weighted:0.3' })).configs).toBe(3);
  });

  it('names a spec it does not know, and defaults to the default fusion, weighted:0.2, when left empty', () => {
    expect(checkGrid(draft({ fusions: 'rrf:60, blend:2' })).problems).toEqual([expect.stringMatching(/^"blend:2" is not a fusion Quire knows; expected rrf/)]);
    expect(checkGrid(draft({ fusions: '  ' })).grid?.fusions).toEqual(['weighted:0.2']);
  });
});

describe('the Evaluate grid', () => {
  it('turns the form into the grid and counts configurations and indexes', () => {
    const c = checkGrid(draft({ chatModels: ['a', 'b'], chunkers: ['heading:256', 'fixed:128/25'], ks: '3, 5', modes: ['lexical', 'hybrid'], repeats: '2' }));
    expect(c.problems).toEqual([]);
    expect(c.grid).toEqual({ chatModels: ['a', 'b'], embedModels: ['embeddinggemma:latest'], chunkers: ['heading:256', 'fixed:128/25'], ks: [3, 5], modes: ['lexical', 'hybrid'], fusions: ['rrf:60'], repeats: 2 });
    expect(c.configs).toBe(2 * 1 * 2 * 2 * 2);
    expect(c.indexes).toBe(2);
  });

  it('counts a keyword configuration once, whatever the embedding models, and no index for a model only it would use', () => {
    const two = ['embeddinggemma:latest', 'nomic-embed-text:latest'];
    expect(checkGrid(draft({ embedModels: two, modes: ['lexical', 'hybrid'] }))).toMatchObject({ configs: 3, indexes: 2 });
    expect(checkGrid(draft({ embedModels: two, modes: ['lexical'] }))).toMatchObject({ configs: 1, indexes: 1 });
  });

  it('retrieval only sends no chat models and counts as one', () => {
    const c = checkGrid(draft({ retrievalOnly: true, chatModels: ['a', 'b'] }));
    expect(c.grid?.chatModels).toEqual([]);
    expect(c.configs).toBe(1);
  });

  it('adds valid custom chunkers once, in canonical form', () => {
    const c = checkGrid(draft({ customChunkers: 'heading, fixed:64, heading:256 ' }));
    expect(c.grid?.chunkers).toEqual(['heading:256', 'fixed:64/0']);
  });

  it('says in sentences what is wrong', () => {
    const c = checkGrid(draft({ chatModels: [], embedModels: [], chunkers: [], ks: '3, x', modes: [], repeats: '0' }));
    expect(c.grid).toBeNull();
    expect(c.problems).toEqual([
      'Choose at least one chat model, or choose "Retrieval only".',
      'Choose at least one embedding model.',
      'Choose at least one chunker.',
      '"x" is not a whole number; write the values of k like "3, 5".',
      'Choose at least one search mode.',
      'Repeats must be a whole number from 1 to 20.',
    ]);
  });

  it('parses k values and refuses ones out of range', () => {
    expect(parseKs('3,5 5;8')).toEqual({ ks: [3, 5, 8], problem: null });
    expect(parseKs('').problem).toMatch(/at least one value of k/);
    expect(parseKs('0').problem).toMatch(/from 1 to 20/);
    // The engine's own bound (the contract's ks schema): what the form lets through, it accepts.
    expect(parseKs('20')).toEqual({ ks: [20], problem: null });
    expect(parseKs('21').problem).toMatch(/from 1 to 20/);
  });

  it('checks chunker specs like the engine does', () => {
    expect(chunkerProblem('recursive:1000/100')).toBeNull();
    expect(chunkerProblem('heading')).toBeNull();
    expect(chunkerProblem('fixed')).toMatch(/needs a size/);
    expect(chunkerProblem('fixed:128/128')).toMatch(/overlap must be smaller/);
    expect(chunkerProblem('heading:8')).toMatch(/from 16 to 100000/);
    expect(chunkerProblem('heading:256/10')).toMatch(/no overlap/);
    expect(chunkerProblem('sentences:3')).toMatch(/not a chunker Quire knows/);
  });

  it('finds the installed model a settings name refers to, as Ollama does', () => {
    const installed = ['llama3.2:latest', 'qwen2.5:0.5b', 'library/embeddinggemma:latest'];
    expect(resolveModel('llama3.2', installed)).toBe('llama3.2:latest');
    expect(resolveModel('Qwen2.5:0.5b', installed)).toBe('qwen2.5:0.5b');
    expect(resolveModel('qwen2.5', installed)).toBe('qwen2.5');
    expect(resolveModel('mistral', [])).toBe('mistral');
  });
});
