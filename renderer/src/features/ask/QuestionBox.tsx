import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

interface QuestionBoxProps {
  running: boolean;
  onAsk: (question: string) => void;
  onCancel: () => void;
  /** Changes when something (Ctrl/Cmd+K) asks for focus. */
  focusTick: number;
  followUp: boolean;
  /** A question to put back in an empty box (one that got no answer); `key` changes once per question. */
  restore?: { text: string; key: number } | null;
}

/** The question field: Enter asks, Shift+Enter adds a line, Esc cancels a running answer. */
export function QuestionBox({ running, onAsk, onCancel, focusTick, followUp, restore = null }: QuestionBoxProps) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);

  // Never over what is being typed: a new question already begun stays.
  const restoreKey = restore?.key ?? null;
  const restoreText = restore?.text ?? '';
  useEffect(() => {
    if (restoreKey !== null) setText((current) => (current.trim() ? current : restoreText));
  }, [restoreKey, restoreText]);

  useEffect(() => {
    if (focusTick > 0) ref.current?.focus();
  }, [focusTick]);

  const submit = () => {
    if (running || !text.trim()) return;
    onAsk(text);
    setText('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === 'Escape' && running) {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  return (
    <form
      className="question-box"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="question">{followUp ? 'Ask a follow-up' : 'Ask your notes'}</label>
      <textarea
        id="question"
        ref={ref}
        data-testid="question"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        // Never one folder's example question: it would mislead once other folders are imported.
        placeholder={followUp ? 'Ask more about this answer' : 'Ask a question your notes can answer'}
        aria-describedby="question-hint"
      />
      <div className="question-box__row">
        <span id="question-hint" className="muted small">
          Enter asks · Shift+Enter new line · Esc cancels · Ctrl/⌘+K jumps here
        </span>
        {running ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="button button--primary" data-testid="ask-button" disabled={running || !text.trim()}>
          Ask
        </button>
      </div>
    </form>
  );
}
