import { useState } from 'react';
import type { MetricChange, QuestionChange } from '../../../../shared/eval';
import { formatMetric, metricColumn, type MetricKey } from '../../lib/eval-metrics';

/** The diff's metric names, as the results table calls them. */
const METRIC_KEYS: Record<string, MetricKey> = {
  'promptTokens.estimated': 'promptEstimated',
  'promptTokens.reported': 'promptReported',
};

function metricOf(name: string) {
  try {
    return metricColumn((METRIC_KEYS[name] ?? name) as MetricKey);
  } catch {
    return null;
  }
}

const WHAT_WORDS: Record<QuestionChange['what'], string> = {
  retrieved: 'passages retrieved',
  answer: 'answer',
  refused: 'refused',
  citations: 'citation checks',
  error: 'error',
};

/** Rows shown before "Show all". */
const FIRST_ROWS = 40;
/** Characters of a changed text shown before it is cut (the whole text opens under it). */
const SHORT_TEXT = 90;

function ChangedText({ text }: { text: string }) {
  const shown = text === '' ? '(nothing)' : text;
  if (shown.length <= SHORT_TEXT) return <span className="eval-compare__text">{shown}</span>;
  return (
    <details className="eval-compare__long" title={shown}>
      <summary>{shown.slice(0, SHORT_TEXT).trimEnd()}…</summary>
      <p className="eval-compare__text">{shown}</p>
    </details>
  );
}

function MetricRows({ changes }: { changes: MetricChange[] }) {
  return (
    <>
      {changes.map((m, i) => {
        const col = metricOf(m.metric);
        const fmt = (v: number | null) => (col ? formatMetric(col.kind, v) : v === null ? '—' : String(v));
        return (
          <tr key={i}>
            <td className="mono small eval-compare__config">{m.config}</td>
            <td title={col?.title}>{col?.label ?? m.metric}</td>
            <td className="eval-compare__num">{fmt(m.before)}</td>
            <td className="eval-compare__num">{fmt(m.after)}</td>
          </tr>
        );
      })}
    </>
  );
}

/** Scores that moved between two reports, the first rows at once and the rest on request. */
export function MetricChanges({ changes }: { changes: MetricChange[] }) {
  const [all, setAll] = useState(false);
  if (changes.length === 0) return null;
  const shown = all ? changes : changes.slice(0, FIRST_ROWS);
  return (
    <>
      <h4 className="eval-compare__sub">Scores that changed ({changes.length})</h4>
      <div className="eval-compare__table-wrap">
        <table className="eval-compare__table" data-testid="eval-compare-metrics">
          <thead>
            <tr>
              <th scope="col">Configuration</th>
              <th scope="col">Metric</th>
              <th scope="col">Before</th>
              <th scope="col">Now</th>
            </tr>
          </thead>
          <tbody>
            <MetricRows changes={shown} />
          </tbody>
        </table>
      </div>
      {changes.length > FIRST_ROWS && (
        <button type="button" className="button button--quiet small" onClick={() => setAll((a) => !a)}>
          {all ? 'Show fewer' : `Show all ${changes.length}`}
        </button>
      )}
    </>
  );
}

/** Question runs whose passages, answer, refusal, citations or error changed. */
export function QuestionChanges({ changes }: { changes: QuestionChange[] }) {
  const [all, setAll] = useState(false);
  if (changes.length === 0) return null;
  const shown = all ? changes : changes.slice(0, FIRST_ROWS);
  return (
    <>
      <h4 className="eval-compare__sub">Question runs that changed ({changes.length})</h4>
      <div className="eval-compare__table-wrap">
        <table className="eval-compare__table" data-testid="eval-compare-questions">
          <thead>
            <tr>
              <th scope="col">Configuration</th>
              <th scope="col">Question</th>
              <th scope="col">What</th>
              <th scope="col">Before</th>
              <th scope="col">Now</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((q, i) => (
              <tr key={i}>
                <td className="mono small eval-compare__config">{q.config}</td>
                <td className="mono small">
                  {q.questionId}
                  {q.repeat > 0 && <span className="muted"> · repeat {q.repeat + 1}</span>}
                </td>
                <td>{WHAT_WORDS[q.what]}</td>
                <td className="small">
                  <ChangedText text={q.before} />
                </td>
                <td className="small">
                  <ChangedText text={q.after} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {changes.length > FIRST_ROWS && (
        <button type="button" className="button button--quiet small" onClick={() => setAll((a) => !a)}>
          {all ? 'Show fewer' : `Show all ${changes.length}`}
        </button>
      )}
    </>
  );
}
