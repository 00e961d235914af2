interface ProgressBarProps {
  label: string;
  value: number;
  max: number;
  /** Unknown total: an indeterminate bar. */
  indeterminate?: boolean;
}

/** An accessible progress bar (role=progressbar) that CSS can style in both colour schemes. */
export function ProgressBar({ label, value, max, indeterminate = false }: ProgressBarProps) {
  const pct = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <div
      className={indeterminate ? 'progress progress--indeterminate' : 'progress'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={indeterminate ? undefined : max}
      aria-valuenow={indeterminate ? undefined : value}
    >
      <div className="progress__fill" style={{ width: indeterminate ? '100%' : `${pct}%` }} />
    </div>
  );
}
