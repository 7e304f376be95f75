// What every line chart of the console shares (the trend graphs of /graphs, the health plots of
// /health): the y axis as wide as its widest label in the labels' font, a time axis with as many marks
// on round clock times as its labels leave room for (a phone's narrow chart gets fewer), straight
// segments with gaps where a value is missing. The charts are chartist's, coloured by the console's
// themes (web/styles/chart.css).

import { FixedScaleAxis, getBounds, Interpolation } from 'chartist';
import { axisTicks, clockLabel, withSeconds } from './time-axis.ts';
import type { View } from './zoom.ts';

/** y labels without float noise (0.30000000000000004 → 0.3) */
export const yLabel = (v: number) => String(Number(v.toPrecision(8)));

const PADDING = { top: 12, right: 36, bottom: 0, left: 4 };
const X_AXIS_PX = 30; // chartist's default height of the x axis
const Y_MIN_SPACE = 20; // chartist's default least space between y ticks
const Y_LABEL_GAP = 10; // chartist draws a y label 10 px narrower than the axis offset
let measureCtx: CanvasRenderingContext2D | null | undefined;

/** The width in px of `text` in the axis labels' font (without a canvas: a digit is under 0.6 em). */
function labelTextPx(text: string, host: HTMLElement): number {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const style = getComputedStyle(host);
  const labelPx = labelFontPx(style, rem);
  measureCtx ??= document.createElement('canvas').getContext('2d');
  if (!measureCtx) return text.length * 0.6 * labelPx;
  measureCtx.font = `${labelPx}px ${style.fontFamily}`;
  return measureCtx.measureText(text).width;
}

/**
 * The y axis's width: the widest of the labels chartist will draw (its own scale for this height,
 * which may run past the highest value to a rounder, wider number: 950 → 1000), measured in the
 * labels' font, plus their right padding and chartist's gap.
 */
function yAxisWidth(range: YRange, host: HTMLElement, label: (v: number) => string): number {
  const axisLength = Math.max(1, host.clientHeight - PADDING.top - PADDING.bottom - X_AXIS_PX);
  const labels = [...getBounds(axisLength, range, Y_MIN_SPACE).values, range.low, range.high].map(label);
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const text = Math.max(...labels.map((l) => labelTextPx(l, host)));
  return Math.min(160, Math.max(36, Math.ceil(text + 0.3 * rem + Y_LABEL_GAP + 2)));
}

/** The axis labels' font size in px: the small size of the console's type scale (--fs-small in web/styles/app.css). */
function labelFontPx(style: CSSStyleDeclaration, rem: number): number {
  const small = style.getPropertyValue('--fs-small').trim();
  const n = parseFloat(small);
  if (!Number.isFinite(n)) return 0.85 * rem;
  return small.endsWith('rem') ? n * rem : n;
}

export interface YRange {
  low: number;
  high: number;
}

/** The options of a chart of `range` over the times of `view`, drawn into `host` (its size decides the marks); `label` writes a y value. */
export function frameOptions(range: YRange, view: View, host: HTMLElement, label: (v: number) => string = yLabel) {
  const yWidth = yAxisWidth(range, host, label);
  // the x labels as wide as their text (HH:MM, or HH:MM:SS between marks closer than a minute)
  const minutePx = Math.ceil(labelTextPx('00:00', host));
  const secondPx = Math.ceil(labelTextPx('00:00:00', host));
  const { ticks, step } = axisTicks(view.lo, view.hi, {
    plotPx: host.clientWidth - PADDING.left - PADDING.right - yWidth,
    labelPx: (s) => (withSeconds(s) ? secondPx : minutePx),
    roomPx: PADDING.right,
  });
  return {
    height: '100%',
    low: range.low,
    high: range.high,
    chartPadding: PADDING,
    axisX: { type: FixedScaleAxis, low: view.lo, high: view.hi, ticks, labelInterpolationFnc: (v: unknown) => clockLabel(Number(v), step) },
    axisY: { offset: yWidth, labelInterpolationFnc: (v: unknown) => label(Number(v)), referenceValue: 0 },
    // line: straight segments (a smoothed curve would invent values), gaps where a read failed, no dots
    showPoint: false,
    lineSmooth: Interpolation.none({ fillHoles: false }),
  };
}
