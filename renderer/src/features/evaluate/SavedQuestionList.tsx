import { useCallback, useEffect, useState } from 'react';
import type { SavedQuestion } from '../../../../shared/eval';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { downloadText } from '../../common/download';
import { savedQuestionsToSet } from './eval-export';
import { ErrorNote } from '../../common/ErrorNote';

interface SavedQuestionListProps {
  /** Called after a question is removed. */
  onChanged: () => void;
}

export function expectationText(q: SavedQuestion): string {
  if (!q.expect.answerable) return 'expects a refusal';
  if (q.expect.chunkFact) return `expects “${q.expect.chunkFact}”`;
  if (q.expect.answerRegex) return `expects an answer matching ${q.expect.answerRegex}`;
  return 'expects an answer';
}

/** Questions saved from answers ("Save as test"): what each expects, remove, export as a question set. */
export function SavedQuestionList({ onChanged }: SavedQuestionListProps) {
  const client = useClient();
  const [questions, setQuestions] = useState<SavedQuestion[] | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  const load = useCallback(() => {
    client.savedQuestions({}).then(
      (r) => {
        setQuestions(r.questions);
        setError(null);
      },
      (e: unknown) => setError(describeError(e)),
    );
  }, [client]);

  useEffect(() => load(), [load]);

  const remove = async (q: SavedQuestion) => {
    try {
      await client.deleteSavedQuestion({ id: q.id });
      setQuestions((list) => list?.filter((x) => x.id !== q.id) ?? null);
      onChanged();
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <section className="card eval-saved" data-testid="saved-questions" aria-labelledby="eval-saved-title">
      <h2 id="eval-saved-title" className="section-title">
        Saved from answers
      </h2>
      {error && <ErrorNote error={error} />}
      {questions && questions.length === 0 && <p className="muted small">None yet. Under an answer in Ask, "Save as test" keeps the question and what it should find.</p>}
      {questions && questions.length > 0 && (
        <ul className="eval-list">
          {questions.map((q) => (
            <li key={q.id} className="eval-list__item" data-saved={q.id}>
              <div className="eval-list__open eval-list__open--static">
                <span className="eval-list__title">{q.question}</span>
                <span className="muted small">
                  {expectationText(q)}
                  {q.root ? '' : ' · any folder'}
                </span>
                {q.root && (
                  <span className="muted small mono eval-list__path" title={q.root}>
                    {q.root}
                  </span>
                )}
              </div>
              <button type="button" className="button button--quiet small" onClick={() => void remove(q)} aria-label={`Remove the saved question “${q.question}”`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {questions && questions.length > 0 && (
        <button type="button" className="button small eval-saved__export" data-testid="saved-export" onClick={() => downloadText('quire-questions.json', savedQuestionsToSet(questions), 'application/json')}>
          Export as question set…
        </button>
      )}
    </section>
  );
}
