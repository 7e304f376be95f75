// One trend graph (spec §2 graph page): the chart of one log file with its legend (a click hides
// or shows a series), zoom by CTRL+drag (a selection rectangle on the x range) and by the mouse
// wheel, on a touch screen by two fingers (pinch) with one finger dragging the zoomed graph along
// (a vertical swipe still scrolls the page: touch-action pan-y), and a reset. Every change of view draws again from the rows in view (web/graphs/series.ts),
// so zooming in shows detail the 2880 drawing points of the whole file left out (spec §9).

import type { BarDrawEvent, CreatedEvent, DrawEvent } from 'chartist';
import { BarChart, LineChart } from 'chartist';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { frameOptions } from '../graphs/chart-frame.ts';
import type { Trend } from '../graphs/csv-trend.ts';
import { seriesColour } from '../graphs/palette.ts';
import { type ChartType, type Drawing, drawableColumns, drawing } from '../graphs/series.ts';
import { dragZoom, fullView, isZoomed, type Touches, timeAt, touchView, type View, wheelZoom } from '../graphs/zoom.ts';
import { formatDateTime, LL } from '../i18n/translate.ts';

interface Area {
  x1: number;
  x2: number;
  y1: number;
  y2: number;
}

const chartOptions = (d: Drawing, view: View, type: ChartType, host: HTMLElement) => ({ ...frameOptions(d, view, host), stackBars: type === 2 });

const chartData = (d: Drawing) => ({
  series: d.series.map((s) => ({ name: s.name, className: `gs-${s.column}`, meta: s.colour, data: s.data })),
});

/** Colours every line and bar from the palette; spreads grouped bars side by side around their time. */
function paint(chart: LineChart | BarChart, type: ChartType, count: () => number): void {
  chart.on('draw', (e: DrawEvent) => {
    if (e.type === 'line')
      e.element.attr({ style: `stroke:${String(e.meta)}` }); // a line's meta is its series'
    else if (e.type === 'bar') {
      const b = e as BarDrawEvent;
      const series = b.series as { meta?: string; data: unknown[] };
      const n = Math.max(1, series.data.length);
      const groups = type === 2 ? 1 : count();
      const w = Math.min(24, Math.max(1, (((b.chartRect.x2 - b.chartRect.x1) / n) * 0.8) / groups));
      const shift = type === 2 ? 0 : (b.seriesIndex - (groups - 1) / 2) * w;
      b.element.attr({ x1: b.x1 + shift, x2: b.x2 + shift, style: `stroke:${series.meta ?? ''};stroke-width:${w}px` });
    }
  });
}

export function TrendChart({ title, trend, type }: { title: string; trend: Trend; type: ChartType }) {
  const t = LL.value.graphs;
  const full = useMemo(() => fullView(trend.times), [trend]);
  const [view, setView] = useState<View>(full);
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [drag, setDrag] = useState<{ a: number; b: number } | undefined>();
  const plot = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<{ type: ChartType; chart: LineChart | BarChart; series: number } | undefined>(undefined);
  const area = useRef<Area>({ x1: 0, x2: 0, y1: 0, y2: 0 });
  const drawn = useRef(0);
  const label = useRef('');
  label.current = t.chart({ name: title });

  useEffect(() => setView(full), [full]);

  useEffect(() => {
    const el = host.current!;
    const d = drawing(trend, view, type, hidden);
    const data = chartData(d);
    const options = chartOptions(d, view, type, el);
    const current = chart.current;
    if (current && current.type === type) {
      current.series = d.series.length;
      current.chart.update(data, options);
      return;
    }
    current?.chart.detach();
    el.replaceChildren();
    const made = type === 0 ? new LineChart(el, data, options) : new BarChart(el, data, options);
    const state = { type, chart: made, series: d.series.length };
    paint(made, type, () => state.series);
    made.on('created', (e: CreatedEvent) => {
      const r = e.chartRect;
      area.current = { x1: r.x1, x2: r.x2, y1: r.y1, y2: r.y2 };
      e.svg.attr({ role: 'img', 'aria-label': label.current });
      el.dataset.drawn = String(++drawn.current); // browser tests wait for a new drawing
    });
    chart.current = state;
  }, [trend, view, type, hidden]);

  useEffect(() => () => chart.current?.chart.detach(), []);

  // the wheel needs a listener that may cancel the page's scrolling
  useEffect(() => {
    const el = plot.current!;
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY === 0) return;
      e.preventDefault();
      const px = e.clientX - el.getBoundingClientRect().left;
      const { x1, x2 } = area.current;
      setView((v) => wheelZoom(v, full, timeAt(px, x1, x2, v), e.deltaY));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [full]);

  const px = (e: PointerEvent) => e.clientX - plot.current!.getBoundingClientRect().left;
  // touch: the fingers on the plot (px of the plot) and the gesture they make since the last finger came or went
  const fingers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ view: View; from: Touches } | undefined>(undefined);
  const shown = useRef(view);
  shown.current = view;
  const touchesNow = (): Touches => {
    const at = [...fingers.current.values()];
    const x = at.reduce((sum, p) => sum + p.x, 0) / Math.max(1, at.length);
    const [a, b] = at;
    return { x, dist: a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0 };
  };
  const finger = (e: PointerEvent) => ({ x: px(e), y: e.clientY });
  const rebase = () => {
    gesture.current = fingers.current.size > 0 ? { view: shown.current, from: touchesNow() } : undefined;
  };
  const onDown = (e: PointerEvent) => {
    if (e.pointerType === 'touch') {
      plot.current!.setPointerCapture(e.pointerId);
      fingers.current.set(e.pointerId, finger(e));
      rebase();
      return;
    }
    if (!e.ctrlKey || e.button !== 0) return;
    e.preventDefault();
    plot.current!.setPointerCapture(e.pointerId);
    setDrag({ a: px(e), b: px(e) });
  };
  const onMove = (e: PointerEvent) => {
    if (e.pointerType === 'touch') {
      if (!fingers.current.has(e.pointerId) || !gesture.current) return;
      fingers.current.set(e.pointerId, finger(e));
      const { x1, x2 } = area.current;
      const next = touchView(gesture.current.view, full, gesture.current.from, touchesNow(), x1, x2);
      shown.current = next;
      setView(next);
      return;
    }
    if (drag) setDrag({ a: drag.a, b: px(e) });
  };
  const onUp = (e: PointerEvent) => {
    if (e.pointerType === 'touch') {
      fingers.current.delete(e.pointerId);
      rebase();
      return;
    }
    if (!drag) return;
    const { x1, x2 } = area.current;
    const next = dragZoom(drag.a, px(e), x1, x2, view, full);
    setDrag(undefined);
    if (next) setView(next);
  };
  const onCancel = (e: PointerEvent) => {
    // the browser took the gesture (a vertical swipe scrolls the page): the view stays as it is
    if (e.pointerType === 'touch') {
      fingers.current.delete(e.pointerId);
      rebase();
    } else setDrag(undefined);
  };

  const toggle = (column: number) => {
    const next = new Set(hidden);
    if (!next.delete(column)) next.add(column);
    setHidden(next);
  };

  const columns = drawableColumns(trend);
  const texts = trend.columns.filter((c) => !c.numeric).map((c) => c.name);
  const { x1, x2, y1, y2 } = area.current;
  const clamp = (x: number) => Math.min(Math.max(x, x1), x2);
  return (
    <>
      <p class="range" data-range>
        {t.range({ from: formatDateTime(view.lo, true), to: formatDateTime(view.hi, true) })}
      </p>
      {columns.length === 0 ? (
        <p class="hint" data-note="no-numbers">
          {t.noNumbers()}
        </p>
      ) : (
        <ul class="series-legend" aria-label={t.legend()}>
          {columns.map((i) => {
            const c = trend.columns[i]!;
            return (
              <li key={i}>
                <button type="button" data-series={i} aria-pressed={!hidden.has(i)} onClick={() => toggle(i)}>
                  <span class="swatch" style={{ background: seriesColour(i) }} />
                  <span class="name">{c.name}</span>
                  {c.unit && <span class="unit">{c.unit}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div class="plot" ref={plot} onPointerDown={onDown} onPointerMove={onMove} onPointerUp={onUp} onPointerCancel={onCancel}>
        <div class="ct-host" ref={host} style={{ height: '100%' }} />
        {drag && (
          <div
            class="selection"
            style={{
              left: `${Math.min(clamp(drag.a), clamp(drag.b))}px`,
              width: `${Math.abs(clamp(drag.b) - clamp(drag.a))}px`,
              top: `${y2}px`,
              height: `${y1 - y2}px`,
            }}
          />
        )}
      </div>
      <div class="row between">
        <p class="hint" data-note="lines">
          {t.lines({ n: trend.times.length })}
          {trend.skipped > 0 && <> · {t.skipped({ n: trend.skipped })}</>}
        </p>
        <button type="button" class="btn small" data-action="reset-zoom" disabled={!isZoomed(view, full)} onClick={() => setView(full)}>
          {t.resetZoom()}
        </button>
      </div>
      {texts.length > 0 && (
        <p class="hint" data-note="text-columns">
          {t.textColumns({ names: texts.join(', ') })}
        </p>
      )}
      {trend.torn && (
        <p class="hint" data-note="torn">
          {t.torn()}
        </p>
      )}
    </>
  );
}
