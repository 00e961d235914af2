import { useEffect, useRef, useState } from 'react';
import { copyText } from './clipboard';

interface CommandBlockProps {
  command: string;
  /** What the command does, for the Copy button's accessible name. */
  label: string;
}

/** A command to paste into a terminal: shown as code, with a Copy button that says when it worked. */
export function CommandBlock({ command, label }: CommandBlockProps) {
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
    <div className="command-block">
      <pre>
        <code>{command}</code>
      </pre>
      <button type="button" className="button button--small" onClick={() => void copy()} aria-label={`Copy the command to ${label}`}>
        {copied === 'yes' ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'Could not copy; select the command and copy it by hand.' : ''}
      </span>
    </div>
  );
}
