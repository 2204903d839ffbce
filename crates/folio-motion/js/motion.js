// folio/motion — the frame API of a Folio scene (served as /__folio/motion.js; the import map
// answers the bare name `folio/motion`). It reads the frame from window.__folio (clock.js), so a
// scene re-renders exactly once per frame with frame f, and t = f / fps.
//
//   useFrame() · useVideoConfig() · useTime() · interpolate() · spring() · Easing · Sequence
//
// Easing mixes two conventions so that either spelling works: Easing.in / out / inOut are the
// cubic curves (Easing.out(0.5) is a number) and, given a curve, the Remotion/React Native
// modifiers (Easing.out(Easing.quad) is a curve). remotion.js imports the shared helpers below.
import { createContext, createElement, useContext, useSyncExternalStore } from 'react';
import { checkProps } from './props.js';

const F = () => window.__folio;

// ---- frames -----------------------------------------------------------------------------------
// The offset a <Sequence> subtracts from the frame its children see, and the window it clips to.
// `frozen` (set by remotion's <Freeze>) pins the absolute frame its subtree sees.
// `width`/`height`/`duration` (null outside any Sequence) are what Remotion's useVideoConfig()
// reports inside it.
export const SequenceContext = createContext({ offset: 0, end: Infinity, frozen: null, width: null, height: null, duration: null });

const subscribe = (cb) => F().onFrame(cb);
const snapshot = () => F().frame.frame;

/** The absolute frame of the render (no Sequence offset). */
export function useAbsoluteFrame() {
  const live = useSyncExternalStore(subscribe, snapshot, snapshot);
  const frozen = useContext(SequenceContext).frozen;
  return frozen === null || frozen === undefined ? live : frozen;
}
/** The current frame, relative to the innermost <Sequence>. */
export function useFrame() {
  const abs = useAbsoluteFrame();
  return abs - useContext(SequenceContext).offset;
}
/** {fps, durationInFrames, width, height} of the render. */
export function useVideoConfig() {
  const f = F().frame;
  return { fps: f.fps, durationInFrames: f.durationInFrames, width: f.width, height: f.height };
}
/** Seconds since the start (of the innermost <Sequence>): frame / fps. */
export function useTime() {
  const frame = useFrame();
  return frame / (F().frame.fps || 30);
}

// ---- Sequence -----------------------------------------------------------------------------------
/** Renders its children only while from <= frame < from + durationInFrames; inside, useFrame()
 *  counts from 0 at `from`. Sequences nest (offsets add up, windows intersect). Its props are
 *  checked against props.js's table (each documented prop honoured or refused by name). Inside
 *  it, Remotion's useVideoConfig() reports the sequence's width, height and duration. */
export function Sequence(props) {
  return sequence('Sequence', props);
}
/** The one Sequence behind <Sequence>, <Series.Sequence> and <TransitionSeries.Sequence>
 *  (`component` names it in errors); `checked`: the caller already checked the props the author
 *  wrote and added `from` itself. */
export function sequence(component, props, checked = false) {
  const p = checked ? props : checkProps(component, props);
  const { from = 0, durationInFrames = Infinity, children, style, className, layout = 'absolute-fill', name, freeze = null, width, height, hidden = false } = p;
  const parent = useContext(SequenceContext);
  const abs = useAbsoluteFrame();
  if (typeof from !== 'number' || Number.isNaN(from)) throw new TypeError(`<${component} from> must be a number of frames, got ${describe(from)}`);
  if (typeof durationInFrames !== 'number' || !(durationInFrames > 0)) {
    throw new TypeError(`<${component} durationInFrames> must be a positive number of frames (or left out for "until the end"), got ${describe(durationInFrames)}`);
  }
  if (layout !== 'absolute-fill' && layout !== 'none') {
    throw new TypeError(`<${component} layout> is "absolute-fill" (the default) or "none", got ${describe(layout)}`);
  }
  if (layout === 'none' && (props.premountFor || props.postmountFor)) throw new TypeError(`<${component}> with premountFor or postmountFor cannot have layout="none" (as in Remotion)`);
  if (freeze !== null && (typeof freeze !== 'number' || !Number.isFinite(freeze))) throw new TypeError(`<${component} freeze> must be a frame number (or null), got ${describe(freeze)}`);
  for (const [n, v] of [['width', width], ['height', height]]) {
    if (v !== undefined && (typeof v !== 'number' || !(v > 0))) throw new TypeError(`<${component} ${n}> must be a positive number of pixels, got ${describe(v)}`);
  }
  if (typeof hidden !== 'boolean') throw new TypeError(`<${component} hidden> must be true or false, got ${describe(hidden)}`);
  const start = parent.offset + from;
  const end = Math.min(parent.end, start + durationInFrames);
  if (hidden || abs < start || abs >= end) return null;
  // freeze={n}: the children see frame n of the sequence for as long as it shows.
  const frozen = freeze !== null ? start + freeze : parent.frozen;
  const parentDuration = parent.duration !== null ? parent.duration : F().frame.durationInFrames;
  const value = {
    offset: start, end, frozen,
    width: width !== undefined ? width : parent.width,
    height: height !== undefined ? height : parent.height,
    duration: Math.max(0, Math.min(parentDuration - from, durationInFrames)),
  };
  const inner = createElement(SequenceContext.Provider, { value }, children);
  if (layout === 'none') return inner;
  const size = { ...(width !== undefined ? { width } : {}), ...(height !== undefined ? { height } : {}) };
  return createElement('div', { style: { ...ABSOLUTE_FILL, ...size, ...style }, className, 'data-sequence': name }, inner);
}
export const ABSOLUTE_FILL = {
  position: 'absolute', top: 0, left: 0, right: 0, bottom: 0, width: '100%', height: '100%',
  display: 'flex', flexDirection: 'column',
};

// ---- helpers ------------------------------------------------------------------------------------
export function describe(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'function') return `a function (${v.name || 'anonymous'})`;
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'number') return String(v);
  try { return `${typeof v} ${JSON.stringify(v)}`; } catch (_) { return typeof v; }
}

/** Checks the ranges of interpolate(); `who` names the function in messages. */
export function checkRanges(who, inputRange, outputRange, { strict } = {}) {
  if (!Array.isArray(inputRange) || !Array.isArray(outputRange)) {
    throw new TypeError(`${who}: inputRange and outputRange must be arrays, e.g. ${who}(frame, [0, 30], [0, 1])`);
  }
  if (inputRange.length !== outputRange.length) {
    throw new Error(`${who}: inputRange (${inputRange.length} values) and outputRange (${outputRange.length} values) must have the same length`);
  }
  if (inputRange.length < 2) throw new Error(`${who}: inputRange must have at least 2 values, e.g. [0, 30]`);
  for (let i = 0; i < inputRange.length; i++) {
    if (typeof inputRange[i] !== 'number' || Number.isNaN(inputRange[i])) {
      throw new TypeError(`${who}: inputRange must contain only numbers, got ${describe(inputRange[i])} at index ${i}`);
    }
    if (i > 0 && (strict ? inputRange[i] <= inputRange[i - 1] : inputRange[i] < inputRange[i - 1])) {
      throw new Error(`${who}: inputRange must be ${strict ? 'strictly ' : ''}increasing, got [${inputRange.join(', ')}]`);
    }
  }
}

export function easingError(who, easing) {
  const got = typeof easing === 'string'
    ? `the string ${JSON.stringify(easing)} — pass the curve itself, e.g. Easing.${/^[A-Za-z]\w*$/.test(easing) ? easing : 'inOut'}`
    : `${describe(easing)} — pass the curve itself (Easing.cubic, Easing.out(Easing.cubic), Easing.bezier(0.4, 0, 0.2, 1)), not the value it returns for one t (Easing.out(Easing.cubic)(t) is a number)`;
  return new TypeError(`${who}: easing must be a function from t in [0, 1] to a progress value; got ${got}`);
}

/** The segment of inputRange holding `input` (the last one whose start is <= input). */
export function segmentOf(input, inputRange) {
  let i = 1;
  while (i < inputRange.length - 1 && input >= inputRange[i]) i++;
  return i - 1;
}

// ---- interpolate --------------------------------------------------------------------------------
/** Piecewise-linear map of input from inputRange to outputRange, always clamped to the range,
 *  with an optional easing curve applied to the progress within the segment. */
export function interpolate(input, inputRange, outputRange, options) {
  const easing = options && options.easing !== undefined ? options.easing : linear;
  if (typeof easing !== 'function') throw easingError('interpolate', easing);
  checkRanges('interpolate', inputRange, outputRange);
  for (let i = 0; i < outputRange.length; i++) {
    if (typeof outputRange[i] !== 'number' || Number.isNaN(outputRange[i])) {
      throw new TypeError(`interpolate: outputRange must contain only numbers, got ${describe(outputRange[i])} at index ${i}${typeof outputRange[i] === 'string' ? ' — for colours use interpolateColors from "remotion" or a CSS transition' : ''}`);
    }
  }
  if (typeof input !== 'number' || Number.isNaN(input)) throw new TypeError(`interpolate: input must be a number (the frame, say), got ${describe(input)}`);
  const i = segmentOf(input, inputRange);
  const a = inputRange[i];
  const b = inputRange[i + 1];
  const from = outputRange[i];
  const to = outputRange[i + 1];
  if (b === a) return input < a ? from : to;
  let t = (input - a) / (b - a);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return from + (to - from) * easing(t);
}

// ---- spring ---------------------------------------------------------------------------------------
/** spring(t): an entrance curve of seconds t — 0 at t <= 0, rising to 1 with a small overshoot
 *  that dies out: 1 - e^(-damping·t)·cos(2π·frequency·t).
 *  spring({frame, fps, config, from, to, durationInFrames, delay, reverse}): the Remotion-style
 *  physics spring (see physicsSpring), so code written for either API works. */
export function spring(t, { damping = 6, frequency = 1.5 } = {}) {
  if (t !== null && typeof t === 'object') return physicsSpring(t);
  if (typeof t !== 'number' || Number.isNaN(t)) throw new TypeError(`spring: expects seconds (useTime()) or {frame, fps}, got ${describe(t)}`);
  if (t <= 0) return 0;
  return 1 - Math.exp(-damping * t) * Math.cos(2 * Math.PI * frequency * t);
}

// A damped harmonic oscillator stepped once per frame (the closed-form solution over each step,
// so the result is the analytic spring at t = frame / fps; a step is capped at 64 ms).
export const SPRING_DEFAULTS = { damping: 10, mass: 1, stiffness: 100, overshootClamping: false };
function springStep(state, dtMs, cfg) {
  const c = cfg.damping;
  const m = cfg.mass;
  const k = cfg.stiffness;
  const v0 = -state.velocity;
  const x0 = 1 - state.current;
  const zeta = c / (2 * Math.sqrt(k * m));
  const omega0 = Math.sqrt(k / m);
  const t = Math.min(dtMs, 64) / 1000;
  let current;
  let velocity;
  if (zeta < 1) {
    const omega1 = omega0 * Math.sqrt(1 - zeta * zeta);
    const env = Math.exp(-zeta * omega0 * t);
    const sin1 = Math.sin(omega1 * t);
    const cos1 = Math.cos(omega1 * t);
    const a = v0 + zeta * omega0 * x0;
    current = 1 - env * ((a / omega1) * sin1 + x0 * cos1);
    velocity = zeta * omega0 * env * ((sin1 * a) / omega1 + x0 * cos1) - env * (cos1 * a - omega1 * x0 * sin1);
  } else {
    const env = Math.exp(-omega0 * t);
    current = 1 - env * (x0 + (v0 + omega0 * x0) * t);
    velocity = env * (v0 * (t * omega0 - 1) + t * x0 * omega0 * omega0);
  }
  return { current, velocity, time: state.time + dtMs };
}
function springConfig(config, who) {
  const cfg = { ...SPRING_DEFAULTS, ...(config || {}) };
  for (const k of ['damping', 'mass', 'stiffness']) {
    if (typeof cfg[k] !== 'number' || !(cfg[k] > 0)) {
      throw new TypeError(`${who}: config.${k} must be a positive number, got ${describe(cfg[k])}${k === 'damping' ? ' — with no damping the spring never settles' : ''}`);
    }
  }
  return cfg;
}
function checkFps(fps, who) {
  if (typeof fps !== 'number' || !(fps > 0)) throw new TypeError(`${who}: fps must be a positive number — pass {fps} from useVideoConfig(), got ${describe(fps)}`);
}
/** Progress 0→1 of a spring at `frame` (fractional frames allowed), as Remotion computes it. */
export function springProgress(frame, fps, cfg) {
  const target = Math.max(0, frame);
  let state = { current: 0, velocity: 0, time: 0 };
  // Whole frames are steps of one frame each; a fractional rest is one more short step from the
  // last whole frame (a single long step would be cut at 64 ms and land elsewhere).
  const whole = Math.floor(target);
  for (let f = 1; f <= whole; f++) state = springStep(state, (f / fps) * 1000 - state.time, cfg);
  if (target > whole) state = springStep(state, (target / fps) * 1000 - state.time, cfg);
  return state.current;
}
const measureCache = new Map();
/** Frames until a spring stays within `threshold` of its target for 20 frames. */
export function measureSpring({ fps, config, threshold = 0.005 } = {}) {
  checkFps(fps, 'measureSpring');
  if (typeof threshold !== 'number' || Number.isNaN(threshold) || threshold < 0) throw new TypeError(`measureSpring: threshold must be a number >= 0, got ${describe(threshold)}`);
  if (threshold === 0) return Infinity;
  if (threshold >= 1) return 0;
  const cfg = springConfig(config, 'measureSpring');
  const key = [fps, cfg.damping, cfg.mass, cfg.stiffness, threshold].join('/');
  if (measureCache.has(key)) return measureCache.get(key);
  let state = { current: 0, velocity: 0, time: 0 };
  let frame = 0;
  const step = () => { frame++; state = springStep(state, (frame / fps) * 1000 - state.time, cfg); };
  while (Math.abs(state.current - 1) >= threshold) {
    step();
    if (frame > 1e6) throw new Error('measureSpring: the spring does not settle within a million frames — raise its damping');
  }
  let finished = frame;
  for (let calm = 0; calm < 20; calm++) {
    step();
    if (Math.abs(state.current - 1) >= threshold) { calm = -1; finished = frame + 1; }
  }
  measureCache.set(key, finished);
  return finished;
}
/** Remotion-style spring({frame, fps, config, from, to, durationInFrames, durationRestThreshold,
 *  delay, reverse}). */
export function physicsSpring({ frame, fps, config, from = 0, to = 1, durationInFrames, durationRestThreshold, delay = 0, reverse = false } = {}) {
  if (typeof frame !== 'number' || Number.isNaN(frame)) throw new TypeError(`spring: frame must be a number — pass {frame: useCurrentFrame(), fps}, got ${describe(frame)}`);
  checkFps(fps, 'spring');
  if (durationInFrames !== undefined && (typeof durationInFrames !== 'number' || !(durationInFrames > 0))) {
    throw new TypeError(`spring: durationInFrames must be a positive number, got ${describe(durationInFrames)}`);
  }
  const cfg = springConfig(config, 'spring');
  const natural = reverse || durationInFrames !== undefined ? measureSpring({ fps, config: cfg, threshold: durationRestThreshold }) : undefined;
  const base = reverse ? (durationInFrames !== undefined ? durationInFrames : natural) - frame : frame;
  const delayed = base + (reverse ? delay : -delay);
  if (durationInFrames !== undefined && delayed > durationInFrames) return to;
  const scaled = durationInFrames === undefined ? delayed : delayed / (durationInFrames / natural);
  let p = springProgress(scaled, fps, cfg);
  if (cfg.overshootClamping) p = Math.min(p, 1);
  return from === 0 && to === 1 ? p : from + (to - from) * p;
}

// ---- easing curves ----------------------------------------------------------------------------------
export const linear = (t) => t;
export const quad = (t) => t * t;
export const cubic = (t) => t * t * t;
export const sin = (t) => 1 - Math.cos((t * Math.PI) / 2);
export const circle = (t) => 1 - Math.sqrt(1 - t * t);
export const exp = (t) => (t === 0 ? 0 : Math.pow(2, 10 * (t - 1)));
export function bounce(t) {
  if (t < 1 / 2.75) return 7.5625 * t * t;
  if (t < 2 / 2.75) { const u = t - 1.5 / 2.75; return 7.5625 * u * u + 0.75; }
  if (t < 2.5 / 2.75) { const u = t - 2.25 / 2.75; return 7.5625 * u * u + 0.9375; }
  const u = t - 2.625 / 2.75;
  return 7.5625 * u * u + 0.984375;
}
export const easeIn = (e) => e;
export const easeOut = (e) => (t) => 1 - e(1 - t);
export const easeInOut = (e) => (t) => (t < 0.5 ? e(t * 2) / 2 : 1 - e((1 - t) * 2) / 2);

/** A CSS cubic-bezier(x1, y1, x2, y2) curve: x(s) is solved for s by bisection, y(s) returned. */
export function bezier(x1, y1, x2, y2) {
  for (const [n, v] of [['x1', x1], ['y1', y1], ['x2', x2], ['y2', y2]]) {
    if (typeof v !== 'number' || Number.isNaN(v)) throw new TypeError(`Easing.bezier(x1, y1, x2, y2): ${n} must be a number, got ${describe(v)}`);
  }
  if (x1 < 0 || x1 > 1 || x2 < 0 || x2 > 1) throw new RangeError(`Easing.bezier: x1 and x2 must be within [0, 1] (as in CSS cubic-bezier), got ${x1} and ${x2}`);
  const coord = (s, p1, p2) => 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s;
  if (x1 === y1 && x2 === y2) return linear;
  return (t) => {
    if (t <= 0) return 0;
    if (t >= 1) return 1;
    let lo = 0;
    let hi = 1;
    let s = t;
    for (let i = 0; i < 24; i++) {
      s = (lo + hi) / 2;
      if (coord(s, x1, x2) < t) lo = s; else hi = s;
    }
    return coord((lo + hi) / 2, y1, y2);
  };
}

// Names are identifier-like; probes such as `then`, `$$typeof` or symbols return undefined.
const PROBES = new Set(['then', 'toJSON', 'toString', 'valueOf', 'constructor', 'inspect', 'nodeType', 'tagName', 'asymmetricMatch']);
/** Wraps an easing table so an unknown name fails loudly, listing the real ones. */
export function strictEasing(table, label) {
  const names = Object.keys(table).map((k) => (k === 'bezier' ? 'bezier(x1, y1, x2, y2)' : k)).join(', ');
  return new Proxy(table, {
    get(target, key, receiver) {
      if (typeof key !== 'string' || key in target) return Reflect.get(target, key, receiver);
      if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key) || PROBES.has(key)) return undefined;
      throw new TypeError(`${label}.${key} does not exist. Available: ${names} — a custom curve is ${label}.bezier(x1, y1, x2, y2), as in CSS cubic-bezier()`);
    },
  });
}

// in / out / inOut: the cubic curves when given a number, the modifiers when given a curve.
const dual = (curve, modifier) => (x) => (typeof x === 'function' ? modifier(x) : curve(x));
const cubicIn = cubic;
const cubicOut = easeOut(cubic);
const cubicInOut = easeInOut(cubic);
const backCurve = (t) => t * t * ((1.70158 + 1) * t - 1.70158);

export const Easing = strictEasing({
  linear,
  in: dual(cubicIn, easeIn),
  out: dual(cubicOut, easeOut),
  inOut: dual(cubicInOut, easeInOut),
  ease: cubicInOut,
  easeIn: cubicIn,
  easeOut: cubicOut,
  easeInOut: cubicInOut,
  quad,
  cubic,
  sin,
  expo: exp,
  exp,
  circle,
  back: backCurve,
  bounce,
  bezier,
}, 'Easing');
