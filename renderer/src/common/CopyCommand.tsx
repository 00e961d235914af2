import { useEffect, useRef, useState } from 'react';
import { copyText } from './clipboard';

/**
 * A command to paste into a terminal, inside the sentence that gives it: its code and a Copy
 * button kept together as one box, which says when the copy worked.
 */
export function CopyCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const copy = async () => {
    const ok = await copyText(command);
    setCopied(ok ? 'yes' : 'no');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(null), 2500);
  };

  return (
    <span className="copy-command">
      <code>{command}</code>
      <button type="button" className="copy-command__button" onClick={() => void copy()} aria-label={`Copy ${command}`}>
        {copied === 'yes' ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'Could not copy; select the command and copy it by hand.' : ''}
      </span>
    </span>
  );
}
