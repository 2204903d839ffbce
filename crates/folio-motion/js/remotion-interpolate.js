// Remotion's `interpolate` and `Easing`, as remotion.js exports them. Written for Folio from
// Remotion's documentation and checked against numbers computed from the `remotion` npm package
// (tests/scenes/remotion-reference-interpolate.json names the version); it is not Remotion's code.
//
// What Remotion does, and so this does:
// - The curves are React Native's (Remotion took them from there). Easing.circle and
//   Easing.bounce read t clamped to [0, 1] (so extrapolation never gives NaN); Easing.exp is
//   2^(10(t-1)) with no special case at 0; Easing.ease is cubic-bezier(0.42, 0, 1, 1).
// - Easing.bezier is the classic cubic-bezier solver (an 11-sample table in 32-bit floats for the
//   first guess, then Newton steps or bisection), and reads x clamped to [0, 1]: under
//   extrapolate 'extend' a bezier curve holds its end values, as Remotion's does.
// - Easing.spring(config) is a spring settled in 30 frames at 30 fps; with {allowTail: true} it
//   runs its natural length and keeps moving past the segment's end (interpolate extends it, even
//   under extrapolateRight 'clamp', and later segments add the rest of its tail).
// - interpolate: inputRange strictly increasing (one value allowed: the output is then that
//   constant), extrapolateLeft/Right extend | clamp | identity | wrap (wrap repeats the whole
//   range before the segment is chosen), easing a curve or one curve per segment, posterize,
//   output 'linear' | 'perceptual-scale', numeric tuples per axis, booleans stepped by
//   Easing.step1. CSS-string outputs and outputType are refused by name (see cssRefusal).
import { describe, easingError, measureSpring, physicsSpring, strictEasing } from 'folio/motion';

// ---- the cubic-bezier solver --------------------------------------------------------------------
const SAMPLES = 11;
const STEP = 1 / (SAMPLES - 1);
const poly3 = (s, p1, p2) => ((1 - 3 * p2 + 3 * p1) * s + (3 * p2 - 6 * p1)) * s * s + 3 * p1 * s;
const slope = (s, p1, p2) => 3 * (1 - 3 * p2 + 3 * p1) * s * s + 2 * (3 * p2 - 6 * p1) * s + 3 * p1;

/** A CSS cubic-bezier(x1, y1, x2, y2) curve. */
export function bezier(x1, y1, x2, y2) {
  for (const [n, v] of [['x1', x1], ['y1', y1], ['x2', x2], ['y2', y2]]) {
    if (typeof v !== 'number' || Number.isNaN(v)) throw new TypeError(`Easing.bezier(x1, y1, x2, y2): ${n} must be a number, got ${describe(v)}`);
  }
  if (!(x1 >= 0 && x1 <= 1 && x2 >= 0 && x2 <= 1)) throw new RangeError(`Easing.bezier: x1 and x2 must be within [0, 1] (as in CSS cubic-bezier), got ${x1} and ${x2}`);
  const straight = x1 === y1 && x2 === y2;
  const table = new Float32Array(SAMPLES);
  if (!straight) for (let i = 0; i < SAMPLES; i++) table[i] = poly3(i * STEP, x1, x2);
  const solve = (x) => {
    let start = 0;
    let k = 1;
    while (k !== SAMPLES - 1 && table[k] <= x) { start += STEP; k++; }
    k--;
    const guess = start + ((x - table[k]) / (table[k + 1] - table[k])) * STEP;
    const m = slope(guess, x1, x2);
    if (m >= 0.001) {
      let s = guess;
      for (let i = 0; i < 4; i++) {
        const d = slope(s, x1, x2);
        if (d === 0) return s;
        s -= (poly3(s, x1, x2) - x) / d;
      }
      return s;
    }
    if (m === 0) return guess;
    let lo = start;
    let hi = start + STEP;
    let s;
    let err;
    let n = 0;
    do {
      s = lo + (hi - lo) / 2;
      err = poly3(s, x1, x2) - x;
      if (err > 0) hi = s; else lo = s;
    } while (Math.abs(err) > 1e-7 && ++n < 10);
    return s;
  };
  return (t) => {
    const x = Math.min(1, Math.max(0, t));
    if (straight) return x;
    if (x === 0 || x === 1) return x;
    return poly3(solve(x), y1, y2);
  };
}

// ---- the curves ---------------------------------------------------------------------------------
const unit = (t) => Math.min(1, Math.max(0, t));
const easeCurve = bezier(0.42, 0, 1, 1);
const SPRING_EASING_FRAMES = 30;

function springEasing({ allowTail = false, durationRestThreshold, ...config } = {}) {
  const curve = (t) => {
    if (t <= 0) return 0;
    if (allowTail) {
      const natural = measureSpring({ fps: SPRING_EASING_FRAMES, config, threshold: durationRestThreshold });
      return physicsSpring({ fps: SPRING_EASING_FRAMES, frame: t * natural, config });
    }
    if (t >= 1) return 1;
    return physicsSpring({ fps: SPRING_EASING_FRAMES, frame: t * SPRING_EASING_FRAMES, config, durationInFrames: SPRING_EASING_FRAMES, durationRestThreshold });
  };
  curve.remotionShouldExtendRight = allowTail;
  return curve;
}

function bounce(t) {
  const u = unit(t);
  const k = 7.5625;
  if (u < 1 / 2.75) return k * u * u;
  if (u < 2 / 2.75) { const v = u - 1.5 / 2.75; return k * v * v + 0.75; }
  if (u < 2.5 / 2.75) { const v = u - 2.25 / 2.75; return k * v * v + 0.9375; }
  const v = u - 2.625 / 2.75;
  return k * v * v + 0.984375;
}

const step1 = (t) => (t >= 1 ? 1 : 0);

export const Easing = strictEasing({
  step0: (t) => (t > 0 ? 1 : 0),
  step1,
  linear: (t) => t,
  ease: (t) => easeCurve(t),
  quad: (t) => t * t,
  cubic: (t) => t * t * t,
  poly: (n) => (t) => t ** n,
  sin: (t) => 1 - Math.cos((t * Math.PI) / 2),
  circle: (t) => { const u = unit(t); return 1 - Math.sqrt(1 - u * u); },
  exp: (t) => 2 ** (10 * (t - 1)),
  elastic: (bounciness = 1) => { const p = bounciness * Math.PI; return (t) => 1 - Math.cos((t * Math.PI) / 2) ** 3 * Math.cos(t * p); },
  back: (s = 1.70158) => (t) => t * t * ((s + 1) * t - s),
  spring: springEasing,
  bounce,
  bezier,
  in: (curve) => curve,
  out: (curve) => (t) => 1 - curve(1 - t),
  inOut: (curve) => (t) => (t < 0.5 ? curve(t * 2) / 2 : 1 - curve((1 - t) * 2) / 2),
}, 'Easing');

// ---- interpolate --------------------------------------------------------------------------------
const EXTRAPOLATIONS = ['extend', 'clamp', 'identity', 'wrap'];
const wrapInto = (x, lo, hi) => ((((x - lo) % (hi - lo)) + (hi - lo)) % (hi - lo)) + lo;
const signedArea = (s) => (s === 0 ? 0 : Math.sign(s) * s * s);
const fromArea = (a) => (a === 0 ? 0 : Math.sign(a) * Math.sqrt(Math.abs(a)));
const extendsRight = (curve) => curve.remotionShouldExtendRight === true;

// One segment [lo, hi] → [from, to].
function segment(x, lo, hi, from, to, curve, left, right, output) {
  let v = x;
  if (v < lo) {
    if (left === 'identity') return v;
    if (left === 'clamp') v = lo;
    else if (left === 'wrap') v = wrapInto(v, lo, hi);
  }
  if (v > hi) {
    const how = right === 'clamp' && extendsRight(curve) ? 'extend' : right;
    if (how === 'identity') return v;
    if (how === 'clamp') v = hi;
    else if (how === 'wrap') v = wrapInto(v, lo, hi);
  }
  if (from === to) return from;
  const p = curve((v - lo) / (hi - lo));
  if (output === 'perceptual-scale') return fromArea(p * (signedArea(to) - signedArea(from)) + signedArea(from));
  return p * (to - from) + from;
}

function segmentIndex(x, inputRange) {
  let i = 1;
  for (; i < inputRange.length - 1; i++) if (inputRange[i] >= x) break;
  return i - 1;
}

function resolvedInput(input, inputRange, o) {
  const x = o.posterize === undefined ? input : Math.floor(input / o.posterize) * o.posterize;
  const lo = inputRange[0];
  const hi = inputRange[inputRange.length - 1];
  if (inputRange.length > 1 && ((x < lo && o.extrapolateLeft === 'wrap') || (x > hi && o.extrapolateRight === 'wrap'))) return wrapInto(x, lo, hi);
  return x;
}

const curveOf = (easing, i) => (easing === undefined ? (t) => t : typeof easing === 'function' ? easing : easing[i]);

function numeric(input, inputRange, outputRange, o) {
  if (inputRange.length === 1) return outputRange[0];
  const left = o.extrapolateLeft !== undefined ? o.extrapolateLeft : 'extend';
  const right = o.extrapolateRight !== undefined ? o.extrapolateRight : 'extend';
  const output = o.output !== undefined ? o.output : 'linear';
  const x = resolvedInput(input, inputRange, o);
  const i = segmentIndex(x, inputRange);
  let v = segment(x, inputRange[i], inputRange[i + 1], outputRange[i], outputRange[i + 1], curveOf(o.easing, i), left, right, output);
  // A tail-allowing spring of an earlier segment is still moving: add what it has left.
  for (let k = 0; k < i; k++) {
    const curve = curveOf(o.easing, k);
    if (!extendsRight(curve) || x <= inputRange[k + 1]) continue;
    v += segment(x, inputRange[k], inputRange[k + 1], outputRange[k], outputRange[k + 1], curve, left, 'extend', output) - outputRange[k + 1];
  }
  return v;
}

function discrete(input, inputRange, outputRange, o) {
  if (inputRange.length === 1) return outputRange[0];
  for (let k = 0; k < inputRange.length - 1; k++) {
    if (curveOf(o.easing, k) !== step1) throw new TypeError('interpolate: a boolean outputRange can only be interpolated with easing: Easing.step1');
  }
  const x = resolvedInput(input, inputRange, o);
  if (x < inputRange[0]) {
    if (o.extrapolateLeft === 'identity') throw new TypeError('interpolate: extrapolateLeft "identity" is not possible for a boolean outputRange');
    return outputRange[0];
  }
  if (x > inputRange[inputRange.length - 1]) {
    if (o.extrapolateRight === 'identity') throw new TypeError('interpolate: extrapolateRight "identity" is not possible for a boolean outputRange');
    return outputRange[outputRange.length - 1];
  }
  const i = segmentIndex(x, inputRange);
  return x >= inputRange[i + 1] ? outputRange[i + 1] : outputRange[i];
}

function cssRefusal(what) {
  return new TypeError(`interpolate: ${what} — Remotion's CSS-value interpolation (strings such as '10px' or 'rotate(45deg)', and outputType) is not provided in Folio. Interpolate the number and build the string: \`translateX(\${interpolate(frame, [0, 30], [0, 100])}px)\`; for colours use interpolateColors()`);
}

function validate(input, inputRange, outputRange, o) {
  if (input === undefined) throw new TypeError('interpolate: input is undefined — pass a number (the frame, say): interpolate(frame, [0, 30], [0, 1])');
  if (!Array.isArray(inputRange) || !Array.isArray(outputRange)) throw new TypeError('interpolate: inputRange and outputRange must be arrays, e.g. interpolate(frame, [0, 30], [0, 1])');
  if (inputRange.length !== outputRange.length) throw new Error(`interpolate: inputRange (${inputRange.length} values) and outputRange (${outputRange.length} values) must have the same length`);
  if (inputRange.length < 1) throw new Error('interpolate: inputRange must have at least 1 value');
  inputRange.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`interpolate: inputRange must contain only finite numbers, got ${describe(v)} at index ${i}`);
    if (i > 0 && !(v > inputRange[i - 1])) throw new Error(`interpolate: inputRange must be strictly increasing, got [${inputRange.join(', ')}]`);
  });
  if (Array.isArray(o.easing)) {
    if (o.easing.length !== inputRange.length - 1) throw new Error(`interpolate: an easing array needs one curve per segment (inputRange.length - 1 = ${inputRange.length - 1}), got ${o.easing.length}`);
    o.easing.forEach((e, i) => { if (typeof e !== 'function') throw easingError(`interpolate (easing[${i}])`, e); });
  } else if (o.easing !== undefined && typeof o.easing !== 'function') throw easingError('interpolate', o.easing);
  if (o.posterize !== undefined && !(typeof o.posterize === 'number' && Number.isFinite(o.posterize) && o.posterize > 0)) throw new Error(`interpolate: posterize must be a positive finite number, got ${describe(o.posterize)}`);
  if (o.output !== undefined && o.output !== 'linear' && o.output !== 'perceptual-scale') throw new Error(`interpolate: output must be "linear" or "perceptual-scale", got ${describe(o.output)}`);
  if (o.outputType !== undefined) throw cssRefusal(`outputType ${describe(o.outputType)} was given`);
  for (const [name, v] of [['extrapolateLeft', o.extrapolateLeft], ['extrapolateRight', o.extrapolateRight]]) {
    if (v !== undefined && !EXTRAPOLATIONS.includes(v)) throw new TypeError(`interpolate: ${name} must be one of ${EXTRAPOLATIONS.map((e) => `'${e}'`).join(', ')}, got ${describe(v)}`);
  }
  if (typeof input !== 'number' || Number.isNaN(input)) throw new TypeError(`interpolate: input must be a number (the frame, say), got ${describe(input)}`);
}

/** Remotion's interpolate(input, inputRange, outputRange, options). */
export function interpolate(input, inputRange, outputRange, options) {
  const o = options || {};
  validate(input, inputRange, outputRange, o);
  if (outputRange.some((v) => typeof v === 'boolean')) {
    if (!outputRange.every((v) => typeof v === 'boolean')) throw new TypeError('interpolate: a boolean outputRange must contain only booleans');
    return discrete(input, inputRange, outputRange, o);
  }
  const str = outputRange.findIndex((v) => typeof v === 'string');
  if (str >= 0) throw cssRefusal(`outputRange holds the string ${describe(outputRange[str])} at index ${str}`);
  if (outputRange.every((v) => Array.isArray(v))) {
    const n = outputRange[0].length;
    if (n === 0) throw new TypeError('interpolate: outputRange tuples must hold at least 1 number');
    for (const t of outputRange) {
      if (t.length !== n) throw new TypeError(`interpolate: outputRange tuples must all have the same length, got ${n} and ${t.length}`);
      if (!t.every((v) => typeof v === 'number' && Number.isFinite(v))) throw new TypeError(`interpolate: outputRange tuples must hold only finite numbers, got [${t.join(', ')}]`);
    }
    return Array.from({ length: n }, (_, axis) => numeric(input, inputRange, outputRange.map((t) => t[axis]), o));
  }
  outputRange.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`interpolate: outputRange must contain only finite numbers (or numeric tuples, or booleans), got ${describe(v)} at index ${i}`);
  });
  return numeric(input, inputRange, outputRange, o);
}
