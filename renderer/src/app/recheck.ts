import { useEffect, useRef } from 'react';

const RECHECK = 'quire:recheck';

/** A person asked to check Ollama again (Check again): every part of the window that shows its state reads it anew. */
export function announceRecheck(): void {
  window.dispatchEvent(new Event(RECHECK));
}

/**
 * Runs `check` on Check again anywhere in the window, and when the window comes back to the
 * front: a person who went to a terminal to start Ollama or pull a model comes back expecting it seen.
 */
export function useRecheck(check: () => void): void {
  const latest = useRef(check);
  latest.current = check;
  useEffect(() => {
    const run = () => latest.current();
    window.addEventListener(RECHECK, run);
    window.addEventListener('focus', run);
    return () => {
      window.removeEventListener(RECHECK, run);
      window.removeEventListener('focus', run);
    };
  }, []);
}
