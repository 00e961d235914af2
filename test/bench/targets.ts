/**
 * #11's targets for a configuration against the section baseline, as one line of the bench's
 * output, so that every run says which are met rather than leaving the sums to the reader:
 * hit@1 at least 1.5× the baseline's, hit@3 at least 1.2× it, fact sent at least 85% with median
 * source tokens at most 1,600, and nothing below the baseline (the issue's "no loss", read as no
 * rate under the baseline's). A multiple that needs more than 100% is named impossible.
 */
export interface TargetRow {
  hit1: number | null;
  hit3: number | null;
  hit5: number | null;
  factSent: number | null;
  sourceTokensP50: number | null;
}

export const TARGETS = { hit1Times: 1.5, hit3Times: 1.2, factSent: 0.85, sourceTokens: 1600 } as const;

export interface TargetCheck {
  name: string;
  met: boolean;
  /** What was measured against what was needed, for a person. */
  says: string;
}

const pct = (v: number) => `${(v * 100).toFixed(1).replace(/\.0$/, '')}%`;

function times(name: string, got: number | null, base: number | null, factor: number): TargetCheck {
  if (got === null || base === null) return { name, met: false, says: `${name}: not measured` };
  const need = base * factor;
  const ratio = base > 0 ? `${(got / base).toFixed(2)}×` : '—';
  const reach = need > 1 ? ', impossible: over 100%' : '';
  return { name, met: got >= need - 1e-9, says: `${name} ${pct(got)} = ${ratio} the baseline's ${pct(base)} (needs ${factor}×: ${pct(need)}${reach})` };
}

export function checkTargets(quire: TargetRow, baseline: TargetRow): TargetCheck[] {
  const checks = [times('hit@1', quire.hit1, baseline.hit1, TARGETS.hit1Times), times('hit@3', quire.hit3, baseline.hit3, TARGETS.hit3Times)];
  const fact = quire.factSent;
  const tokens = quire.sourceTokensP50;
  checks.push(
    fact === null || tokens === null
      ? { name: 'fact sent', met: false, says: 'fact sent: not measured' }
      : { name: 'fact sent', met: fact >= TARGETS.factSent && tokens <= TARGETS.sourceTokens, says: `fact sent ${pct(fact)} at ${tokens} tokens (needs ${pct(TARGETS.factSent)} within ${TARGETS.sourceTokens})` },
  );
  const keys = ['hit1', 'hit3', 'hit5', 'factSent'] as const;
  const labels = { hit1: 'hit@1', hit3: 'hit@3', hit5: 'hit@5', factSent: 'fact sent' };
  const lost = keys.filter((k) => quire[k] !== null && baseline[k] !== null && quire[k]! < baseline[k]! - 1e-9);
  checks.push({ name: 'no loss', met: lost.length === 0, says: lost.length === 0 ? 'no rate below the baseline' : `below the baseline: ${lost.map((k) => `${labels[k]} ${pct(quire[k]!)} < ${pct(baseline[k]!)}`).join(', ')}` });
  return checks;
}

/** One line: how many targets are met, then each. */
export function targetsLine(checks: TargetCheck[]): string {
  return `${checks.filter((c) => c.met).length} of ${checks.length} targets met: ${checks.map((c) => `${c.met ? 'met' : 'NOT met'}, ${c.says}`).join('; ')}`;
}
