import { useMemo } from 'react';
import type { EvalConfigResult } from '../../../../shared/eval';
import {
  DIMENSIONS,
  FAILED_REASON,
  METRIC_COLUMNS,
  bestValue,
  commonSettings,
  configLabel,
  dimensionText,
  formatMetric,
  isBest,
  isFailedValue,
  nextSort,
  notRunReason,
  shownColumns,
  varyingDimensions,
  type MetricColumn,
  type SortKey,
  type SortState,
} from './eval-metrics';

/** Runs of METRIC_COLUMNS, in order. */
const METRIC_GROUPS: ReadonlyArray<{ label: string; span: number }> = [
  { label: 'Retrieval', span: 7 },
  { label: 'Answers', span: 6 },
  { label: 'Cost and speed', span: METRIC_COLUMNS.length - 15 },
  { label: 'Stability', span: 2 },
];

/** Each group over the columns shown; a group left with none is left out. */
function shownGroups(shown: readonly MetricColumn[]): Array<{ label: string; span: number }> {
  let at = 0;
  return METRIC_GROUPS.map((g) => {
    const own = METRIC_COLUMNS.slice(at, (at += g.span));
    return { label: g.label, span: own.filter((c) => shown.includes(c)).length };
  }).filter((g) => g.span > 0);
}

interface ResultsTableProps {
  configs: readonly EvalConfigResult[];
  /** Indices of `configs` in the order shown (sortConfigs with `sort`). */
  order: readonly number[];
  sort: SortState | null;
  onSort: (sort: SortState) => void;
  /** Configurations where every question run failed. */
  failed: ReadonlySet<number>;
}

/**
 * One row per configuration; every header sorts (again: reverses); "not run" always sorts last.
 * Only the settings that differ between configurations have columns; what every configuration
 * shares is said once, above the table. The first column names each row and stays put while the
 * table scrolls sideways: the setting that differs when only one does, else a label joining the
 * ones that differ (a lone configuration: every setting). Only configurations without failed runs can hold a column's best value; where every
 * run failed, a value that only reflects that reads "failed".
 */
export function ResultsTable({ configs, order, sort, onSort, failed }: ResultsTableProps) {
  const best = useMemo(() => new Map(METRIC_COLUMNS.map((c) => [c.key, bestValue(configs, c)])), [configs]);
  const varying = useMemo(() => varyingDimensions(configs), [configs]);
  const common = useMemo(() => (varying.length > 0 ? commonSettings(configs) : []), [configs, varying]);
  const shownDimensions = DIMENSIONS.filter((d) => varying.includes(d.key));
  // One setting that differs names its rows itself; with more, a joined label keeps a row named when scrolled sideways.
  const labelColumn = shownDimensions.length !== 1;
  const columns = useMemo(() => shownColumns(configs), [configs]);
  const groups = [{ label: 'Configuration', span: shownDimensions.length + (labelColumn ? 1 : 0) }, ...shownGroups(columns)];

  const header = (key: SortKey, label: string, title: string | undefined, numeric: boolean, sticky = false) => {
    const current = sort?.key === key ? sort.dir : null;
    const classes = [numeric ? 'num' : '', current ? 'eval-table__sorted' : '', sticky ? 'eval-table__sticky eval-table__label-head' : ''].filter(Boolean).join(' ');
    return (
      <th key={key} scope="col" className={classes || undefined} aria-sort={current === 'asc' ? 'ascending' : current === 'desc' ? 'descending' : 'none'} data-col={key}>
        <button type="button" className="eval-table__sort" title={title ? `${title} Click to sort.` : 'Click to sort.'} onClick={() => onSort(nextSort(sort, key))}>
          <span>{label}</span>
          <span className="eval-table__arrow" aria-hidden="true">
            {current === 'asc' ? '▲' : current === 'desc' ? '▼' : '↕'}
          </span>
        </button>
      </th>
    );
  };

  const cell = (config: EvalConfigResult, column: MetricColumn, allFailed: boolean) => {
    const v = column.get(config);
    if (isFailedValue(column, config, allFailed)) {
      return (
        <td key={column.key} className="num eval-table__failed" title={FAILED_REASON} data-col={column.key}>
          failed
        </td>
      );
    }
    if (v === null) {
      return (
        <td key={column.key} className="num eval-table__none" title={notRunReason(column, config, allFailed)} data-col={column.key}>
          —
        </td>
      );
    }
    const best1 = isBest(config, column, best.get(column.key) ?? null);
    const isBad = column.key === 'errors' && v > 0;
    return (
      <td
        key={column.key}
        className={isBad ? 'num eval-table__bad' : best1 ? 'num eval-table__best' : 'num'}
        title={isBad ? (allFailed ? 'Every question run failed; the drill-down shows why.' : 'Some question runs failed; the drill-down shows why.') : best1 ? 'Best in this report' : undefined}
        data-col={column.key}
      >
        {formatMetric(column.kind, v)}
      </td>
    );
  };

  const dimensionCell = (c: EvalConfigResult, key: (typeof DIMENSIONS)[number]['key'], i: number) => {
    const text = key === 'k' ? c.k : dimensionText(c, key);
    if (i === 0 && !labelColumn) {
      return (
        <th key={key} scope="row" className="eval-table__sticky eval-table__label" title={configLabel(c, [])} data-col={key}>
          {text}
        </th>
      );
    }
    return (
      <td key={key} className={key === 'k' ? 'num' : 'mono'} data-col={key}>
        {text}
      </td>
    );
  };

  return (
    <>
      {common.length > 0 && (
        <p className="small eval-table__common" data-testid="eval-common">
          <span className="muted">Same in every configuration:</span>{' '}
          {common.map((d, i) => (
            <span key={d.key}>
              {i > 0 && ' · '}
              {d.key === 'k' ? <span className="mono">{d.value}</span> : <>{d.label} <span className="mono">{d.value}</span></>}
            </span>
          ))}
        </p>
      )}
      <div className="table-wrap eval-table-wrap" data-testid="eval-table">
        <table className="table eval-table">
          <caption className="visually-hidden">Results per configuration. Column headers sort the rows.</caption>
          <thead>
            <tr className="eval-table__groups">
              {groups.map((g) => (
                <th key={g.label} scope="colgroup" colSpan={g.span}>
                  {g.label}
                </th>
              ))}
            </tr>
            <tr>
              {labelColumn && (
                <th scope="col" className="eval-table__sticky eval-table__label-head">
                  <span>{shownDimensions.length > 0 ? 'Differs in' : 'Configuration'}</span>
                </th>
              )}
              {shownDimensions.map((d, i) => header(d.key, d.label, undefined, d.key === 'k', i === 0 && !labelColumn))}
              {columns.map((c) => header(c.key, c.label, c.title, true))}
            </tr>
          </thead>
          <tbody>
            {order.map((i) => {
              const c = configs[i] as EvalConfigResult;
              return (
                <tr key={i} data-config={i} className={failed.has(i) ? 'eval-table__row--failed' : undefined}>
                  {labelColumn && (
                    <th scope="row" className="eval-table__sticky eval-table__label" title={configLabel(c, [])}>
                      {configLabel(c, varying)}
                    </th>
                  )}
                  {shownDimensions.map((d, i) => dimensionCell(c, d.key, i))}
                  {columns.map((m) => cell(c, m, failed.has(i)))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
