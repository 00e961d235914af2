import type { ChartConfiguration } from 'chart.js';
import { bestValue, configLabel, formatMetric, isBest, isFailedValue, metricColumn, varyingDimensions, type MetricColumn, type MetricKey } from './eval-metrics';
import { failedConfigs, type EvalReport } from '../../../../shared/eval';

/** Colours read from the page's CSS variables, so the chart follows the light and dark themes. */
export interface ChartPalette {
  bar: string;
  best: string;
  text: string;
  muted: string;
  grid: string;
  font: string;
}

export const DEFAULT_PALETTE: ChartPalette = { bar: '#2457c5', best: '#1f7a3d', text: '#1d1d1b', muted: '#5f5f5a', grid: '#d6d6d0', font: 'system-ui, sans-serif' };

export type BarChartConfig = ChartConfiguration<'bar', Array<number | null>, string>;

/**
 * At most this many bars are drawn. Each takes 34 px, and a canvas taller than the browser allows
 * (32,767 px in Chromium, less times the pixel ratio) is drawn blank; past the cap the chart shows
 * the best bars and the full list is offered as text.
 */
export const MAX_BARS = 40;

/** From this many bars on, the value axis is drawn above the bars rather than below. */
export const AXIS_ON_TOP_FROM = 12;

/** Height in px for `bars` horizontal bars (at most MAX_BARS), so labels never overlap. */
export function chartHeight(bars: number): number {
  return Math.max(140, Math.min(bars, MAX_BARS) * 34 + 56);
}

/**
 * The configurations that get a bar: all of them, in report order, up to `limit`; past it the
 * `limit` best by the metric, best first (highest first for a metric with no better direction),
 * those without a value last.
 */
export function chartBars(report: EvalReport, metric: MetricKey, limit: number = MAX_BARS, failedKnown?: ReadonlySet<number>): number[] {
  const idx = report.configs.map((_, i) => i);
  if (idx.length <= limit) return idx;
  const failed = failedKnown ?? failedConfigs(report);
  const column = metricColumn(metric);
  const sign = column.better === 'lower' ? 1 : -1;
  const value = (i: number) => {
    const c = report.configs[i] as EvalReport['configs'][number];
    return isFailedValue(column, c, failed.has(i)) ? null : column.get(c);
  };
  return idx
    .map((i) => ({ i, v: value(i) }))
    .sort((a, b) => (a.v === null || b.v === null ? (a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1) : sign * (a.v - b.v) || a.i - b.i))
    .slice(0, limit)
    .map((x) => x.i);
}

/** A bar's label: the configuration's name, with "(not run)" or "(failed)" when it has no value. */
function barLabel(column: MetricColumn, report: EvalReport, i: number, varying: ReturnType<typeof varyingDimensions>, failed: ReadonlySet<number>): string {
  const c = report.configs[i] as EvalReport['configs'][number];
  const suffix = isFailedValue(column, c, failed.has(i)) ? ' (failed)' : column.get(c) === null ? ' (not run)' : '';
  return `${configLabel(c, varying)}${suffix}`;
}

export interface ChartOptions {
  /** At most this many bars (see chartBars). */
  limit?: number;
  /** failedConfigs(report), when the caller has it already. */
  failed?: ReadonlySet<number>;
}

/**
 * One horizontal bar per configuration for one metric (at most MAX_BARS, see chartBars). Rates
 * are plotted as percentages on a 0–100 axis, MRR on 0–1; a configuration where the metric was
 * not run has no bar and "(not run)" in its label, one where every run failed "(failed)". The
 * best bar, chosen from the raw values as the table does (configurations with failed runs left
 * out), is drawn in the "best" colour.
 */
export function buildChartConfig(report: EvalReport, metric: MetricKey, palette: ChartPalette = DEFAULT_PALETTE, options: ChartOptions = {}): BarChartConfig {
  const column = metricColumn(metric);
  const varying = varyingDimensions(report.configs);
  const failed = options.failed ?? failedConfigs(report);
  const bars = chartBars(report, metric, options.limit ?? MAX_BARS, failed);
  const configs = bars.map((i) => report.configs[i] as EvalReport['configs'][number]);
  const raw = bars.map((i, n) => {
    const c = configs[n] as EvalReport['configs'][number];
    return isFailedValue(column, c, failed.has(i)) ? null : column.get(c);
  });
  const data = raw.map((v) => (v === null ? null : column.kind === 'rate' ? Math.round(v * 1000) / 10 : v));
  const labels = bars.map((i) => barLabel(column, report, i, varying, failed));
  const best = bestValue(report.configs, column);
  const colors = configs.map((c) => (isBest(c, column, best) ? palette.best : palette.bar));
  const fixedScale = column.kind === 'rate' ? { min: 0, max: 100 } : column.kind === 'score' ? { min: 0, max: 1 } : { min: 0 };
  return {
    type: 'bar',
    data: {
      labels,
      datasets: [{ label: column.label, data, backgroundColor: colors, borderRadius: 3, maxBarThickness: 26 }],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: {
          ...fixedScale,
          // A tall chart shows its scale at the top, where it is read first.
          position: bars.length > AXIS_ON_TOP_FROM ? 'top' : 'bottom',
          title: { display: true, text: column.kind === 'rate' ? `${column.label} (%)` : column.kind === 'ms' ? `${column.label} (ms)` : column.label, color: palette.muted, font: { family: palette.font } },
          ticks: { color: palette.muted, font: { family: palette.font } },
          grid: { color: palette.grid },
        },
        y: { ticks: { color: palette.text, autoSkip: false, font: { family: palette.font, size: 12 } }, grid: { display: false } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          titleFont: { family: palette.font },
          bodyFont: { family: palette.font },
          callbacks: {
            label: (item) => {
              const v = raw[item.dataIndex] ?? null;
              return `${column.label}: ${formatMetric(column.kind, v)}`;
            },
          },
        },
      },
    },
  };
}

/** The chart's values as text (every configuration, in report order), for screen readers and for when no canvas can be drawn. */
export function chartSummary(report: EvalReport, metric: MetricKey, failed: ReadonlySet<number> = failedConfigs(report)): Array<{ label: string; value: string }> {
  const column = metricColumn(metric);
  const varying = varyingDimensions(report.configs);
  return report.configs.map((c, i) => ({ label: configLabel(c, varying), value: isFailedValue(column, c, failed.has(i)) ? 'failed' : formatMetric(column.kind, column.get(c)) }));
}
