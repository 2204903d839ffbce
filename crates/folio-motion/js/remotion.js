// The Remotion-style API, answered under the import name `remotion` (served as
// /__folio/remotion.js). Written for Folio from Remotion's public documentation — it is not
// Remotion's code — with the same frame semantics as folio/motion: the frame comes from
// window.__folio, and inside a <Sequence> useCurrentFrame() counts from the sequence's start.
//
// Provided: useCurrentFrame, useVideoConfig, interpolate and Easing (remotion-interpolate.js),
// spring, measureSpring, Sequence, Series, Loop (and Loop.useLoop), Freeze, AbsoluteFill, Img
// (their props: props.js), interpolateColors, staticFile, delayRender / continueRender /
// cancelRender / useDelayRender, random, getInputProps, Composition / Still (render their
// component), useCurrentScale.
// Anything else imported from 'remotion' fails at import with the browser's "does not provide an
// export named …" error, which names it.
import { Children, createContext, createElement, forwardRef, isValidElement, useContext } from 'react';
import {
  ABSOLUTE_FILL, Sequence, SequenceContext, checkRanges, describe, measureSpring, physicsSpring,
  sequence, useAbsoluteFrame, useFrame, useVideoConfig as useFolioConfig,
} from 'folio/motion';
import { checkProps } from './props.js';
import { Easing, interpolate } from './remotion-interpolate.js';

const F = () => window.__folio;

export { Easing, Sequence, interpolate, measureSpring };
export const spring = physicsSpring;

/** The frame, relative to the innermost <Sequence> (0-based). */
export function useCurrentFrame() {
  return useFrame();
}
/** {width, height, fps, durationInFrames, id, defaultProps, props} of the render; inside a
 *  <Sequence>, width/height/durationInFrames are the sequence's (its width/height props, inherited
 *  from enclosing sequences, and its duration cut to what is left of its parent), as in Remotion. */
export function useVideoConfig() {
  const ctx = useContext(SequenceContext);
  const cfg = useFolioConfig();
  return {
    ...cfg,
    width: ctx.width !== null && ctx.width !== undefined ? ctx.width : cfg.width,
    height: ctx.height !== null && ctx.height !== undefined ? ctx.height : cfg.height,
    durationInFrames: ctx.duration !== null && ctx.duration !== undefined ? ctx.duration : cfg.durationInFrames,
    id: 'folio', defaultProps: {}, props: {},
  };
}
export function useCurrentScale() {
  return 1;
}
export function getInputProps() {
  return {};
}

// ---- colours ----------------------------------------------------------------------------------
let colorCtx = null;
const colorCache = new Map();
// Any CSS colour, parsed by the browser: [r, g, b, a] with channels 0–255 and alpha 0–1.
function parseColor(color) {
  if (colorCache.has(color)) return colorCache.get(color);
  if (typeof color !== 'string') throw new TypeError(`interpolateColors: colours must be CSS colour strings ('red', '#ff0000', 'rgba(255, 0, 0, 0.5)', 'hsl(0, 100%, 50%)'), got ${describe(color)}`);
  if (!colorCtx) colorCtx = document.createElement('canvas').getContext('2d');
  colorCtx.fillStyle = '#010203';
  colorCtx.fillStyle = color;
  let v = colorCtx.fillStyle;
  if (v === '#010203') {
    colorCtx.fillStyle = '#040506';
    colorCtx.fillStyle = color;
    if (colorCtx.fillStyle === '#040506') throw new TypeError(`interpolateColors: ${JSON.stringify(color)} is not a CSS colour`);
    v = colorCtx.fillStyle;
  }
  let out;
  if (v[0] === '#') out = [parseInt(v.slice(1, 3), 16), parseInt(v.slice(3, 5), 16), parseInt(v.slice(5, 7), 16), 1];
  else { const n = v.match(/[\d.]+/g).map(Number); out = [n[0], n[1], n[2], n.length > 3 ? n[3] : 1]; }
  colorCache.set(color, out);
  return out;
}
/** Maps input over inputRange to a colour of outputRange: 'rgba(r, g, b, a)', clamped. */
export function interpolateColors(input, inputRange, outputRange) {
  checkRanges('interpolateColors', inputRange, outputRange, { strict: true });
  const colors = outputRange.map(parseColor);
  const channel = (k) => interpolate(input, inputRange, colors.map((c) => c[k]), { extrapolateLeft: 'clamp', extrapolateRight: 'clamp' });
  const [r, g, b] = [0, 1, 2].map((k) => Math.round(channel(k)));
  const a = Number(channel(3).toFixed(3));
  return `rgba(${r}, ${g}, ${b}, ${a})`;
}

// ---- components -------------------------------------------------------------------------------
export const AbsoluteFill = forwardRef(function AbsoluteFill(props, ref) {
  const { style, ...rest } = checkProps('AbsoluteFill', props);
  return createElement('div', { ...rest, ref, style: { ...ABSOLUTE_FILL, ...style } });
});

/** <img> whose load the frame waits for (every drive waits for new images); a failed load is
 *  recorded as a page error naming the source. */
export const Img = forwardRef(function Img(props, ref) {
  const { onError, onImageError, onImageFrame, name, onLoad, ...rest } = checkProps('Img', props);
  return createElement('img', {
    ...rest,
    ref,
    'data-name': name,
    onLoad(e) {
      if (onImageFrame) onImageFrame(e.currentTarget);
      if (onLoad) onLoad(e);
    },
    onError(e) {
      const err = new Error(`<Img> could not load ${JSON.stringify(props.src)} — check the path (an absolute tree path such as /in/photo.png, or staticFile('photo.png') next to the scene)`);
      F().recordError(err, 'runtime');
      if (onImageError) onImageError(err);
      if (onError) onError(e);
    },
  });
});

export function Series({ children }) {
  let start = 0;
  const items = Children.toArray(children).filter((c) => c !== null && c !== false);
  return items.map((child, i) => {
    if (!isValidElement(child) || child.type !== SeriesSequence) {
      throw new TypeError('<Series> may only contain <Series.Sequence> elements');
    }
    const { durationInFrames = Infinity, offset = 0, ...rest } = checkProps('Series.Sequence', child.props);
    if (durationInFrames === Infinity && i !== items.length - 1) {
      throw new TypeError('<Series.Sequence>: only the last sequence of a <Series> may leave out durationInFrames (play until the end)');
    }
    if (typeof offset !== 'number' || !Number.isFinite(offset)) throw new TypeError(`<Series.Sequence offset> must be a number of frames, got ${describe(offset)}`);
    const from = start + offset;
    start = from + durationInFrames;
    return createElement(SeriesItem, { key: child.key ?? i, from, durationInFrames, ...rest });
  });
}
function SeriesItem(props) {
  return sequence('Series.Sequence', props, true);
}
function SeriesSequence({ children }) {
  return children;
}
Series.Sequence = SeriesSequence;

/** Repeats its children every durationInFrames frames, `times` times (default: forever). */
export function Loop(props) {
  const { durationInFrames, times = Infinity, layout = 'absolute-fill', style, className, name, children } = checkProps('Loop', props);
  if (typeof durationInFrames !== 'number' || !(durationInFrames > 0)) {
    throw new TypeError(`<Loop durationInFrames> must be a positive number of frames, got ${describe(durationInFrames)}`);
  }
  if (typeof times !== 'number' || !(times >= 0)) throw new TypeError(`<Loop times> must be a number of repetitions >= 0 (or Infinity), got ${describe(times)}`);
  if (layout !== 'absolute-fill' && layout !== 'none') throw new TypeError(`<Loop layout> is "absolute-fill" (the default) or "none", got ${describe(layout)}`);
  const parent = useContext(SequenceContext);
  const rel = useAbsoluteFrame() - parent.offset;
  const iteration = Math.floor(rel / durationInFrames);
  if (rel < 0 || iteration >= times) return null;
  const offset = parent.offset + iteration * durationInFrames;
  const value = { ...parent, offset, end: Math.min(parent.end, offset + durationInFrames), duration: durationInFrames };
  const inner = createElement(SequenceContext.Provider, { value }, createElement(LoopContext.Provider, { value: { iteration, durationInFrames } }, children));
  return layout === 'none' ? inner : createElement('div', { style: { ...ABSOLUTE_FILL, ...style }, className, 'data-sequence': name }, inner);
}
const LoopContext = createContext(null);
/** Inside a <Loop>: {iteration, durationInFrames} of the current pass; null outside one. */
Loop.useLoop = () => useContext(LoopContext);

/** Its children see `frame` (relative to the enclosing sequence) while `active`. */
export function Freeze(props) {
  const { frame, active = true, children } = checkProps('Freeze', props);
  const parent = useContext(SequenceContext);
  const abs = useAbsoluteFrame();
  if (typeof frame !== 'number' || Number.isNaN(frame)) throw new TypeError(`<Freeze frame> must be a number, got ${describe(frame)}`);
  const on = typeof active === 'function' ? active(abs - parent.offset) : active;
  if (!on) return children;
  return createElement(SequenceContext.Provider, { value: { ...parent, frozen: parent.offset + frame } }, children);
}

/** <Composition component={…} defaultProps={…} /> renders its component; its fps, size and
 *  duration are not read — the render's arguments set them. */
export function Composition({ component, lazyComponent, defaultProps }) {
  const C = component || lazyComponent;
  if (!C) throw new TypeError('<Composition> needs a component={…}');
  return createElement(C, defaultProps || {});
}
export const Still = Composition;

// ---- files, render control, randomness --------------------------------------------------------
/** A file next to the scene (staticFile('logo.png')) or an absolute tree path, as a URL. */
export function staticFile(name) {
  if (typeof name !== 'string' || !name) throw new TypeError(`staticFile: expects a file name, got ${describe(name)}`);
  if (/^[a-z]+:/i.test(name)) throw new TypeError(`staticFile: expects a tree path or a name next to the scene, not a URL (${name})`);
  const base = new URL(F().scene || '/', 'http://folio.scene');
  return new URL(encodeURI(name), base).pathname;
}
export function delayRender(label) {
  return F().delay(label);
}
export function continueRender(handle) {
  F().release(handle);
}
/** The hook form: {delayRender, continueRender, cancelRender}. */
export function useDelayRender() {
  return { delayRender, continueRender, cancelRender };
}
export function cancelRender(error) {
  F().recordError(error instanceof Error ? error : new Error(String(error)), 'scene');
}
/** Remotion's deterministic number in [0, 1) for a seed: a number seed is scaled by 1e10, a
 *  string is hashed (h = h*31 + code, kept to 32 bits), and the result goes through mulberry32;
 *  null → Math.random(). Anything else is refused, as Remotion refuses it. */
export function random(seed, extra) {
  if (extra !== undefined) throw new TypeError('random(seed) takes one argument — the seed (a number or a string)');
  if (seed === null) return Math.random();
  let a;
  if (typeof seed === 'number') a = seed * 10000000000;
  else if (typeof seed === 'string') {
    a = 0;
    for (let i = 0; i < seed.length; i++) a = ((a << 5) - a + seed.charCodeAt(i)) | 0;
  } else throw new TypeError(`random(seed): the seed must be a number or a string (or null for Math.random()), got ${describe(seed)}`);
  let t = a + 0x6d2b79f5;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
