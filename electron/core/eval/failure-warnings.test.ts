import { describe, expect, it } from 'vitest';
import type { EvalConfigResult, EvalQuestionRun } from '../../../shared/eval';
import { aggregate } from './metrics';
import { failureWarnings } from './failure-warnings';

const config = (embedModel: string, mode: EvalConfigResult['mode']): EvalConfigResult => ({
  chatModel: 'llama3.2', embedModel, chunker: 'heading:256', k: 6, mode, fusion: 'rrf:60', metrics: aggregate([]), errors: 0,
});
const run = (cfg: number, questionId: string, error: { code: string; message: string } | null): EvalQuestionRun => ({
  config: cfg, answer: null, retrieved: [], citations: [], error,
  score: { questionId, repeat: 0, answerable: true, retrieval: null, retrieveMs: null, answer: null },
});
const GONE = { code: 'OLLAMA_UNREACHABLE', message: 'Ollama is not reachable at http://127.0.0.1:11434.' };

describe('failureWarnings', () => {
  it('says each reason once, with how many runs it failed and in which configurations', () => {
    const configs = ['a', 'b', 'c', 'd', 'e'].map((m) => config(m, 'dense'));
    const runs = [run(0, 'q1', null), run(0, 'q2', GONE), run(1, 'q1', GONE), run(1, 'q2', GONE), run(2, 'q1', { code: 'INTERNAL', message: 'Boom.' })];
    expect(failureWarnings(configs.slice(0, 3), runs)).toEqual([
      '3 question runs of configurations “llama3.2 · a · heading:256 · k=6 · dense” and “llama3.2 · b · heading:256 · k=6 · dense” failed: Ollama is not reachable at http://127.0.0.1:11434.',
      '1 question run of configuration “llama3.2 · c · heading:256 · k=6 · dense” failed: Boom.',
    ]);
    const everywhere = configs.map((_, i) => run(i, 'q1', GONE));
    expect(failureWarnings(configs, everywhere)).toEqual([
      '5 question runs of 5 configurations (“llama3.2 · a · heading:256 · k=6 · dense”, “llama3.2 · b · heading:256 · k=6 · dense” and 3 more) failed: Ollama is not reachable at http://127.0.0.1:11434.',
    ]);
  });

  it('leaves out what another warning already explains, and says nothing when nothing failed', () => {
    const configs = [config('a', 'dense'), config('a', 'lexical')];
    expect(failureWarnings(configs, [run(0, 'q1', { code: 'NO_EMBEDDINGS', message: 'No vectors.' })], (i) => i === 0)).toEqual([]);
    expect(failureWarnings(configs, [run(1, 'q1', null)])).toEqual([]);
  });
});
