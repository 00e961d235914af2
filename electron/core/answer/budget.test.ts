import { describe, expect, it } from 'vitest';
import { QuireError } from '../../../shared/errors';
import { countMessages, fitPrompt, FULL_WINDOW_MARGIN, settleBudget, TRUNCATION_THRESHOLD } from './budget';
import type { PromptSource } from './prompt';

const source = (i: number, words = 60): PromptSource => ({
  chunkId: `aaaaaaaaaaaa#${i}`,
  path: `notes/n${i}.md`,
  heading: `Note ${i}`,
  lines: [1, 10],
  text: `Passage ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(words / 9)}`.trim(),
  flags: [],
});
const candidates = Array.from({ length: 10 }, (_, i) => source(i));
const base = { question: 'What does the fox do?', candidates, history: [], maxK: 6, numCtx: 8192, reserve: 512, ratio: 1 };

describe('fitPrompt', () => {
  it('keeps the sources within maxSourceTokens, in rank order, but always sends one that fits num_ctx', () => {
    const one = fitPrompt({ ...base, maxK: 1 }).budget.breakdown.sources;
    const three = fitPrompt({ ...base, maxK: 3 }).budget.breakdown.sources;
    const capped = fitPrompt({ ...base, maxSourceTokens: three });
    expect(capped.budget.k).toBe(3);
    expect(capped.budget.breakdown.sources).toBe(three);
    expect(capped.sources.map((s) => s.chunkId)).toEqual(candidates.slice(0, 3).map((c) => c.chunkId));
    expect(fitPrompt({ ...base, maxSourceTokens: three - 1 }).budget.k).toBe(2);
    // Smaller than any one source: the best one still goes.
    const tiny = fitPrompt({ ...base, maxSourceTokens: 10 });
    expect(tiny.budget.k).toBe(1);
    expect(tiny.budget.breakdown.sources).toBe(one);
  });

  it('sends maxK sources when they fit, and the breakdown adds up to the prompt it built', () => {
    const f = fitPrompt(base);
    expect(f.budget.k).toBe(6);
    const b = f.budget.breakdown;
    expect(b.system + b.history + b.sources + b.question).toBe(f.budget.raw);
    // The parts are counted separately; the whole prompt counted at once agrees within a few tokens.
    expect(Math.abs(countMessages(f.messages) - f.budget.raw)).toBeLessThanOrEqual(4);
    expect(f.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(f.messages[1]!.content).toMatch(/^Sources:\n\n<source id="aaaaaaaaaaaa#0" path="notes\/n0.md" heading="Note 0" lines="1-10">/);
    expect(f.messages[1]!.content.trimEnd().endsWith('Question: What does the fox do?')).toBe(true);
  });

  it('shrinks k until the calibrated estimate plus the reserve fits num_ctx, and never overflows', () => {
    for (const numCtx of [850, 950, 1050, 1150]) {
      const f = fitPrompt({ ...base, numCtx });
      expect(f.budget.k).toBeLessThan(6);
      expect(f.budget.estimated + f.budget.breakdown.reserve).toBeLessThanOrEqual(numCtx);
      // One more source would not have fitted.
      if (f.budget.k < candidates.length) {
        const more = fitPrompt({ ...base, numCtx: numCtx * 10, maxK: f.budget.k + 1 });
        expect(more.budget.estimated + 512).toBeGreaterThan(numCtx);
      }
    }
  });

  it('applies the calibration ratio before deciding what fits', () => {
    const plain = fitPrompt({ ...base, numCtx: 1500 });
    const inflated = fitPrompt({ ...base, numCtx: 1500, ratio: 1.5 });
    expect(inflated.budget.k).toBeLessThan(plain.budget.k);
    expect(inflated.budget.estimated).toBe(Math.ceil(inflated.budget.raw * 1.5));
  });

  it('keeps the newest history turns that fit and drops the oldest first', () => {
    const history = Array.from({ length: 8 }, (_, i) => ({ question: `Question ${i} ${'word '.repeat(40)}`, answer: `Answer ${i} ${'word '.repeat(40)}` }));
    const f = fitPrompt({ ...base, history, numCtx: 1300, maxK: 2 });
    expect(f.history.length).toBeGreaterThan(0);
    expect(f.history.length).toBeLessThan(8);
    expect(f.history.at(-1)!.question.startsWith('Question 7')).toBe(true);
    expect(f.history[0]!.question.startsWith(`Question ${8 - f.history.length}`)).toBe(true);
    expect(f.budget.breakdown.history).toBeGreaterThan(0);
    expect(f.budget.estimated + f.budget.breakdown.reserve).toBeLessThanOrEqual(1300);
  });

  it('refuses to build a prompt that cannot fit one source', () => {
    let error: unknown;
    try {
      fitPrompt({ ...base, candidates: [source(0, 2000)], numCtx: 1024 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QuireError);
    expect((error as QuireError).code).toBe('CONTEXT_TOO_SMALL');
    expect((error as QuireError).message).toMatch(/num_ctx is 1024/);
  });
});

describe('settleBudget', () => {
  it('suspects truncation only below the threshold share of the estimate', () => {
    const f = fitPrompt(base).budget;
    expect(settleBudget(f, f.estimated).truncationSuspected).toBe(false);
    expect(settleBudget(f, Math.ceil(f.estimated * TRUNCATION_THRESHOLD)).truncationSuspected).toBe(false);
    expect(settleBudget(f, Math.floor(f.estimated * TRUNCATION_THRESHOLD) - 1).truncationSuspected).toBe(true);
    expect(settleBudget(f, null)).toEqual(f);
  });

  it('suspects truncation when the reported prompt filled the whole window', () => {
    const f = fitPrompt({ ...base, numCtx: 1200 }).budget;
    expect(settleBudget(f, 1200 - FULL_WINDOW_MARGIN).truncationSuspected).toBe(true);
    expect(settleBudget(f, f.estimated + 20).truncationSuspected).toBe(false);
  });
});
