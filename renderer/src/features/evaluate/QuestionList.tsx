import type { QuestionSummary } from './eval-questions';

interface QuestionListProps {
  summaries: QuestionSummary[];
  selected: string | null;
  onSelect: (id: string) => void;
}

function tone(s: QuestionSummary): 'ok' | 'bad' | 'warn' | 'neutral' {
  if (s.pass + s.fail === 0) return 'neutral';
  if (s.fail === 0) return 'ok';
  if (s.pass === 0) return 'bad';
  return 'warn';
}

/** Every question of the report with how many of its runs passed; picks the one to compare. */
export function QuestionList({ summaries, selected, onSelect }: QuestionListProps) {
  return (
    <ul className="eval-questions" aria-label="Questions">
      {summaries.map((s) => {
        const judged = s.pass + s.fail;
        return (
          <li key={s.question.id}>
            <button
              type="button"
              className={s.question.id === selected ? 'eval-question eval-question--current' : 'eval-question'}
              aria-current={s.question.id === selected ? 'true' : undefined}
              data-question={s.question.id}
              onClick={() => onSelect(s.question.id)}
            >
              <span className="eval-question__text">{s.question.question}</span>
              <span className="eval-question__meta">
                <span className="mono muted small">{s.question.id}</span>
                {!s.question.expect.answerable && <span className="badge badge--skipped">unanswerable</span>}
                <span className={`badge eval-badge--${tone(s)}`} title={`${s.pass} passed, ${s.fail} failed${s.na ? `, ${s.na} not judged` : ''}`}>
                  {judged === 0 ? 'not judged' : `${s.pass}/${judged} pass`}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
