import type { Chart as ChartJs } from 'chart.js';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EvalReport } from '../../../../shared/eval';
import { DEFAULT_PALETTE, MAX_BARS, buildChartConfig, chartHeight, chartSummary, type ChartPalette } from './eval-chart';
import { metricColumn, shownColumns, type MetricKey } from './eval-metrics';
import { loadOnce } from '../../common/lazy';

/**
 * Chart.js, loaded on first use (it stays out of the start-up bundle), with only the parts a bar
 * chart needs. A failed load is not kept: the next draw tries again.
 */
const loadChart = loadOnce<typeof ChartJs>(() =>
  import('chart.js').then(({ BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip }) => {
    Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);
    return Chart;
  }),
);

/** The theme's colours, read from the CSS variables at draw time. */
function readPalette(el: Element): ChartPalette {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    bar: v('--accent', DEFAULT_PALETTE.bar),
    best: v('--ok', DEFAULT_PALETTE.best),
    text: v('--text', DEFAULT_PALETTE.text),
    muted: v('--muted', DEFAULT_PALETTE.muted),
    grid: v('--border', DEFAULT_PALETTE.grid),
    font: css.fontFamily || DEFAULT_PALETTE.font,
  };
}

/** A 2D context, or null where none can be had (no canvas support, e.g. under jsdom). */
function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D | null {
  try {
    return canvas.getContext('2d');
  } catch {
    return null;
  }
}

/** The first of the headline metrics this report has a value for. */
export function defaultMetric(report: EvalReport): MetricKey {
  const preferred: MetricKey[] = ['answerHasFact', 'hitK', 'refusalAccuracy', 'mrr'];
  return preferred.find((k) => report.configs.some((c) => metricColumn(k).get(c) !== null)) ?? 'hitK';
}

interface MetricChartProps {
  report: EvalReport;
  /** Configurations where every question run failed (failedConfigs). */
  failed?: ReadonlySet<number>;
}

/**
 * One bar per configuration for the chosen metric (the best MAX_BARS when there are more, with
 * the whole list a click away); the values are also given as text for screen readers.
 */
export function MetricChart({ report, failed }: MetricChartProps) {
  const [metric, setMetric] = useState<MetricKey>(() => defaultMetric(report));
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawable, setDrawable] = useState(true);
  const [listAll, setListAll] = useState(false);
  const [scheme, setScheme] = useState(0);
  const column = metricColumn(metric);
  const summary = useMemo(() => chartSummary(report, metric, failed), [report, metric, failed]);
  const capped = report.configs.length > MAX_BARS;
  const asList = !drawable || listAll;

  // Redraw in the new colours when the system switches between light and dark.
  useEffect(() => {
    const mq = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
    if (!mq) return;
    const onChange = () => setScheme((n) => n + 1);
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  useEffect(() => {
    const el = canvas.current;
    if (!el || listAll) return;
    const ctx = context2d(el);
    if (!ctx) {
      setDrawable(false);
      return;
    }
    const config = buildChartConfig(report, metric, readPalette(el), failed ? { failed } : {});
    let chart: ChartJs | null = null;
    let live = true;
    loadChart().then(
      (Chart) => {
        if (!live) return;
        chart = new Chart(ctx, config);
        setDrawable(true);
      },
      () => live && setDrawable(false),
    );
    return () => {
      live = false;
      chart?.destroy();
    };
  }, [report, metric, scheme, failed, listAll]);

  return (
    <section className="card eval-chart" data-testid="eval-chart" aria-labelledby="eval-chart-title">
      <header className="card__head">
        <h3 id="eval-chart-title" className="section-title">
          Compare one metric
        </h3>
        <label className="row small">
          <span>Metric</span>
          <select value={metric} onChange={(e) => setMetric(e.target.value as MetricKey)} data-testid="eval-chart-metric">
            {shownColumns(report.configs).map((c) => (
              <option key={c.key} value={c.key}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      </header>
      <p className="muted small">
        {column.title}
        {column.better ? ` ${column.better === 'higher' ? 'Higher' : 'Lower'} is better; the best bar is green.` : ''}
      </p>
      {capped && drawable && (
        <p className="row small eval-chart__cap" data-testid="eval-chart-cap">
          <span className="muted">
            {listAll
              ? `All ${report.configs.length} configurations, as a list.`
              : `Charted: the ${MAX_BARS} ${column.better ? 'best' : 'highest'} of ${report.configs.length} configurations, ${column.better ? 'best' : 'highest'} first.`}
          </span>
          <button type="button" className="button button--quiet" onClick={() => setListAll((v) => !v)} data-testid="eval-chart-all">
            {listAll ? `Chart the best ${MAX_BARS}` : `List all ${report.configs.length}`}
          </button>
        </p>
      )}
      {!listAll && (
        <div className="eval-chart__canvas" style={{ height: chartHeight(report.configs.length) }}>
          <canvas ref={canvas} role="img" aria-label={`${column.label} per configuration`} hidden={!drawable} />
          {!drawable && <p className="muted">The chart cannot be drawn here; the values are listed below.</p>}
        </div>
      )}
      <ul className={asList ? 'eval-chart__values' : 'visually-hidden'} data-testid="eval-chart-values">
        {summary.map((s, i) => (
          <li key={i}>
            {s.label}: {s.value}
          </li>
        ))}
      </ul>
    </section>
  );
}
