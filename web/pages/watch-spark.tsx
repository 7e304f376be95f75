// The trend of one watched entry: a tiny chartist line of the numbers read in the last 5 minutes
// (watch/trends.ts), across its width, without axes. Each read marks the sparklines to draw again;
// they are drawn in the next animation frames, a few milliseconds of them per frame, so a list of
// 32 never blocks the page for long, each at most once per read, and one out of view only when it
// comes into view.
import { FixedScaleAxis, Interpolation, LineChart } from 'chartist';
import { useEffect, useRef } from 'preact/hooks';
import { trends } from '../watch/state.ts';

const WIDTH = 96;
const HEIGHT = 28;
const FRAME_BUDGET_MS = 6;

const due = new Set<() => void>();
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(drawSome);
}

function drawSome(): void {
  scheduled = false;
  const end = performance.now() + FRAME_BUDGET_MS;
  for (const draw of due) {
    due.delete(draw);
    draw();
    if (performance.now() > end) break;
  }
  if (due.size) schedule();
}

const axis = { type: FixedScaleAxis, ticks: [], offset: 0, showGrid: false, showLabel: false };
/** the same options for every drawing (a chart given new options rebuilds them): x runs from 0, the first number kept, to 1, the last */
const OPTIONS = {
  width: WIDTH,
  height: HEIGHT,
  chartPadding: 2,
  axisX: { ...axis, low: 0, high: 1 },
  axisY: axis,
  showPoint: false,
  lineSmooth: Interpolation.none({ fillHoles: false }),
};

/** the sparklines in view: one out of view is drawn when it comes into view, not on every read */
const inView = new WeakSet<Element>();
const waiting = new WeakMap<Element, () => void>();
let observer: IntersectionObserver | undefined;
function watchView(el: Element, draw: () => void): void {
  observer ??= new IntersectionObserver((seen) => {
    for (const e of seen) {
      if (!e.isIntersecting) inView.delete(e.target);
      else {
        inView.add(e.target);
        const later = waiting.get(e.target);
        waiting.delete(e.target);
        if (later) {
          due.add(later);
          schedule();
        }
      }
    }
  });
  waiting.set(el, draw);
  observer.observe(el);
}

/** `trend`: the entry's key in the trends; `reads`: moves with every read; `label`: what a screen reader says. */
export function Sparkline({ trend, reads, label }: { trend: string; reads: number; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<LineChart | undefined>(undefined);
  const key = useRef(trend);
  key.current = trend;
  const draw = useRef(() => {
    const t = trends.get(key.current);
    const el = host.current;
    if (!t || !el) return;
    if (!inView.has(el)) return void waiting.set(el, draw.current);
    // the numbers kept (the last 5 minutes at most) across the whole width
    const first = t.at[0] ?? 0;
    const span = Math.max(1, (t.at.at(-1) ?? 0) - first);
    const data = { series: [{ data: t.at.map((x, i) => (t.values[i] === null ? null : { x: (x - first) / span, y: t.values[i] })) }] };
    if (chart.current) chart.current.update(data);
    else chart.current = new LineChart(el, data, OPTIONS);
    el.dataset.points = String(t.values.filter((v) => v !== null).length); // browser tests see what was drawn
  });

  useEffect(() => {
    const el = host.current!;
    watchView(el, draw.current);
    return () => {
      observer?.unobserve(el);
      due.delete(draw.current);
      chart.current?.detach();
    };
  }, []);
  useEffect(() => {
    due.add(draw.current);
    schedule();
  }, [reads, trend]);
  return <div class="spark" role="img" aria-label={label} ref={host} data-spark />;
}
