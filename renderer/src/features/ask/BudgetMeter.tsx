import type { Budget } from '../../common/types';
import { formatNumber, plural } from '../../common/format';

const SEGMENTS = [
  { key: 'system', label: 'System rules' },
  { key: 'history', label: 'History' },
  { key: 'sources', label: 'Sources' },
  { key: 'question', label: 'Question' },
  { key: 'reserve', label: 'Answer reserve' },
] as const;

export interface MeterSegment {
  key: (typeof SEGMENTS)[number]['key'] | 'free';
  label: string;
  tokens: number;
  /** Share of the bar, in percent. */
  pct: number;
}

/** The bar's segments: each part of the breakdown as a share of num_ctx (or of the total, if it overflows), plus what is left free. */
export function meterSegments(budget: Budget): MeterSegment[] {
  const used = SEGMENTS.reduce((s, seg) => s + Math.max(0, budget.breakdown[seg.key]), 0);
  const whole = Math.max(budget.numCtx, used, 1);
  const parts: MeterSegment[] = SEGMENTS.map((seg) => {
    const tokens = Math.max(0, budget.breakdown[seg.key]);
    return { key: seg.key, label: seg.label, tokens, pct: (tokens / whole) * 100 };
  });
  const free = Math.max(0, budget.numCtx - used);
  parts.push({ key: 'free', label: 'Free', tokens: free, pct: (free / whole) * 100 });
  return parts;
}

interface BudgetMeterProps {
  budget: Budget | null;
  /** The answer is still running (the budget may yet arrive). */
  pending?: boolean;
}

/**
 * How many passages went to the model, beside how many Settings ask for (k): "4 of 6 passages fit"
 * when the budget held some back, "3 passages found (k = 6)" when the search found no more.
 */
export function passageCount(budget: Budget): { text: string; why: string | null } {
  const p = budget.passages;
  const sent = plural(budget.k, 'passage');
  if (!p || (budget.k === p.asked && p.heldBy === null)) return { text: `${sent} (k = ${formatNumber(budget.k)})`, why: null };
  if (p.heldBy !== null) {
    const held = p.found - budget.k;
    const room =
      p.heldBy === 'window'
        ? `the context window (num_ctx ${formatNumber(budget.numCtx)}) had room for no more with the answer reserve`
        : 'the tokens set aside for sources were spent';
    return { text: `${formatNumber(budget.k)} of ${formatNumber(p.found)} passages fit`, why: `${held === 1 ? '1 passage found was' : `${formatNumber(held)} passages found were`} not sent: ${room}. Settings ask for up to ${formatNumber(p.asked)} (k).` };
  }
  return { text: `${sent} found (k = ${formatNumber(p.asked)})`, why: `The search found only ${sent} for this question; Settings ask for up to ${formatNumber(p.asked)} (k).` };
}

function PassageCount({ budget }: { budget: Budget }) {
  const { text, why } = passageCount(budget);
  return (
    <span className="muted" data-testid="budget-passages" {...(why ? { title: why } : {})}>
      {text}
      {why && <span className="visually-hidden">. {why}</span>}
    </span>
  );
}

/** How the context window (num_ctx) was spent on this answer, and whether Ollama read all of it. */
export function BudgetMeter({ budget, pending = true }: BudgetMeterProps) {
  if (!budget) {
    return (
      <section className="meter meter--empty" data-testid="budget-meter" aria-label="Context budget">
        <p className="muted">{pending ? 'The context budget appears once the prompt is built.' : 'No prompt was sent to the model, so no context was used.'}</p>
      </section>
    );
  }
  const segments = meterSegments(budget);
  return (
    <section className="meter" data-testid="budget-meter" aria-label="Context budget">
      <div className="meter__title">
        <span>Context window: {formatNumber(budget.numCtx)} tokens</span>
        <span
          className={`meter__accuracy meter__accuracy--${budget.exact ? 'exact' : 'approximate'}`}
          data-testid="budget-accuracy"
          title={
            budget.exact
              ? 'Counted with the model’s own tokenizer and chat template, as Ollama counts'
              : 'Estimated with a general tokenizer and a ratio learned from earlier answers'
          }
        >
          {budget.exact ? 'exact' : 'approximate'}
        </span>
        <PassageCount budget={budget} />
      </div>
      <div className="meter__bar" role="img" aria-label={segments.map((s) => `${s.label} ${formatNumber(s.tokens)}`).join(', ')}>
        {segments.map((s) => (
          <div key={s.key} className={`meter__seg meter__seg--${s.key}`} data-segment={s.key} style={{ width: `${s.pct}%` }} />
        ))}
      </div>
      <ul className="meter__legend">
        {segments.map((s) => (
          <li key={s.key} data-legend={s.key}>
            <span className={`meter__swatch meter__seg--${s.key}`} aria-hidden="true" />
            {s.label} <span className="num">{formatNumber(s.tokens)}</span>
          </li>
        ))}
      </ul>
      <p className="meter__numbers">
        {budget.exact ? 'counted' : 'estimated'} {formatNumber(budget.estimated)} · Ollama read {budget.reported === null ? '—' : formatNumber(budget.reported)}
        {budget.exact ? '' : ` · calibration ×${budget.ratio.toFixed(2)}`}
      </p>
      {budget.truncationSuspected && (
        <div className="warning warning--strong" role="alert" data-testid="truncation-warning">
          {budget.exact ? cutMessage(budget) : 'Ollama read far fewer tokens than were sent — the prompt was probably cut. Raise num_ctx or lower k.'}
        </div>
      )}
    </section>
  );
}

/** With an exact count the cut is certain: say how much, and which sources the model never saw. */
function cutMessage(budget: Budget): string {
  const lost = budget.lostSources;
  const which = lost.length === 0 ? '' : ` It lost source${lost.length > 1 ? 's' : ''} ${lost.join(', ')} of ${budget.k}.`;
  return `Ollama cut the prompt: it read ${formatNumber(budget.reported ?? 0)} of ${formatNumber(budget.estimated)} tokens.${which} Raise num_ctx or lower k.`;
}
