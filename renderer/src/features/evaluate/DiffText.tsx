import { useMemo } from 'react';
import { wordDiff } from './word-diff';

interface DiffTextProps {
  text: string;
  /** null: no comparison (this is the baseline, or there is none). */
  baseline: string | null;
}

/** A text with the words it adds to the baseline marked, and the baseline's words it drops struck through. */
export function DiffText({ text, baseline }: DiffTextProps) {
  const pieces = useMemo(() => (baseline === null ? null : wordDiff(baseline, text)), [baseline, text]);
  if (!pieces) return <p className="eval-answer" data-testid="eval-answer">{text}</p>;
  return (
    <p className="eval-answer" data-testid="eval-answer">
      {pieces.map((p, i) =>
        p.op === 'same' ? (
          <span key={i}>{p.text}</span>
        ) : p.op === 'added' ? (
          <ins key={i} className="diff-added" title="Not in the baseline's answer">
            {p.text}
          </ins>
        ) : (
          <del key={i} className="diff-removed" title="In the baseline's answer, not in this one">
            {p.text}
          </del>
        ),
      )}
    </p>
  );
}
