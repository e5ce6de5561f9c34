import { useEffect, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartConfiguration } from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip);

const COLOURS = ['#2563eb', '#16a34a', '#dc2626', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];

export interface Series {
  label: string;
  values: number[];
}

/** One chart.js chart; `summary` is what a screen reader gets instead of the canvas. */
export function ChartView({ kind, labels, series, summary }: { kind: 'bar' | 'line'; labels: string[]; series: Series[]; summary: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const config: ChartConfiguration<'bar' | 'line'> = {
      type: kind,
      data: {
        labels,
        datasets: series.map((s, i) => ({ label: s.label, data: s.values, backgroundColor: COLOURS[i % COLOURS.length], borderColor: COLOURS[i % COLOURS.length] })),
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    };
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [kind, labels, series]);
  return (
    <div className="chart">
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
