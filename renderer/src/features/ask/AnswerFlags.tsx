import type { AnswerFlag } from '../../common/types';
import { ANSWER_FLAGS } from '../../common/words';

/** The checker's warnings about an answer, in words. */
export function AnswerFlags({ flags }: { flags: readonly AnswerFlag[] }) {
  // A suspected cut is explained, with its remedy, by the budget meter right below.
  const shown = flags.filter((f) => f !== 'truncation-suspected');
  if (shown.length === 0) return null;
  return (
    <ul className="answer-flags" aria-label="Warnings about this answer">
      {shown.map((f) => (
        <li key={f} className="warning" data-flag={f}>
          {ANSWER_FLAGS[f] ?? f}
        </li>
      ))}
    </ul>
  );
}
