import type { ReactNode } from 'react';
import { describeError } from '../../api/messages';
import { InlineCode } from '../../common/InlineCode';

interface CheckRowProps {
  label: string;
  /** null while the check runs. */
  check: { ok: boolean; error: { code: string; message: string } | null } | null;
  /** What the check showed, when it passed. */
  children: ReactNode;
}

/** One line of the check: running, passed with what it showed, or failed with why. */
export function CheckRow({ label, check, children }: CheckRowProps) {
  const state = check === null ? 'running' : check.ok ? 'ok' : 'failed';
  const error = check?.error ? describeError(check.error) : null;
  return (
    <li className={`check-row check-row--${state}`} data-check={state}>
      <span className="check-row__mark" aria-hidden="true">
        {state === 'running' ? '' : state === 'ok' ? '✓' : '✕'}
      </span>
      <div>
        <p className="check-row__label">
          <strong>{label}</strong>
          <span className="visually-hidden">: {state === 'running' ? 'checking' : state === 'ok' ? 'works' : 'failed'}</span>
        </p>
        {state === 'running' && <p className="muted small">Checking…</p>}
        {state === 'ok' && <p className="small">{children}</p>}
        {error && (
          <p className="small check-row__error">
            <InlineCode text={error.sentence} />
            {error.detail && <span className="check-row__detail"> {error.detail}</span>}
          </p>
        )}
      </div>
    </li>
  );
}
