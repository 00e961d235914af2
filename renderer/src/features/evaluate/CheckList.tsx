import type { ReactNode } from 'react';

export interface CheckOption {
  value: string;
  label: ReactNode;
  /** Shown after the label, quieter. */
  note?: string;
  disabled?: boolean;
}

interface CheckListProps {
  legend: string;
  hint?: ReactNode;
  options: readonly CheckOption[];
  checked: readonly string[];
  onChange: (checked: string[]) => void;
  disabled?: boolean;
  children?: ReactNode;
  testId?: string;
}

/** A group of checkboxes choosing several values; keeps the options' order in what it reports. */
export function CheckList({ legend, hint, options, checked, onChange, disabled = false, children, testId }: CheckListProps) {
  const toggle = (value: string, on: boolean) => {
    const next = new Set(checked);
    if (on) next.add(value);
    else next.delete(value);
    onChange([...options.map((o) => o.value).filter((v) => next.has(v)), ...checked.filter((v) => next.has(v) && !options.some((o) => o.value === v))]);
  };
  return (
    <fieldset className="eval-field" disabled={disabled} data-testid={testId}>
      <legend>{legend}</legend>
      {hint && <p className="muted small eval-field__hint">{hint}</p>}
      <div className="eval-checks">
        {options.map((o) => (
          <label key={o.value} className="eval-check">
            <input type="checkbox" value={o.value} checked={checked.includes(o.value)} disabled={o.disabled} onChange={(e) => toggle(o.value, e.target.checked)} />
            <span>{o.label}</span>
            {o.note && <span className="muted small eval-check__note">{o.note}</span>}
          </label>
        ))}
      </div>
      {children}
    </fieldset>
  );
}
