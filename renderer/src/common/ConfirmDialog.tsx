import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  /** danger (the default): a deletion; primary: a change that is not destructive (applying settings). */
  tone?: 'danger' | 'primary';
  /** Room for a table (old → new). */
  wide?: boolean;
}

/** A modal question with Cancel focused first; Esc cancels; focus stays inside while open. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel, busy = false, tone = 'danger', wide = false }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    cancelRef.current?.focus();
    return () => previous?.focus?.();
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
    } else if (e.key === 'Tab') {
      const f = boxRef.current?.querySelectorAll<HTMLElement>('button:not([disabled])');
      if (!f || f.length === 0) return;
      const first = f[0] as HTMLElement;
      const last = f[f.length - 1] as HTMLElement;
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  };
  return (
    <div className="backdrop">
      <div ref={boxRef} className={wide ? 'dialog dialog--wide' : 'dialog'} role="alertdialog" aria-modal="true" aria-labelledby="confirm-title" aria-describedby="confirm-body" onKeyDown={onKeyDown}>
        <h2 id="confirm-title">{title}</h2>
        <div id="confirm-body">{children}</div>
        <div className="row row--end">
          <button ref={cancelRef} type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className={`button button--${tone}`} onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
