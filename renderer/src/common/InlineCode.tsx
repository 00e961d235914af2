import { Fragment } from 'react';

/**
 * A sentence whose `backticked` words are commands: shown as code, never with the backticks (the
 * error sentences of api/messages.ts name commands this way). An odd backtick is left as it is.
 */
export function InlineCode({ text }: { text: string }) {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>))}
    </>
  );
}
