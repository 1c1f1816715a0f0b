// Clicks per day, organic against marketing, drawn by uPlot (a maintained canvas chart library). Imported
// by the analytics page only, so the library reaches no other page.
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

export interface ClickPoint {
  date: string;
  organic: number;
  marketing: number;
}

/** Noon UTC of a local date: uPlot's x axis is in seconds, and noon keeps the label on that date. */
const seconds = (date: string) => Date.parse(`${date}T12:00:00Z`) / 1000;

export function ClicksChart({ points, label }: { points: ClickPoint[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    linkStylesheet();
    const width = () => Math.max(280, element.clientWidth);
    const chart = new uPlot(
      {
        width: width(),
        height: 280,
        // the dates are local dates of the vendor's time zone already: show them as they are
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [{}, { label: 'Clicks' }],
        series: [
          {},
          { label: 'Organic', stroke: '#0b5f8a', width: 2, points: { show: true } },
          { label: 'Marketing', stroke: '#b04a00', width: 2, dash: [6, 4], points: { show: true } },
        ],
      },
      [points.map((p) => seconds(p.date)), points.map((p) => p.organic), points.map((p) => p.marketing)],
      element,
    );
    const resize = () => chart.setSize({ width: width(), height: 280 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [points]);
  return <div ref={box} class="chart" role="img" aria-label={label} />;
}
