import { describe, expect, it } from 'vitest';
import { checkTargets, targetsLine } from './targets';

const base = { hit1: 0.56, hit3: 0.85, hit5: 0.97, factSent: 0.74, sourceTokensP50: 1600 };

describe("the bench's targets line", () => {
  it('meets each target only at its multiple of the baseline', () => {
    const met = checkTargets({ hit1: 0.84, hit3: 0.85 * 1.2, hit5: 0.97, factSent: 0.85, sourceTokensP50: 1600 }, { ...base, hit3: 0.8 });
    expect(met.map((c) => [c.name, c.met])).toEqual([['hit@1', true], ['hit@3', true], ['fact sent', true], ['no loss', true]]);
    const short = checkTargets({ hit1: 0.83, hit3: 0.95, hit5: 0.97, factSent: 0.9, sourceTokensP50: 1601 }, { ...base, hit3: 0.8 });
    expect(short.map((c) => c.met)).toEqual([false, false, false, true]);
  });

  it('names a multiple over 100% impossible, and each rate below the baseline', () => {
    const checks = checkTargets({ hit1: 0.7, hit3: 0.91, hit5: 0.94, factSent: 0.9, sourceTokensP50: 1590 }, base);
    expect(checks[1]!.says).toContain('impossible');
    expect(checks[0]!.says).not.toContain('impossible');
    expect(checks[3]).toMatchObject({ met: false, says: 'below the baseline: hit@5 94% < 97%' });
    expect(targetsLine(checks)).toMatch(/^1 of 4 targets met: NOT met, hit@1 70% = 1\.25× the baseline's 56%/);
  });

  it('does not count a rate that was not measured as met', () => {
    const checks = checkTargets({ hit1: null, hit3: null, hit5: null, factSent: null, sourceTokensP50: null }, base);
    expect(checks.slice(0, 3).every((c) => !c.met)).toBe(true);
  });
});
