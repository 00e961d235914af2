interface CheckAgainProps {
  checking: boolean;
  onCheck: () => void;
  primary?: boolean;
}

/** Asks setupStatus again; the window coming to the front does the same on its own. */
export function CheckAgain({ checking, onCheck, primary = false }: CheckAgainProps) {
  return (
    <button type="button" className={primary ? 'button button--primary' : 'button'} onClick={onCheck} disabled={checking} data-testid="check-again">
      {checking ? 'Checking…' : 'Check again'}
    </button>
  );
}
