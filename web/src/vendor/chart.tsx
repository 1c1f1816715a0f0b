// Numbers per day (clicks, bookings, revenue) as lines drawn by uPlot (a maintained canvas chart library).
// Imported by the analytics page only, so the library reaches no other page.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import uPlotStylesheet from 'uplot/dist/uPlot.min.css?url';

/** uPlot's own stylesheet, linked once when a chart is first drawn (the shell links the app's only). */
function linkStylesheet(): void {
  const href = new URL(uPlotStylesheet, import.meta.url).href;
  if (document.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.append(link);
}

/**
 * How a line looks. Lines differ by dash as well as colour, so a reader who cannot tell the colours apart
 * still tells the lines apart; every page uses the same look for the same traffic type.
 */
interface Look {
  stroke: string;
  dash?: number[];
}

export const LINES: Record<'organic' | 'marketing' | 'unattributed' | 'revenue', Look> = {
  organic: { stroke: '#0b5f8a' },
  marketing: { stroke: '#b04a00', dash: [6, 4] },
  unattributed: { stroke: '#5c6670', dash: [2, 3] },
  revenue: { stroke: '#2e7d32' },
};

export interface Line {
  label: string;
  look: Look;
  values: number[];
}

/** Noon UTC of a local date: uPlot's x axis is in seconds, and noon keeps the label on that date. */
const seconds = (date: string) => Date.parse(`${date}T12:00:00Z`) / 1000;

const HEIGHT = 260;

/**
 * One value per date and line. `label` is the chart's accessible name: it says what is drawn and where the
 * same numbers are as a table, since a canvas says nothing to a screen reader. `format` writes the y axis's
 * values (amounts in a currency); whole numbers are the default.
 */
export function DailyChart({
  dates,
  lines,
  label,
  axis,
  format,
}: {
  dates: string[];
  lines: Line[];
  label: string;
  axis: string;
  format?: (value: number) => string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    linkStylesheet();
    const width = () => Math.max(260, element.clientWidth - 16);
    const chart = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        // the dates are local dates of the vendor's time zone already: show them as they are
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          {},
          {
            label: axis,
            size: format ? 70 : 50,
            // counts are whole: no tick at 0.5 of a click
            values: (_u, ticks) =>
              ticks.map((v) => (format ? format(v) : Number.isInteger(v) ? String(v) : '')),
          },
        ],
        series: [
          {},
          ...lines.map((line) => ({
            label: line.label,
            width: 2,
            points: { show: true },
            ...line.look,
            // the legend's value under the cursor, written as the axis writes it
            ...(format && { value: (_u: uPlot, v: number | null) => (v === null ? '' : format(v)) }),
          })),
        ],
      },
      [dates.map(seconds), ...lines.map((line) => line.values)],
      element,
    );
    const resize = () => chart.setSize({ width: width(), height: HEIGHT });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [dates, lines]);
  return <div ref={box} class="chart" role="img" aria-label={label} />;
}
