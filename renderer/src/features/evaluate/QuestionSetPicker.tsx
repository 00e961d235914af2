import { useRef, useState } from 'react';
import type { QuestionSetSummary } from '../../../../shared/eval';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { setKey, type LoadedSet } from './eval-session';
import { plural } from '../../common/format';
import { ErrorNote } from '../../common/ErrorNote';

const MAX_FILE_CHARS = 5_000_000;

interface QuestionSetPickerProps {
  /** The folder's own sets (null while loading). */
  sets: QuestionSetSummary[] | null;
  setsError: DescribedError | null;
  files: LoadedSet[];
  selected: string | null;
  onSelect: (key: string) => void;
  onLoaded: (file: LoadedSet) => void;
  disabled?: boolean;
}

/** The engine's name for the set, or ours when it gives none. */
export function setTitle(s: QuestionSetSummary): string {
  return s.name.trim() || (s.ref.kind === 'folder' ? 'Questions in this folder' : s.ref.kind === 'saved' ? 'Saved from answers' : 'Question set');
}

export function questionCount(s: QuestionSetSummary): number {
  return s.answerable + s.unanswerable;
}

/** Why a set cannot be chosen, or null when it can. */
export function unusableReason(s: QuestionSetSummary): string | null {
  if (s.error) return s.error;
  if (questionCount(s) === 0) return s.ref.kind === 'saved' ? 'No questions saved yet. Use "Save as test" under an answer in Ask.' : 'This set has no questions.';
  return null;
}

/** The question sets of the folder plus loaded files, one choosable at a time; "Load a file…" checks a picked file first. */
export function QuestionSetPicker({ sets, setsError, files, selected, onSelect, onLoaded, disabled = false }: QuestionSetPickerProps) {
  const client = useClient();
  const input = useRef<HTMLInputElement>(null);
  const [loadError, setLoadError] = useState<DescribedError | null>(null);
  const [loading, setLoading] = useState(false);
  const all = [...(sets ?? []), ...files.map((f) => f.summary)];

  const load = async (file: File) => {
    setLoadError(null);
    if (file.size > MAX_FILE_CHARS) {
      setLoadError({ code: 'TOO_LARGE', sentence: `${file.name} is larger than 5 MB; a question set must be smaller.`, detail: null });
      return;
    }
    setLoading(true);
    try {
      const text = await file.text();
      if (!text.trim()) {
        setLoadError({ code: 'INVALID_QUESTION_SET', sentence: `${file.name} is empty; a question set lists its questions as JSON.`, detail: null });
        return;
      }
      const summary = await client.checkQuestionSet({ name: file.name, text });
      const ref = { kind: 'file' as const, name: file.name, text };
      onLoaded({ ref, summary: { ...summary, ref } });
    } catch (e) {
      setLoadError(describeError(e));
    } finally {
      setLoading(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <fieldset className="eval-field eval-sets" disabled={disabled} data-testid="eval-question-sets">
      <legend>Questions</legend>
      {setsError && <ErrorNote error={setsError} />}
      {sets === null && !setsError && <p className="muted small">Looking for question sets…</p>}
      <div className="eval-sets__list" role="radiogroup" aria-label="Question set">
        {all.map((s) => {
          const key = setKey(s.ref);
          const reason = unusableReason(s);
          return (
            <label key={key} className={reason ? 'eval-set eval-set--unusable' : 'eval-set'} data-set={key}>
              <input type="radio" name="eval-set" value={key} checked={selected === key && !reason} disabled={reason !== null} onChange={() => onSelect(key)} />
              <span className="eval-set__text">
                <span className="eval-set__title">{setTitle(s)}</span>
                {s.ref.kind === 'file' && <span className="muted small"> (loaded file)</span>}
                {questionCount(s) > 0 && (
                  <span className="muted small eval-set__counts">
                    {plural(questionCount(s), 'question')}: {s.answerable} answerable, {s.unanswerable} unanswerable
                  </span>
                )}
                {reason && <span className={s.error && !(s.ref.kind === 'saved' && questionCount(s) === 0) ? 'eval-set__error small' : 'eval-set__note muted small'}>{reason}</span>}
              </span>
            </label>
          );
        })}
      </div>
      <div className="row">
        <button type="button" className="button" onClick={() => input.current?.click()} disabled={loading}>
          {loading ? 'Checking…' : 'Load a file…'}
        </button>
        <span className="muted small">A JSON question set, as in .quire-questions.json.</span>
        <input
          ref={input}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="eval-set-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void load(f);
          }}
        />
      </div>
      {loadError && <ErrorNote error={loadError} />}
    </fieldset>
  );
}
