import { useMemo, useState } from 'react';
import type { EvalReport } from '../../../../shared/eval';
import { configLabel, fullConfigLabel, varyingDimensions } from '../../lib/eval-metrics';
import { questionSummaries, repeatsOf, runsForQuestion } from '../../lib/eval-questions';
import { QuestionList } from './QuestionList';
import { RunColumn } from './RunColumn';

/** Pick a question, then see every configuration's run of it side by side, diffed against a baseline. */
export function DrillDown({ report }: { report: EvalReport }) {
  const summaries = useMemo(() => questionSummaries(report), [report]);
  const repeats = useMemo(() => repeatsOf(report), [report]);
  const varying = useMemo(() => varyingDimensions(report.configs), [report]);
  const [questionId, setQuestionId] = useState<string | null>(summaries[0]?.question.id ?? null);
  const [repeat, setRepeat] = useState(repeats[0] ?? 0);
  const [baseline, setBaseline] = useState(0);
  const question = summaries.find((s) => s.question.id === questionId)?.question ?? null;
  const runs = useMemo(() => (questionId ? runsForQuestion(report, questionId, repeat) : []), [report, questionId, repeat]);
  const baselineAnswer = runs[baseline]?.answer ?? null;

  return (
    <section className="card eval-drilldown" data-testid="eval-drilldown" aria-labelledby="eval-drilldown-title">
      <h3 id="eval-drilldown-title" className="section-title">
        Question by question
      </h3>
      {summaries.length === 0 ? (
        <p className="muted">This report has no questions.</p>
      ) : (
        <div className="eval-drilldown__body">
          <QuestionList summaries={summaries} selected={questionId} onSelect={setQuestionId} />
          {question && (
            <div className="eval-drilldown__detail">
              <div className="eval-drilldown__question">
                <p className="eval-drilldown__q">{question.question}</p>
                <p className="muted small">
                  {question.expect.answerable ? (
                    <>
                      Expected:{' '}
                      {question.expect.chunkFact && (
                        <>
                          a passage containing <q>{question.expect.chunkFact}</q>
                        </>
                      )}
                      {question.expect.chunkFact && question.expect.answerRegex && '; '}
                      {question.expect.answerRegex && (
                        <>
                          an answer matching <code>{question.expect.answerRegex}</code>
                        </>
                      )}
                      {!question.expect.chunkFact && !question.expect.answerRegex && 'an answer'}
                    </>
                  ) : (
                    'Expected: a refusal, the documents do not answer this.'
                  )}
                  {question.file && <span className="mono"> · {question.file}</span>}
                </p>
                <div className="row small">
                  {report.configs.length > 1 && (
                    <label className="row">
                      <span>Compare with</span>
                      <select value={baseline} onChange={(e) => setBaseline(Number(e.target.value))} data-testid="eval-baseline">
                        {report.configs.map((c, i) => (
                          <option key={i} value={i}>
                            {configLabel(c, varying)}
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                  {repeats.length > 1 && (
                    <label className="row">
                      <span>Repeat</span>
                      <select value={repeat} onChange={(e) => setRepeat(Number(e.target.value))}>
                        {repeats.map((r) => (
                          <option key={r} value={r}>
                            {r + 1} of {repeats.length}
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                  {report.configs.length > 1 && (
                    <span className="muted">
                      <ins className="diff-added">added</ins> and <del className="diff-removed">dropped</del> words are against the baseline's answer.
                    </span>
                  )}
                </div>
              </div>
              <div className="eval-runs">
                {report.configs.map((c, i) => (
                  <RunColumn
                    key={i}
                    config={c}
                    label={varying.length > 0 ? configLabel(c, varying) : fullConfigLabel(c)}
                    run={runs[i] ?? null}
                    baselineAnswer={baselineAnswer}
                    isBaseline={i === baseline}
                    onMakeBaseline={() => setBaseline(i)}
                  />
                ))}
              </div>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
