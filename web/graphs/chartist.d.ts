// The part of chartist 1.x the trend graphs use. The package's own declarations re-export their
// files without extensions, which NodeNext resolution (tsconfig) cannot follow, so every export
// would be missing; this ambient module takes their place with the same names and shapes.
declare module 'chartist' {
  export interface ChartRect {
    x1: number;
    x2: number;
    y1: number;
    y2: number;
    width(): number;
    height(): number;
  }

  export interface Svg {
    attr(attributes: Record<string, string | number>): Svg;
    getNode<T extends Element = Element>(): T;
  }

  export interface SeriesObject<T> {
    name?: string;
    className?: string;
    meta?: unknown;
    data: T[];
  }

  export interface ChartData<T> {
    labels?: unknown[];
    series: SeriesObject<T>[];
  }

  /** An axis type: chartist constructs it itself from the options. */
  /** The scale an auto-scaled axis of `axisLength` px takes for the range (`values`: its tick values). */
  export function getBounds(axisLength: number, highLow: { high: number; low: number }, scaleMinSpace: number, onlyInteger?: boolean): { values: number[] };

  export class FixedScaleAxis {
    private constructor();
  }

  export interface AxisOptions {
    type?: typeof FixedScaleAxis;
    low?: number;
    high?: number;
    ticks?: number[];
    offset?: number;
    referenceValue?: number;
    showGrid?: boolean;
    showLabel?: boolean;
    labelInterpolationFnc?: (value: unknown, index: number) => string | number | null | undefined;
  }

  export type LineInterpolation = (pathCoordinates: number[], valueData: unknown[]) => unknown;

  export const Interpolation: {
    none(options?: { fillHoles?: boolean }): LineInterpolation;
  };

  export interface ChartOptions {
    width?: number | string;
    height?: number | string;
    low?: number;
    high?: number;
    chartPadding?: number | { top?: number; right?: number; bottom?: number; left?: number };
    axisX?: AxisOptions;
    axisY?: AxisOptions;
    showPoint?: boolean;
    showLine?: boolean;
    lineSmooth?: boolean | LineInterpolation;
    stackBars?: boolean;
    stackMode?: 'accumulate' | 'accumulate-relative' | boolean;
  }

  export interface DrawEvent {
    type: string;
    element: Svg;
    group: Svg;
    chartRect: ChartRect;
    meta: unknown;
    index: number;
    series: unknown;
    seriesIndex: number;
  }

  export interface LineDrawEvent extends DrawEvent {
    type: 'line';
  }

  export interface BarDrawEvent extends DrawEvent {
    type: 'bar';
    x1: number;
    x2: number;
    y1: number;
    y2: number;
  }

  export interface CreatedEvent {
    chartRect: ChartRect;
    svg: Svg;
  }

  abstract class BaseChart {
    update(data?: ChartData<unknown>, options?: ChartOptions, override?: boolean): this;
    detach(): this;
    on(event: 'draw', listener: (e: DrawEvent) => void): this;
    on(event: 'created', listener: (e: CreatedEvent) => void): this;
  }

  export class LineChart extends BaseChart {
    constructor(query: string | Element, data: ChartData<unknown>, options?: ChartOptions);
  }

  export class BarChart extends BaseChart {
    constructor(query: string | Element, data: ChartData<unknown>, options?: ChartOptions);
  }
}
