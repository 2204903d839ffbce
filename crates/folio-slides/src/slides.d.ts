// env:slides — PowerPoint decks: create from a spec, read back, replace text.

import type { ChartSpec } from 'env:charts';

export interface SlideSpec {
  title?: string;
  /** Two leading spaces per indent level: ['Point', '  sub-point']. */
  bullets?: string[];
  /** Paragraphs (or one string, a paragraph per line). */
  body?: string | string[];
  /** Rows, the first is the header; or {header, rows}. Long tables continue onto further slides. */
  table?: string[][] | { header: string[]; rows: (string | number)[][] };
  /** A 60 pt value over a caption. */
  metric?: { value: string | number; caption?: string };
  /** A PNG/JPEG/GIF path in the tree, placed on the right half. */
  image?: string;
  /** A native PowerPoint chart (the env:charts spec). */
  chart?: ChartSpec;
  notes?: string;
}

export interface DeckSpec {
  title: string;
  subtitle?: string;
  /** On the slide master, under every slide. */
  footer?: string;
  slides: SlideSpec[];
}

export interface Created { path: string; slides: number; charts: number; bytes: number; warnings: string[] }
export interface DeckSummary { format: 'pptx'; bytes: number; slides: number; titles: string[]; words: number; media: number; charts: number; notes: number }
export interface SlideText { slide: number; title: string; body: string[]; notes: string }
export interface ReplaceOptions { slides?: number | number[]; notes?: boolean; output?: string }
export interface Replaced { path: string; replacements: number; slides: { slide: number; replacements: number }[]; unmatched: string[]; parts: number; entries: number }

/** Slide count, titles, words (notes included), media and charts. */
export function describe(path: string): DeckSummary;
/** Writes a 16:9 deck: a title slide, then one slide per spec slide. */
export function create(spec: DeckSpec, output: string): Created;
/** Each slide's title, body paragraphs and notes. */
export function extract(path: string): SlideText[];
/** Markdown with '## Slide N: Title' headers. */
export function outline(path: string): string;
/** Replaces text in slide runs (and notes); only matched parts are rewritten; no match throws. */
export function replaceText(path: string, rules: Record<string, string> | [string, string][] | { find: string; replace: string }[], options?: ReplaceOptions): Replaced;
