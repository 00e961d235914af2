import type { EvalConfigResult, EvalQuestionRun } from '../../../../shared/eval';
import { describeError } from '../../api/messages';
import { formatMs } from './eval-metrics';
import { repeatSummaryText, runVerdict, type RepeatSummary } from './eval-questions';
import { formatLines } from '../../common/format';
import { CHECK_WORDS } from '../../common/words';
import { ErrorNote } from '../../common/ErrorNote';
import { DiffText } from './DiffText';
import { numberCitations } from './cite-numbers';

interface RunColumnProps {
  /** Index of the configuration in the report. */
  configIndex: number;
  config: EvalConfigResult;
  label: string;
  run: EvalQuestionRun | null;
  /** The baseline's answer to diff against; null for the baseline itself or when it has none. */
  baselineAnswer: string | null;
  /** There is a baseline to compare with, but it has no answer (so nothing is marked). */
  baselineMissing?: boolean;
  isBaseline: boolean;
  onMakeBaseline: () => void;
  /** This configuration's repeats of the question taken together; null with a single repeat. */
  repeats?: RepeatSummary | null;
}

function Check({ label, value, title }: { label: string; value: boolean | null; title: string }) {
  if (value === null) return null;
  return (
    <span className={value ? 'badge eval-badge--ok' : 'badge eval-badge--bad'} title={title}>
      {value ? '✓' : '✗'} {label}
    </span>
  );
}

/** One configuration's run of the question: checks, answer (diffed against the baseline), citations, retrieved passages. */
export function RunColumn({ configIndex, config, label, run, baselineAnswer, baselineMissing = false, isBaseline, onMakeBaseline, repeats = null }: RunColumnProps) {
  const verdict = run ? runVerdict(run) : 'n/a';
  const failed = run?.error ?? null;
  const a = run?.score.answer ?? null;
  const r = run?.score.retrieval ?? null;
  const where = (chunkId: string) => run?.retrieved.find((c) => c.chunkId === chunkId) ?? null;
  const answer = run?.answer != null ? numberCitations(run.answer) : null;
  return (
    <article className={`eval-run eval-run--${verdict === 'n/a' ? 'na' : verdict}`} data-testid="eval-run-column" data-config={configIndex}>
      <header className="eval-run__head">
        <p className="eval-run__label mono" title={label}>
          {label}
        </p>
        <div className="row">
          <span className={`badge eval-badge--${verdict === 'pass' ? 'ok' : verdict === 'fail' ? 'bad' : 'neutral'}`}>{failed ? 'error' : verdict === 'n/a' ? 'not judged' : verdict === 'pass' ? 'pass' : 'fail'}</span>
          {isBaseline ? (
            <span className="badge eval-badge--baseline">baseline</span>
          ) : (
            <button type="button" className="button button--quiet eval-run__baseline" onClick={onMakeBaseline}>
              Compare others with this
            </button>
          )}
        </div>
        {repeats && (
          <p className="small eval-run__repeats" data-testid="eval-run-repeats">
            {repeatSummaryText(repeats)}
          </p>
        )}
      </header>
      {!run && <p className="muted">This configuration has no run of this question.</p>}
      {run && (
        <>
          {failed ? (
            // A failed run's checks would only say what the failure left undone.
            <ErrorNote error={describeError(failed)} />
          ) : (
            <div className="eval-run__checks">
              <Check label="hit@1" value={r?.hit1 ?? null} title="The first passage contains the expected fact." />
              <Check label={`hit@${config.k}`} value={r?.hitK ?? null} title={`One of the top ${config.k} passages contains the expected fact.`} />
              <Check label="fact sent" value={r?.factSent ?? null} title={`The expected fact is inside the sources put in the prompt${r?.sourceTokens != null ? ` (${r.sourceTokens} source tokens)` : ''}.`} />
              <Check label="has fact" value={a?.answerHasFact ?? null} title="The answer matches the expected answer pattern." />
              <Check label="cites fact" value={a?.citesFact ?? null} title="The answer cites a passage containing the expected fact." />
              {a?.truncated && <span className="badge eval-badge--bad">prompt cut</span>}
            </div>
          )}
          <h4 className="eval-run__sub">Answer</h4>
          {baselineMissing && run.answer !== null && (
            <p className="muted small eval-run__note" data-testid="eval-no-baseline-answer">
              The baseline has no answer to compare with, so nothing is marked.
            </p>
          )}
          {a?.refused && (
            <p className={`eval-refused ${run.score.answerable ? 'eval-refused--wrong' : ''}`} data-testid="eval-refused">
              <span aria-hidden="true">∅</span> Refused{run.score.answerable ? ' although the documents answer it' : ', as expected'}
            </p>
          )}
          {answer !== null ? (
            <DiffText text={answer.text} baseline={isBaseline || baselineAnswer === null ? null : numberCitations(baselineAnswer).text} />
          ) : (
            <p className="muted">{config.chatModel === null ? 'Retrieval only: no model answered.' : failed ? 'No answer: the run failed.' : 'No answer.'}</p>
          )}
          {run.citations.length > 0 && (
            <>
              <h4 className="eval-run__sub">Citations</h4>
              <ul className="eval-citations">
                {run.citations.map((c, i) => {
                  const src = where(c.chunkId);
                  const n = answer?.numbers.get(c.chunkId);
                  return (
                    <li key={i} data-testid="eval-citation">
                      {n !== undefined && <span className="mono small">[{n}] </span>}
                      <span className={`chip-text--${c.check}`}>{CHECK_WORDS[c.check]}</span>{' '}
                      <span className="mono small">{src ? src.path : c.chunkId}</span> {src && <span className="muted small">{formatLines(src.lines)}</span>}
                      {!src && <span className="muted small"> (not among the retrieved passages)</span>}
                      {src?.hasFact && <span className="eval-fact-mark" title="This passage contains the expected fact"> ★ fact</span>}
                    </li>
                  );
                })}
              </ul>
            </>
          )}
          <h4 className="eval-run__sub">
            Retrieved <span className="muted small">({run.retrieved.length})</span>
          </h4>
          {run.retrieved.length === 0 && <p className="muted small">Nothing was retrieved.</p>}
          <ol className="eval-chunks">
            {run.retrieved.map((c) => (
              <li key={c.chunkId} className={c.hasFact ? 'eval-chunk eval-chunk--fact' : 'eval-chunk'}>
                <p className="eval-chunk__where">
                  <span className="mono">{c.path}</span> <span className="muted">{formatLines(c.lines)}</span>
                  {c.hasFact && (
                    <span className="badge eval-badge--ok" title="This passage contains the expected fact">
                      has the fact
                    </span>
                  )}
                </p>
                {c.heading && <p className="eval-chunk__heading small">{c.heading}</p>}
                <p className="eval-chunk__preview small muted">{c.preview}</p>
              </li>
            ))}
          </ol>
          <p className="muted small eval-run__times">
            {run.score.retrieveMs !== null
              ? `Retrieve ${formatMs(run.score.retrieveMs)}`
              : failed
                ? 'Retrieval not timed: the run failed'
                : 'Retrieval not timed: the search fell back to another mode'}
            {a ? (a.generateMs === null ? ' · model not called' : ` · generate ${formatMs(a.generateMs)}`) : ''}
            {a?.tokensPerSecond ? ` · ${a.tokensPerSecond.toFixed(1)} tokens/s` : ''}
          </p>
        </>
      )}
    </article>
  );
}
