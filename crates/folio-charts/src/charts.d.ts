// env:charts — charts from a small spec, as PNG or SVG.

export type ChartType = 'bar' | 'line' | 'area' | 'pie' | 'scatter' | 'combo';

export interface Series {
  name: string;
  /** One number per category; null (or NaN) is an empty point, skipped with a warning. */
  values: (number | null)[];
  /** scatter: the x of each value. */
  x?: number[];
  /** combo only: draw this series as bars (default) or a line. */
  type?: 'bar' | 'line';
  /** combo only: plot against the right-hand axis. */
  axis?: 'primary' | 'secondary';
}

export interface ChartSpec {
  type: ChartType;
  title?: string;
  categories?: string[];
  series: Series[];
  /** bar: bars run left to right. */
  horizontal?: boolean;
  /** bar, area: stack the series. */
  stacked?: boolean;
  xTitle?: string;
  yTitle?: string;
  /** default 'bottom' */
  legend?: 'bottom' | 'right' | 'none';
  /** Excel-like: '#,##0', '0.0%', '$#,##0.00' */
  numberFormat?: string;
  /** Where the value axis starts; bar, column and area axes start at zero without it. */
  yMin?: number;
}

export interface RenderOptions {
  /** '/out/chart.png' or '/out/chart.svg' */
  output: string;
  /** CSS pixels, default 800 */
  width?: number;
  /** CSS pixels, default 500 */
  height?: number;
  /** PNG pixel ratio, default 1 (2 for slides and print) */
  scale?: number;
}

export interface Rendered {
  path: string;
  /** pixels (CSS pixels × scale) */
  width: number;
  /** pixels (CSS pixels × scale) */
  height: number;
  format: 'png' | 'svg';
  bytes: number;
  /** what was skipped or shortened, one sentence each */
  warnings: string[];
}

/** Draws the chart and writes it as PNG or SVG (by the output's extension). */
export function render(spec: ChartSpec, options: RenderOptions): Rendered;
/** The chart as SVG text; width and height in CSS pixels (default 800 × 500). */
export function toSvg(spec: ChartSpec, options?: { width?: number; height?: number }): string;
