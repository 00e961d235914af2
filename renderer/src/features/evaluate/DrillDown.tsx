import { useMemo, useState } from 'react';
import type { EvalReport } from '../../../../shared/eval';
import { configLabel, fullConfigLabel, varyingDimensions } from './eval-metrics';
import { questionSummaries, repeatSummary, repeatsOf, type RunIndex } from './eval-questions';
import { QuestionList } from './QuestionList';
import { RunColumn } from './RunColumn';

/** Configurations shown side by side unless the person picks others: more would not be read, and each costs a diff. */
export const DEFAULT_COLUMNS = 6;
/** The most the person can put side by side ("show all" is offered up to this many). */
export const MAX_COLUMNS = 48;

/**
 * The configurations to show, in table order: the `picked` ones, or else the first `DEFAULT_COLUMNS`;
 * the baseline is always among them (in place of the last one when it would not be).
 */
export function shownColumns(order: readonly number[], baseline: number, picked: ReadonlySet<number> | null): number[] {
  if (picked) return order.filter((i) => picked.has(i) || i === baseline);
  const first = order.slice(0, DEFAULT_COLUMNS);
  if (first.includes(baseline) || !order.includes(baseline)) return first;
  const keep = new Set([...order.slice(0, DEFAULT_COLUMNS - 1), baseline]);
  return order.filter((i) => keep.has(i));
}

interface DrillDownProps {
  report: EvalReport;
  /** indexRuns(report), built once per report. */
  index: RunIndex;
  /** The configurations in the results table's current order. */
  order: readonly number[];
}

/** Pick a question, then see the configurations' runs of it side by side, diffed against a baseline. */
export function DrillDown({ report, index, order }: DrillDownProps) {
  const summaries = useMemo(() => questionSummaries(report), [report]);
  const repeats = useMemo(() => repeatsOf(report), [report]);
  const varying = useMemo(() => varyingDimensions(report.configs), [report]);
  const labels = useMemo(() => report.configs.map((c) => (varying.length > 0 ? configLabel(c, varying) : fullConfigLabel(c))), [report, varying]);
  const [questionId, setQuestionId] = useState<string | null>(summaries[0]?.question.id ?? null);
  const [repeat, setRepeat] = useState(repeats[0] ?? 0);
  const [baseline, setBaseline] = useState(() => order[0] ?? 0);
  const [picked, setPicked] = useState<ReadonlySet<number> | null>(null);
  const [choosing, setChoosing] = useState(false);
  const question = summaries.find((s) => s.question.id === questionId)?.question ?? null;
  const total = report.configs.length;
  const shown = useMemo(() => shownColumns(order, baseline, picked), [order, baseline, picked]);
  const baselineRun = questionId ? index.get(baseline, questionId, repeat) : null;
  const baselineAnswer = baselineRun?.answer ?? null;
  const baselineOptions = useMemo(
    () =>
      report.configs.map((_, i) => (
        <option key={i} value={i}>
          {labels[i]}
        </option>
      )),
    [report, labels],
  );

  const toggle = (i: number, on: boolean) => {
    const next = new Set(picked ?? shown);
    if (on) next.add(i);
    else next.delete(i);
    setPicked(next);
  };

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
                  {total > 1 && (
                    <label className="row">
                      <span>Compare with</span>
                      <select value={baseline} onChange={(e) => setBaseline(Number(e.target.value))} data-testid="eval-baseline">
                        {baselineOptions}
                      </select>
                    </label>
                  )}
                  {repeats.length > 1 && (
                    <label className="row">
                      <span>Repeat</span>
                      <select value={repeat} onChange={(e) => setRepeat(Number(e.target.value))} data-testid="eval-repeat">
                        {repeats.map((r) => (
                          <option key={r} value={r}>
                            {r + 1} of {repeats.length}
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                  {total > 1 && (
                    <span className="muted">
                      <ins className="diff-added">added</ins> and <del className="diff-removed">dropped</del> words are against the baseline's answer.
                    </span>
                  )}
                </div>
                {total > DEFAULT_COLUMNS && (
                  <div className="eval-columns" data-testid="eval-columns">
                    <p className="row small">
                      <span data-testid="eval-columns-count">
                        Showing {shown.length} of {total} configurations{picked ? '' : ', in the table’s order'}.
                      </span>
                      <button type="button" className="button button--quiet" aria-expanded={choosing} aria-controls="eval-columns-pick" onClick={() => setChoosing((v) => !v)}>
                        {choosing ? 'Done choosing' : 'Choose configurations…'}
                      </button>
                      {total <= MAX_COLUMNS && shown.length < total && (
                        <button type="button" className="button button--quiet" onClick={() => setPicked(new Set(order))} data-testid="eval-columns-all">
                          Show all {total}
                        </button>
                      )}
                      {picked && (
                        <button type="button" className="button button--quiet" onClick={() => setPicked(null)}>
                          Back to the first {DEFAULT_COLUMNS}
                        </button>
                      )}
                    </p>
                    {choosing && (
                      <fieldset id="eval-columns-pick" className="eval-columns__pick">
                        <legend className="small">
                          Configurations to compare (up to {MAX_COLUMNS}; the baseline is always shown)
                        </legend>
                        <ul>
                          {order.map((i) => {
                            const on = shown.includes(i);
                            return (
                              <li key={i}>
                                <label className="eval-check">
                                  <input type="checkbox" checked={on} disabled={i === baseline || (!on && shown.length >= MAX_COLUMNS)} onChange={(e) => toggle(i, e.target.checked)} />
                                  <span className="small">
                                    <span className="mono">{labels[i]}</span>
                                    {i === baseline && <span className="muted"> (baseline)</span>}
                                  </span>
                                </label>
                              </li>
                            );
                          })}
                        </ul>
                      </fieldset>
                    )}
                  </div>
                )}
              </div>
              <div className="eval-runs">
                {shown.map((i) => {
                  const c = report.configs[i] as EvalReport['configs'][number];
                  const run = index.get(i, question.id, repeat);
                  return (
                    <RunColumn
                      key={i}
                      configIndex={i}
                      config={c}
                      label={labels[i] as string}
                      run={run}
                      baselineAnswer={baselineAnswer}
                      baselineMissing={total > 1 && i !== baseline && baselineAnswer === null}
                      isBaseline={i === baseline}
                      onMakeBaseline={() => setBaseline(i)}
                      repeats={repeats.length > 1 ? repeatSummary(index.repeats(i, question.id)) : null}
                    />
                  );
                })}
              </div>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
