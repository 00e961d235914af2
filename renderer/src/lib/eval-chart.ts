import type { ChartConfiguration } from 'chart.js';
import type { EvalReport } from '../../../shared/eval';
import { configLabel, formatMetric, metricColumn, varyingDimensions, type MetricKey } from './eval-metrics';

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

/** Height in px for `bars` horizontal bars, so labels never overlap. */
export function chartHeight(bars: number): number {
  return Math.max(140, bars * 34 + 56);
}

/**
 * One horizontal bar per configuration for one metric. Rates are plotted as percentages on a
 * 0–100 axis, MRR on 0–1; a configuration where the metric was not run has no bar and
 * "(not run)" in its label. The best value (when there is one) is drawn in the "best" colour.
 */
export function buildChartConfig(report: EvalReport, metric: MetricKey, palette: ChartPalette = DEFAULT_PALETTE): BarChartConfig {
  const column = metricColumn(metric);
  const varying = varyingDimensions(report.configs);
  const raw = report.configs.map((c) => column.get(c));
  const data = raw.map((v) => (v === null ? null : column.kind === 'rate' ? Math.round(v * 1000) / 10 : v));
  const labels = report.configs.map((c, i) => `${configLabel(c, varying)}${raw[i] === null ? ' (not run)' : ''}`);
  const present = data.filter((v): v is number => v !== null);
  const best = column.better && new Set(present).size > 1 ? (column.better === 'higher' ? Math.max(...present) : Math.min(...present)) : null;
  const colors = data.map((v) => (v !== null && v === best ? palette.best : palette.bar));
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

/** The chart's values as text, for screen readers and for when no canvas can be drawn. */
export function chartSummary(report: EvalReport, metric: MetricKey): Array<{ label: string; value: string }> {
  const column = metricColumn(metric);
  const varying = varyingDimensions(report.configs);
  return report.configs.map((c) => ({ label: configLabel(c, varying), value: formatMetric(column.kind, column.get(c)) }));
}
