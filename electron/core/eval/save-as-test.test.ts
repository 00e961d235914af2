import { describe, expect, it } from 'vitest';
import { containsFact } from './metrics';
import { factFromChunk, questionId } from './save-as-test';

describe('factFromChunk', () => {
  const chunk = '## Rotation\n\n- We rotate the deploy keys every 90 days. The platform team owns the rotation.\n- Old keys stay valid for 48 hours.';

  it('takes the sentence of the chunk the citing sentence rests on, without markdown markers', () => {
    expect(factFromChunk(chunk, 'Deploy keys are rotated every 90 days [abc#1].')).toBe('We rotate the deploy keys every 90 days.');
    expect(factFromChunk(chunk, 'Old keys remain valid for 48 hours after that [abc#1].')).toBe('Old keys stay valid for 48 hours.');
    expect(factFromChunk(chunk, 'The platform team owns it.')).toBe('The platform team owns the rotation.');
  });

  it('is always found in the chunk it came from', () => {
    for (const sentence of ['keys', 'rotation owners', 'nothing in common at all', '']) {
      expect(containsFact(chunk, factFromChunk(chunk, sentence))).toBe(true);
    }
  });

  it('clips a long passage at a word boundary, still a substring', () => {
    const long = `Intro.\n${'The quick brown fox jumps over the lazy dog again and again '.repeat(6)}`;
    const fact = factFromChunk(long, 'quick brown fox jumps');
    expect(fact.length).toBeLessThanOrEqual(160);
    expect(fact.endsWith(' ')).toBe(false);
    expect(containsFact(long, fact)).toBe(true);
    expect(fact.startsWith('The quick brown fox')).toBe(true);
  });
});

describe('questionId', () => {
  it('is readable and never reuses a taken id', () => {
    expect(questionId('How often are the deploy keys rotated?', new Set())).toBe('how-often-are-the-deploy-keys');
    expect(questionId('How often are the deploy keys rotated?', new Set(['how-often-are-the-deploy-keys']))).toBe('how-often-are-the-deploy-keys-2');
    expect(questionId('???', new Set())).toBe('question');
  });
});
