import { useState, type ReactNode } from 'react';
import type { MetricChange, QuestionChange } from '../../../../shared/eval';
import { formatMetric, metricColumn, type MetricKey } from './eval-metrics';

/** The diff's metric names, as the results table calls them. */
const METRIC_KEYS: Record<string, MetricKey> = {
  sourceTokensP50: 'sourceTokens',
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

/** A table of changes under a heading with their count: the first rows at once, the rest on request. */
function ChangeTable<T>({ title, testId, head, changes, row }: { title: string; testId: string; head: string[]; changes: T[]; row: (change: T, i: number) => ReactNode }) {
  const [all, setAll] = useState(false);
  if (changes.length === 0) return null;
  const shown = all ? changes : changes.slice(0, FIRST_ROWS);
  return (
    <>
      <h4 className="eval-compare__sub">
        {title} ({changes.length})
      </h4>
      <div className="eval-compare__table-wrap">
        <table className="eval-compare__table" data-testid={testId}>
          <thead>
            <tr>
              {head.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{shown.map(row)}</tbody>
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

/** Scores that moved between two reports. */
export function MetricChanges({ changes }: { changes: MetricChange[] }) {
  return (
    <ChangeTable
      title="Scores that changed"
      testId="eval-compare-metrics"
      head={['Configuration', 'Metric', 'Before', 'Now']}
      changes={changes}
      row={(m, i) => {
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
      }}
    />
  );
}

/** Question runs whose passages, answer, refusal, citations or error changed. */
export function QuestionChanges({ changes }: { changes: QuestionChange[] }) {
  return (
    <ChangeTable
      title="Question runs that changed"
      testId="eval-compare-questions"
      head={['Configuration', 'Question', 'What', 'Before', 'Now']}
      changes={changes}
      row={(q, i) => (
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
      )}
    />
  );
}
