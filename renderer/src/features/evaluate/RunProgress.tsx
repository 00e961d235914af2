import { useEffect, useRef, useState } from 'react';
import type { EvalProgress } from './eval-job';
import { formatDuration, formatNumber } from '../../common/format';
import { ProgressBar } from '../../common/ProgressBar';

interface RunProgressProps {
  progress: EvalProgress | null;
  startedAt: number | null;
  onCancel: () => void;
}

/** A running evaluation: runs done of all, what runs now, time spent and left, and Cancel. */
export function RunProgress({ progress, startedAt, onCancel }: RunProgressProps) {
  const [now, setNow] = useState(() => Date.now());
  const box = useRef<HTMLElement>(null);
  // The Run button sits at the end of a long form: bring the progress into view when a run starts.
  useEffect(() => {
    box.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, []);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const elapsed = startedAt ? Math.max(0, now - startedAt) : 0;
  const p = progress;
  const left = p && p.done > 0 && p.total > 0 && elapsed > 1000 ? (elapsed * (p.total - p.done)) / p.done : null;
  return (
    <section ref={box} className="card eval-progress" data-testid="eval-progress" aria-labelledby="eval-progress-title">
      <h2 id="eval-progress-title" className="section-title">
        Evaluation running
      </h2>
      <ProgressBar label="Evaluation progress" value={p?.done ?? 0} max={p?.total ?? 0} indeterminate={!p || p.total === 0} />
      <div className="eval-progress__line">
        <span data-testid="eval-progress-count">{p ? `${formatNumber(p.done)} of ${formatNumber(p.total)} runs` : 'Starting…'}</span>
        <span className="muted">
          {formatDuration(elapsed)} elapsed{left !== null ? ` · about ${formatDuration(left)} left` : ''}
        </span>
      </div>
      <p className="eval-progress__label mono small" aria-live="off" title={p?.label}>
        {p?.label || '\u00a0'}
      </p>
      <button type="button" className="button" data-testid="eval-cancel" onClick={onCancel}>
        Cancel evaluation
      </button>
    </section>
  );
}
