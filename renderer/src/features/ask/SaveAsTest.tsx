import { useState } from 'react';
import type { SavedQuestion } from '../../../../shared/eval';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { saveAsTestInput } from './save-test';
import type { AnswerResult } from '../../common/types';
import { ErrorNote } from '../../common/ErrorNote';

interface SaveAsTestProps {
  question: string;
  result: AnswerResult;
}

/** "Save as test": keeps this question and what it should find (or that it should be refused) for Evaluate. */
export function SaveAsTest({ question, result }: SaveAsTestProps) {
  const client = useClient();
  const [saved, setSaved] = useState<SavedQuestion | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);
  const [busy, setBusy] = useState(false);
  const input = saveAsTestInput(question, result);
  if (!input) return null;

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      setSaved(await client.saveAsTest(input));
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="save-test">
      <button
        type="button"
        className="button button--quiet small"
        data-testid="save-as-test"
        disabled={busy || saved !== null}
        onClick={() => void save()}
        title={input.expect === 'refusal' ? 'Keep this question for Evaluate, expecting a refusal' : 'Keep this question for Evaluate, expecting the cited passage'}
      >
        {saved ? '✓ Saved as test' : busy ? 'Saving…' : 'Save as test'}
      </button>
      {saved && (
        <p className="muted small save-test__what" role="status" data-testid="save-as-test-saved">
          {!saved.expect.answerable ? (
            'Saved for Evaluate: expects a refusal.'
          ) : saved.expect.chunkFact ? (
            `Saved for Evaluate: expects a passage containing “${saved.expect.chunkFact}”`
          ) : (
            `Saved for Evaluate: expects an answer matching ${saved.expect.answerRegex ?? ''}`
          )}
        </p>
      )}
      {error && <ErrorNote error={error} />}
    </div>
  );
}
