// One figure over time, drawn by uPlot (a canvas chart of about 50 KB, no dependencies, bundled in
// the Reports screen's chunk). The canvas says nothing to a screen reader, so the chart is an image
// named by what it shows, and the figures are in a table under it (folded, for every reader).
import 'uplot/dist/uPlot.min.css';
import uPlot from 'uplot';
import { useEffect, useRef } from 'preact/hooks';
import type { Schemas } from '../../api/client.js';
import { NO_DATA } from './report-format.js';
import type { Interval } from './report-query.js';

type Point = Schemas['ReportTimeseriesPoint'];

const HEIGHT = 150;
const ACCENT = '#4338ca';
const AXIS = { stroke: '#5f5f6b', grid: { stroke: '#ececf1', width: 1 }, ticks: { stroke: '#e2e2e8', width: 1 } };

const bucketLabel = (start: string, interval: Interval, timeZone: string) =>
  new Intl.DateTimeFormat('en', interval === 'hour'
    ? { timeZone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
    : { timeZone, year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(start));

export interface ChartProps {
  title: string;
  points: Point[];
  interval: Interval;
  timeZone: string;
  /** Writes a value as the figure is written above the chart. */
  format: (value: number) => string;
  /** Counts have whole ticks only. */
  whole?: boolean;
  /** The top of the scale at least (a minute for spans, 100% for shares), so a flat chart reads sensibly. */
  top: number;
}

export function ReportChart({ title, points, interval, timeZone, format, whole, top }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current!;
    const data: uPlot.AlignedData = [points.map((point) => Date.parse(point.start) / 1000), points.map((point) => point.value)];
    const plot = new uPlot({
      width: Math.max(element.clientWidth, 200),
      height: HEIGHT,
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), timeZone),
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: true }, y: { range: (_plot, _min, max) => [0, Math.max(top, max * 1.1)] } },
      axes: [
        AXIS,
        { ...AXIS, size: 64, values: (_plot, ticks) => ticks.map((tick) => (whole && !Number.isInteger(tick) ? '' : format(tick))) },
      ],
      series: [{}, { stroke: ACCENT, width: 2, fill: 'rgb(67 56 202 / 0.08)', points: { show: points.length <= 31 } }],
    }, data, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, timeZone, interval, top]);

  const known = points.filter((point) => point.value !== null);
  const highest = known.reduce<Point | null>((best, point) => (best === null || point.value! > best.value! ? point : best), null);
  const summary = highest === null
    ? `${title} by ${interval}: no data in this window.`
    : `${title} by ${interval}, ${points.length} ${interval}s: highest ${format(highest.value!)} (${bucketLabel(highest.start, interval, timeZone)}). Every ${interval} is in the table below.`;
  return (
    <figure class="report-chart">
      <div ref={box} class="report-plot" role="img" aria-label={summary} />
      <details class="report-figures">
        <summary>{title} by {interval}</summary>
        {/* It scrolls past a few rows, so it takes the focus: a keyboard can scroll it too. */}
        <div class="table-wrap" tabIndex={0} role="region" aria-label={`${title} by ${interval}, every ${interval}`}>
          <table class="table">
            <thead><tr><th scope="col">{interval === 'hour' ? 'Hour' : interval === 'day' ? 'Day' : 'Week of'}</th><th scope="col">{title}</th></tr></thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.start}><td>{bucketLabel(point.start, interval, timeZone)}</td><td>{point.value === null ? NO_DATA : format(point.value)}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
