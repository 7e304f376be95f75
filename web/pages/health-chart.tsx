// One health plot of /health: a line chart of the last hour (the trend graphs' axes and theming:
// web/graphs/chart-frame.ts), its legend (unless its one series is what its title names), the unit of its y axis, and as its text alternative a
// table of each series' current, lowest and highest value (visually hidden: the chart's picture
// itself is hidden from screen readers).

import type { CreatedEvent, DrawEvent } from 'chartist';
import { LineChart } from 'chartist';
import { useEffect, useRef } from 'preact/hooks';
import { frameOptions, type YRange } from '../graphs/chart-frame.ts';
import { figures, type HealthSeries } from '../graphs/health-series.ts';
import type { View } from '../graphs/zoom.ts';
import { LL } from '../i18n/translate.ts';

export interface Plot {
  /** names the chart for the tests (data-chart) */
  id: string;
  title: string;
  /** the y axis' unit */
  unit: string;
  series: (HealthSeries & { name: string })[];
  range: YRange;
  view: View;
  /** a y axis label */
  tick(v: number): string;
  /** a value with its unit, for the text alternative */
  amount(v: number): string;
}

export function HealthChart({ plot }: { plot: Plot }) {
  const t = LL.value.health;
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<LineChart | undefined>(undefined);

  useEffect(() => {
    const el = host.current!;
    const data = { series: plot.series.map((s) => ({ name: s.name, className: s.dashed ? 'dashed' : 'solid', meta: s.colour, data: s.data })) };
    // a single sample makes no line: it shows as a dot
    const options = { ...frameOptions(plot.range, plot.view, el, plot.tick), showPoint: plot.series.every((s) => s.data.length < 2) };
    if (chart.current) {
      chart.current.update(data, options);
      return;
    }
    const made = new LineChart(el, data, options);
    made.on('draw', (e: DrawEvent) => {
      if (e.type === 'line' || e.type === 'point') e.element.attr({ style: `stroke:${String((e.series as { meta?: string }).meta)}` });
    });
    made.on('created', (e: CreatedEvent) => {
      e.svg.attr({ 'aria-hidden': 'true' });
      el.dataset.drawn = String(Number(el.dataset.drawn ?? 0) + 1); // browser tests wait for a new drawing
    });
    chart.current = made;
  }, [plot]);

  useEffect(() => () => void chart.current?.detach(), []);

  const shown = (v: number | undefined) => (v === undefined ? t.none() : plot.amount(v));
  return (
    <figure class="chart" data-chart={plot.id}>
      <figcaption>
        <h3>{plot.title}</h3>
      </figcaption>
      {plot.series.some((s) => s.name !== plot.title) && (
        <ul class="legend">
          {plot.series.map((s) => (
            <li key={s.key} data-series={s.key}>
              <span class={`swatch ${s.dashed ? 'dashed' : ''}`} style={{ borderColor: s.colour }} />
              {s.name}
            </li>
          ))}
        </ul>
      )}
      <p class="y-unit" aria-hidden="true">
        {plot.unit}
      </p>
      <div class="plot">
        <div class="ct-host" ref={host} style={{ height: '100%' }} />
      </div>
      <div class="sr">
        <table>
          <caption>{t.table.caption({ title: plot.title })}</caption>
          <thead>
            <tr>
              <th scope="col">{t.table.series()}</th>
              <th scope="col">{t.table.now()}</th>
              <th scope="col">{t.table.min()}</th>
              <th scope="col">{t.table.max()}</th>
            </tr>
          </thead>
          <tbody>
            {plot.series.map((s) => {
              const f = figures(s);
              return (
                <tr key={s.key} data-series={s.key}>
                  <th scope="row">{s.name}</th>
                  <td data-col="now">{shown(f.now)}</td>
                  <td data-col="min">{shown(f.min)}</td>
                  <td data-col="max">{shown(f.max)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
